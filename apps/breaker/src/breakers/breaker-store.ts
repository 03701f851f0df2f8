import { Injectable } from '@nestjs/common';
import { BREAKER_LEDGER_BUCKET, BREAKER_STATE_BUCKET, breakerStateKey, type BreakerStateRecord } from '@warden/contracts';
import { BusConnection, RecordStore, type KeptSession } from '@warden/messaging';
import { RollingDay, type RollingDaySnapshot, type SessionLedger } from '@warden/breakers';

/**
 * Where the breaker keeps what it knows: each session's ledger (kept by the session keeper) and each
 * agent's rolling day in warden_breaker_ledger; and the state the reviewer reads in
 * warden_breaker_state, derived from the ledger after each change.
 */
@Injectable()
export class BreakerStore {
  readonly ledgers: RecordStore<KeptSession<SessionLedger>>;
  private readonly days: RecordStore<RollingDaySnapshot>;
  private readonly states: RecordStore<BreakerStateRecord>;

  constructor(bus: BusConnection) {
    this.ledgers = new RecordStore(bus.nc, BREAKER_LEDGER_BUCKET);
    this.days = new RecordStore(bus.nc, BREAKER_LEDGER_BUCKET);
    this.states = new RecordStore(bus.nc, BREAKER_STATE_BUCKET);
  }

  /**
   * Adds a cost to the agent's rolling day (once per id, however often it is retried) and returns the
   * day's total. Sessions of one agent run on different replicas: the record store decides again on
   * the fresh day when another replica wrote first.
   */
  async addToDay(agentId: string, costId: string, at: number, usd: number, bucketMs: number): Promise<number> {
    const { value } = await this.days.update(`day.${agentId}`, (stored) => {
      const day = new RollingDay(bucketMs, stored ?? RollingDay.empty());
      return day.add(costId, at, usd) ? day.snapshot : undefined;
    });
    return new RollingDay(bucketMs, value ?? RollingDay.empty()).total(at);
  }

  async writeState(record: BreakerStateRecord): Promise<void> {
    await this.states.put(breakerStateKey(record.agent_id, record.session_id), record);
  }

  removeState(agentId: string, sessionId: string): Promise<void> {
    return this.states.delete(breakerStateKey(agentId, sessionId));
  }
}
