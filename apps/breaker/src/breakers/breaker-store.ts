import { Injectable } from '@nestjs/common';
import { Kvm, type KV } from '@nats-io/kv';
import { BREAKER_LEDGER_BUCKET, BREAKER_STATE_BUCKET, breakerStateKey, type BreakerStateRecord } from '@warden/contracts';
import { BusConnection, KvRecords, RecordConflictError } from '@warden/messaging';
import { RollingDay, type RollingDaySnapshot } from '@warden/breakers';
import type { SessionLedger } from '@warden/breakers';

const DAY_RETRIES = 20;

export interface StoredLedger {
  ledger: SessionLedger;
  /** KV revision the ledger was read or last written at; 0 when it is not stored yet. */
  revision: number;
}

const encoder = new TextEncoder();
const sessionKey = (agentId: string, sessionId: string) => `session.${agentId}.${sessionId}`;

/**
 * Where the breaker keeps what it knows: each session's ledger and each agent's rolling day in
 * warden_breaker_ledger, written with compare-and-set so two replicas never both apply an event;
 * and the state the reviewer reads in warden_breaker_state, derived from the ledger after each write.
 */
@Injectable()
export class BreakerStore {
  private readonly sessions: KvRecords<SessionLedger>;
  private readonly days: KvRecords<RollingDaySnapshot>;
  private stateBucket?: Promise<KV>;

  constructor(private readonly bus: BusConnection) {
    this.sessions = new KvRecords(bus.nc, BREAKER_LEDGER_BUCKET);
    this.days = new KvRecords(bus.nc, BREAKER_LEDGER_BUCKET);
  }

  async loadSession(agentId: string, sessionId: string): Promise<StoredLedger | null> {
    const stored = await this.sessions.get(sessionKey(agentId, sessionId));
    return stored && { ledger: stored.value, revision: stored.revision };
  }

  /** Writes the ledger if nobody else has since `revision`; returns the new revision. */
  saveSession(stored: StoredLedger): Promise<number> {
    return this.sessions.put(sessionKey(stored.ledger.agent_id, stored.ledger.session_id), stored.ledger, stored.revision);
  }

  /** Every stored session (agent, session), for a replica that takes over partitions. */
  async sessionKeys(): Promise<{ agentId: string; sessionId: string }[]> {
    const keys: { agentId: string; sessionId: string }[] = [];
    for (const key of await this.sessions.keys('session.>')) {
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
    const key = `day.${agentId}`;
    for (let attempt = 0; attempt < DAY_RETRIES; attempt++) {
      const stored = await this.days.get(key);
      const day = new RollingDay(bucketMs, stored?.value ?? RollingDay.empty());
      if (!day.add(costId, at, usd)) return day.total(at);
      try {
        await this.days.put(key, day.snapshot, stored?.revision ?? 0);
        return day.total(at);
      } catch (error) {
        if (!(error instanceof RecordConflictError)) throw error;
      }
    }
    throw new RecordConflictError(BREAKER_LEDGER_BUCKET, key);
  }

  async writeState(record: BreakerStateRecord): Promise<void> {
    await (await this.states()).put(breakerStateKey(record.agent_id, record.session_id), encoder.encode(JSON.stringify(record)));
  }

  async removeState(agentId: string, sessionId: string): Promise<void> {
    await (await this.states()).delete(breakerStateKey(agentId, sessionId));
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
