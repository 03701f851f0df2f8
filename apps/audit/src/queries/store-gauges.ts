import type { MetricsRegistry } from '@warden/observability';
import type { DataSource } from 'typeorm';

/**
 * Gauges read from the store rather than counted from events, so that they are right after a restart
 * and across replicas: sessions paused now, and how long the oldest unanswered gate request has waited.
 */
export class StoreGauges {
  private readonly paused;
  private readonly oldestWaiting;
  private readonly waiting;

  constructor(
    private readonly dataSource: DataSource,
    metrics: MetricsRegistry,
  ) {
    this.paused = metrics.gauge({ name: 'warden_suite_paused_sessions', help: 'Sessions whose last HITL change was a pause.' });
    this.waiting = metrics.gauge({ name: 'warden_suite_gate_requests_waiting', help: 'Gate requests not answered yet.' });
    this.oldestWaiting = metrics.gauge({ name: 'warden_suite_gate_oldest_waiting_seconds', help: 'How long the oldest unanswered gate request has waited (0 when none).' });
  }

  async refresh(now = Date.now()): Promise<void> {
    const [paused] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM (
         SELECT DISTINCT ON (session_id) type FROM audit_event WHERE type IN ('hitl.paused', 'hitl.resumed')
         ORDER BY session_id, occurred_at DESC, chain_seq DESC NULLS LAST
       ) last WHERE type = 'hitl.paused'`,
    )) as { n: number }[];
    const [waiting] = (await this.dataSource.query(
      `SELECT count(*)::int AS n, min(r.occurred_at) AS oldest FROM audit_gate_event r
       WHERE r.type = 'gate.requested'
         AND NOT EXISTS (SELECT 1 FROM audit_gate_event a WHERE a.type = 'gate.responded' AND a.request_id = r.request_id)`,
    )) as { n: number; oldest: Date | null }[];
    this.paused.set(paused?.n ?? 0);
    this.waiting.set(waiting?.n ?? 0);
    this.oldestWaiting.set(waiting?.oldest ? Math.max(0, (now - new Date(waiting.oldest).getTime()) / 1000) : 0);
  }
}
