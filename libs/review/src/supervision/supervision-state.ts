import type { AutomationLevel, AutomationLevelRecord, BreakerStateRecord } from '@warden/contracts';

/**
 * The breaker states and automation levels the other services publish, as the reviewer last saw them.
 * Kept in memory and fed by watching the KV buckets, so a review never waits on a lookup.
 */
export class SupervisionState {
  private readonly breakers = new Map<string, BreakerStateRecord>();
  private readonly levels = new Map<string, AutomationLevel>();

  applyBreaker(agentId: string, sessionId: string, record: BreakerStateRecord | null): void {
    const key = `${agentId}\u0000${sessionId}`;
    if (record) this.breakers.set(key, record);
    else this.breakers.delete(key);
  }

  applyLevel(agentId: string, record: AutomationLevelRecord | null): void {
    if (record) this.levels.set(agentId, record.level as AutomationLevel);
    else this.levels.delete(agentId);
  }

  /** The session's open breakers that block: not disabled by an operator, not configured to report only. */
  openBreakers(agentId: string, sessionId: string): BreakerStateRecord['breakers'] {
    const record = this.breakers.get(`${agentId}\u0000${sessionId}`);
    if (!record || record.state !== 'open') return [];
    return record.breakers.filter((b) => b.state === 'open' && !b.disabled && !b.metrics_only);
  }

  /**
   * A session's spend known without the breaker's record (a replayed or described session), kept as the
   * breaker would publish it: a closed session that has cost `usd`. Nothing when it cost nothing.
   */
  applySpend(agentId: string, sessionId: string, usd: number, at = new Date(0).toISOString()): void {
    if (usd > 0) this.applyBreaker(agentId, sessionId, { agent_id: agentId, session_id: sessionId, state: 'closed', breakers: [], spend_usd: usd, updated_at: at });
  }

  /** What the session's run has cost, as the breaker last published it (0 before its first cost). */
  spendOf(agentId: string, sessionId: string): number {
    return this.breakers.get(`${agentId}\u0000${sessionId}`)?.spend_usd ?? 0;
  }

  levelOf(agentId: string): AutomationLevel | undefined {
    return this.levels.get(agentId);
  }

  get size(): { breakers: number; levels: number } {
    return { breakers: this.breakers.size, levels: this.levels.size };
  }
}
