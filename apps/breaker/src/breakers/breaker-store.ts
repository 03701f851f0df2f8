import { Injectable } from '@nestjs/common';
import { Kvm, type KV } from '@nats-io/kv';
import { BREAKER_LEDGER_BUCKET, BREAKER_STATE_BUCKET, breakerStateKey, type BreakerStateRecord } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { RollingDay, type RollingDaySnapshot } from '../domain/rolling-day.js';
import type { SessionLedger } from '../domain/session-breakers.js';

const WRONG_SEQUENCE = /wrong last sequence|key exists/i;
const DAY_RETRIES = 20;

/** Another replica wrote the key since it was read: the reader's copy is stale. */
export class LedgerConflictError extends Error {
  constructor(key: string) {
    super(`the breaker ledger ${key} changed under this replica; it is reloaded and the event retried`);
  }
}

export interface StoredLedger {
  ledger: SessionLedger;
  /** KV revision the ledger was read or last written at; 0 when it is not stored yet. */
  revision: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const sessionKey = (agentId: string, sessionId: string) => `session.${agentId}.${sessionId}`;

/**
 * Where the breaker keeps what it knows: each session's ledger and each agent's rolling day in
 * warden_breaker_ledger, written with compare-and-set so two replicas never both apply an event;
 * and the state the reviewer reads in warden_breaker_state, derived from the ledger after each write.
 */
@Injectable()
export class BreakerStore {
  private ledgerBucket?: Promise<KV>;
  private stateBucket?: Promise<KV>;

  constructor(private readonly bus: BusConnection) {}

  async loadSession(agentId: string, sessionId: string): Promise<StoredLedger | null> {
    const entry = await (await this.ledgers()).get(sessionKey(agentId, sessionId));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return { ledger: JSON.parse(decoder.decode(entry.value)) as SessionLedger, revision: entry.revision };
  }

  /** Writes the ledger if nobody else has since `revision`; returns the new revision. */
  async saveSession(stored: StoredLedger): Promise<number> {
    const kv = await this.ledgers();
    const key = sessionKey(stored.ledger.agent_id, stored.ledger.session_id);
    const value = encoder.encode(JSON.stringify(stored.ledger));
    try {
      return stored.revision === 0 ? await kv.create(key, value) : await kv.update(key, value, stored.revision);
    } catch (error) {
      if (error instanceof Error && WRONG_SEQUENCE.test(error.message)) throw new LedgerConflictError(key);
      throw error;
    }
  }

  /** Every stored session (agent, session), for a replica that takes over partitions. */
  async sessionKeys(): Promise<{ agentId: string; sessionId: string }[]> {
    const keys: { agentId: string; sessionId: string }[] = [];
    for await (const key of await (await this.ledgers()).keys('session.>')) {
      const [, agentId, sessionId] = key.split('.');
      if (agentId && sessionId) keys.push({ agentId, sessionId });
    }
    return keys;
  }

  /**
   * Adds a cost to the agent's rolling day (once per id, however often it is retried) and returns the
   * day's total. Sessions of one agent run on different replicas, hence the compare-and-set loop.
   */
  async addToDay(agentId: string, costId: string, at: number, usd: number, bucketMs: number): Promise<number> {
    const kv = await this.ledgers();
    const key = `day.${agentId}`;
    for (let attempt = 0; attempt < DAY_RETRIES; attempt++) {
      const entry = await kv.get(key);
      const exists = entry !== null && entry.operation === 'PUT' && entry.length > 0;
      const day = new RollingDay(bucketMs, exists ? (JSON.parse(decoder.decode(entry.value)) as RollingDaySnapshot) : RollingDay.empty());
      if (!day.add(costId, at, usd)) return day.total(at);
      const value = encoder.encode(JSON.stringify(day.snapshot));
      try {
        if (exists) await kv.update(key, value, entry.revision);
        else await kv.create(key, value);
        return day.total(at);
      } catch (error) {
        if (!(error instanceof Error && WRONG_SEQUENCE.test(error.message))) throw error;
      }
    }
    throw new LedgerConflictError(key);
  }

  async writeState(record: BreakerStateRecord): Promise<void> {
    await (await this.states()).put(breakerStateKey(record.agent_id, record.session_id), encoder.encode(JSON.stringify(record)));
  }

  async removeState(agentId: string, sessionId: string): Promise<void> {
    await (await this.states()).delete(breakerStateKey(agentId, sessionId));
  }

  private ledgers(): Promise<KV> {
    this.ledgerBucket ??= this.open(BREAKER_LEDGER_BUCKET, () => (this.ledgerBucket = undefined));
    return this.ledgerBucket;
  }

  private states(): Promise<KV> {
    this.stateBucket ??= this.open(BREAKER_STATE_BUCKET, () => (this.stateBucket = undefined));
    return this.stateBucket;
  }

  /** Opens a provisioned bucket; a failure is not cached, so the next event tries again. */
  private async open(bucket: string, forget: () => void): Promise<KV> {
    try {
      const kv = await new Kvm(this.bus.nc).open(bucket);
      await kv.status();
      return kv;
    } catch (error) {
      forget();
      throw new Error(`the ${bucket} bucket is unavailable (run \`warden provision\`): ${(error as Error).message}`);
    }
  }
}
