import { Injectable } from '@nestjs/common';
import { PATTERN_SESSION_BUCKET } from '@warden/contracts';
import { BusConnection, KvRecords } from '@warden/messaging';
import type { SessionSnapshot } from '@warden/patterns';

export interface StoredSession {
  snapshot: SessionSnapshot;
  /** KV revision it was read or last written at; 0 when not stored yet. */
  revision: number;
}

const sessionKey = (agentId: string, sessionId: string) => `session.${agentId}.${sessionId}`;

/**
 * Each session's windows and episodes in `warden_pattern_sessions`, written with compare-and-set so two
 * replicas never both apply an event; a restarted or new replica carries on from there.
 */
@Injectable()
export class PatternStore {
  private readonly records: KvRecords<SessionSnapshot>;

  constructor(bus: BusConnection) {
    this.records = new KvRecords(bus.nc, PATTERN_SESSION_BUCKET);
  }

  async load(agentId: string, sessionId: string): Promise<StoredSession | null> {
    const stored = await this.records.get(sessionKey(agentId, sessionId));
    return stored && { snapshot: stored.value, revision: stored.revision };
  }

  /** Writes the snapshot if nobody else has since `revision`; returns the new revision. */
  save(stored: StoredSession): Promise<number> {
    return this.records.put(sessionKey(stored.snapshot.agent_id, stored.snapshot.session_id), stored.snapshot, stored.revision);
  }
}
