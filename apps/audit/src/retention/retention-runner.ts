import type { MetricsRegistry } from '@warden/observability';
import type { DataSource } from 'typeorm';
import { cutoffOf, RETENTION_TABLE_NAMES, typesOf, type RetentionDays, type RetentionTable } from '../domain/retention-policy.js';

export interface RetentionOptions {
  days: RetentionDays;
  /** Events deleted per statement. */
  batchSize: number;
  /** Statements per table and run; what is left waits for the next run. */
  maxBatchesPerRun: number;
}

export interface RetentionReport {
  ran: boolean;
  /** Set when another replica was running retention at the time. */
  skipped?: string;
  deleted: Partial<Record<RetentionTable, number>>;
  cutoffs: Partial<Record<RetentionTable, string>>;
  chains_removed: number;
}

/** Only one replica deletes at a time (session-level advisory lock on the connection that deletes). */
const RETENTION_LOCK = 7_311_844;

/**
 * Deletes events past their table's retention, oldest first, in bounded batches, each batch one
 * statement that also leaves a tombstone (the link's hashes) per deleted event, so that the hash chain
 * still verifies across what retention removed. Chains of sessions with nothing left are removed once
 * the longest retention has passed since their last event. Each run is recorded in audit_retention_run.
 */
export class RetentionRunner {
  private readonly deletedTotal;
  private running: Promise<RetentionReport> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: RetentionOptions,
    metrics?: MetricsRegistry,
  ) {
    this.deletedTotal = metrics?.counter({ name: 'warden_audit_retention_deleted_total', help: 'Events deleted by retention, by table.', labelNames: ['table'] });
  }

  /** Runs retention now; a run already under way in this process is joined rather than doubled. */
  run(now = new Date()): Promise<RetentionReport> {
    this.running ??= this.runOnce(now).finally(() => (this.running = null));
    return this.running;
  }

  private async runOnce(now: Date): Promise<RetentionReport> {
    const report: RetentionReport = { ran: false, deleted: {}, cutoffs: {}, chains_removed: 0 };
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [RETENTION_LOCK])) as { locked: boolean }[];
      if (!locked) return { ...report, skipped: 'another replica is running retention' };
      try {
        report.ran = true;
        for (const table of RETENTION_TABLE_NAMES) {
          const cutoff = cutoffOf(this.options.days[table], now);
          if (!cutoff) continue;
          report.cutoffs[table] = cutoff.toISOString();
          const types = typesOf(table);
          const typeFilter = 'include' in types ? 'type = ANY($2::text[])' : 'NOT (type = ANY($2::text[]))';
          const list = 'include' in types ? types.include : types.exclude;
          let deleted = 0;
          for (let batch = 0; batch < this.options.maxBatchesPerRun; batch++) {
            const [{ n }] = (await runner.query(
              `WITH doomed AS (
                 SELECT id FROM audit_event WHERE occurred_at < $1 AND ${typeFilter} ORDER BY occurred_at LIMIT $3
               ), gone AS (
                 DELETE FROM audit_event e USING doomed d WHERE e.id = d.id
                 RETURNING e.session_id, e.chain_seq, e.id, e.type, e.occurred_at, e.prev_hash, e.hash
               ), kept AS (
                 INSERT INTO audit_chain_tombstone (session_id, chain_seq, event_id, type, occurred_at, prev_hash, hash)
                 SELECT session_id, chain_seq, id, type, occurred_at, prev_hash, hash FROM gone WHERE chain_seq IS NOT NULL
                 ON CONFLICT DO NOTHING
               )
               SELECT count(*)::int AS n FROM gone`,
              [cutoff.toISOString(), list, this.options.batchSize],
            )) as { n: number }[];
            deleted += n;
            if (n < this.options.batchSize) break;
          }
          report.deleted[table] = deleted;
          if (deleted) this.deletedTotal?.inc({ table }, deleted);
          await runner.query(`INSERT INTO audit_retention_run (table_name, cutoff, deleted) VALUES ($1, $2, $3)`, [table, cutoff.toISOString(), deleted]);
        }
        const longest = Math.max(...Object.values(this.options.days));
        const chainCutoff = Object.values(this.options.days).includes(0) ? null : cutoffOf(longest, now);
        if (chainCutoff) {
          const [{ n }] = (await runner.query(
            `WITH s AS (
               SELECT h.session_id FROM audit_chain_head h
               WHERE h.updated_at < $1 AND NOT EXISTS (SELECT 1 FROM audit_event e WHERE e.session_id = h.session_id)
               LIMIT $2
             ), t AS (
               DELETE FROM audit_chain_tombstone WHERE session_id IN (SELECT session_id FROM s)
             ), h AS (
               DELETE FROM audit_chain_head WHERE session_id IN (SELECT session_id FROM s) RETURNING 1
             )
             SELECT count(*)::int AS n FROM h`,
            [chainCutoff.toISOString(), this.options.batchSize],
          )) as { n: number }[];
          report.chains_removed = n;
        }
        return report;
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK]).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }
}
