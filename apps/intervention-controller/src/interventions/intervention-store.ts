import { Injectable } from '@nestjs/common';
import { Kvm, type KV } from '@nats-io/kv';
import { BusConnection } from '@warden/messaging';
import type { SessionRecord } from '../domain/session-record.js';

/** The controller's own state per session (`session.<agent>.<session>`): history, cooldown, counts, checkpoints. */
export const INTERVENTION_STATE_BUCKET = 'warden_interventions';

const WRONG_SEQUENCE = /wrong last sequence|key exists/i;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const sessionKey = (agentId: string, sessionId: string) => `session.${agentId}.${sessionId}`;

/** Another replica wrote the session since it was read: the reader's copy is stale. */
export class RecordConflictError extends Error {
  constructor(key: string) {
    super(`the intervention record ${key} changed under this replica; it is reloaded and the event retried`);
  }
}

export interface StoredRecord {
  record: SessionRecord;
  /** KV revision it was read or last written at; 0 when not stored yet. */
  revision: number;
}

/**
 * Where the controller keeps each session's record, written with compare-and-set so two replicas never
 * both apply an event. The bucket is created on first use when provisioning did not create it.
 */
@Injectable()
export class InterventionStore {
  private bucket?: Promise<KV>;

  constructor(private readonly bus: BusConnection) {}

  async load(agentId: string, sessionId: string): Promise<StoredRecord | null> {
    const entry = await (await this.kv()).get(sessionKey(agentId, sessionId));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return { record: JSON.parse(decoder.decode(entry.value)) as SessionRecord, revision: entry.revision };
  }

  /** Writes the record if nobody else has since `revision`; returns the new revision. */
  async save(stored: StoredRecord): Promise<number> {
    const kv = await this.kv();
    const key = sessionKey(stored.record.agent_id, stored.record.session_id);
    const value = encoder.encode(JSON.stringify(stored.record));
    try {
      return stored.revision === 0 ? await kv.create(key, value) : await kv.update(key, value, stored.revision);
    } catch (error) {
      if (error instanceof Error && WRONG_SEQUENCE.test(error.message)) throw new RecordConflictError(key);
      throw error;
    }
  }

  private kv(): Promise<KV> {
    this.bucket ??= this.open().catch((error: unknown) => {
      this.bucket = undefined;
      throw error;
    });
    return this.bucket;
  }

  private async open(): Promise<KV> {
    const kvm = new Kvm(this.bus.nc);
    try {
      const kv = await kvm.open(INTERVENTION_STATE_BUCKET);
      await kv.status();
      return kv;
    } catch {
      // Sessions silent for a week are forgotten, like the breaker's ledger.
      return kvm.create(INTERVENTION_STATE_BUCKET, { history: 1, ttl: 7 * 24 * 3_600_000, description: "The intervention controller's record of each session." });
    }
  }
}
