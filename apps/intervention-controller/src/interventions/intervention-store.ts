import { Injectable } from '@nestjs/common';
import { INTERVENTION_STATE_BUCKET } from '@warden/contracts';
import { BusConnection, KvRecords } from '@warden/messaging';
import type { SessionRecord } from '@warden/interventions';

export interface StoredRecord {
  record: SessionRecord;
  /** KV revision it was read or last written at; 0 when not stored yet. */
  revision: number;
}

const sessionKey = (agentId: string, sessionId: string) => `session.${agentId}.${sessionId}`;

/**
 * Where the controller keeps each session's record (history, cooldown, counts, checkpoints) in
 * `warden_interventions`, written with compare-and-set so two replicas never both apply an event.
 */
@Injectable()
export class InterventionStore {
  private readonly records: KvRecords<SessionRecord>;

  constructor(bus: BusConnection) {
    this.records = new KvRecords(bus.nc, INTERVENTION_STATE_BUCKET);
  }

  async load(agentId: string, sessionId: string): Promise<StoredRecord | null> {
    const stored = await this.records.get(sessionKey(agentId, sessionId));
    return stored && { record: stored.value, revision: stored.revision };
  }

  /** Writes the record if nobody else has since `revision`; returns the new revision. */
  save(stored: StoredRecord): Promise<number> {
    return this.records.put(sessionKey(stored.record.agent_id, stored.record.session_id), stored.record, stored.revision);
  }
}
