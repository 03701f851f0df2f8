import pg from 'pg';

export interface IngestLagFigures {
  /** Events of the measured phase found in PostgreSQL. */
  events: number;
  /** Seconds from the event's timestamp (set by its publisher) to its row being written. */
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  /** Events persisted per second over the phase, first to last row. */
  persistedPerSecond: number;
}

/**
 * The audit ingest lag of the events published during a phase, read from the rows themselves:
 * `recorded_at` is written by PostgreSQL when the row is inserted, `occurred_at` is the message's
 * timestamp from its publisher (same machine, same clock).
 */
export async function ingestLagSince(databaseUrl: string, since: Date): Promise<IngestLagFigures> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ events: string; p50: number | null; p99: number | null; max: number | null; span: number | null }>(
      `SELECT count(*) AS events,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) AS p99,
              max(lag) AS max,
              extract(epoch FROM max(recorded_at) - min(recorded_at)) AS span
         FROM (SELECT recorded_at, extract(epoch FROM recorded_at - occurred_at) * 1000 AS lag
                 FROM audit_event WHERE occurred_at >= $1) AS phase`,
      [since],
    );
    const row = rows[0]!;
    const events = Number(row.events);
    const round = (v: number | null) => Math.round((v ?? 0) * 100) / 100;
    return {
      events,
      lagP50Ms: round(row.p50),
      lagP99Ms: round(row.p99),
      lagMaxMs: round(row.max),
      persistedPerSecond: row.span && row.span > 0 ? Math.round((events / Number(row.span)) * 10) / 10 : 0,
    };
  } finally {
    await client.end();
  }
}
