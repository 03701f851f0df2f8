import { TransientError } from '@warden/messaging';
import type { DataSource, QueryRunner } from 'typeorm';
import { isConnectionError } from '../database/audit-data-source.js';
import { linkEvents, type ChainHead, type Unchained } from '../domain/chain-links.js';
import { EVENT_COLUMNS, EVENT_ROWS_SOURCE, eventRowParameters } from './event-rows.js';

/** One event to store, secrets already redacted. */
export type AuditEventRow = Unchained;

export interface WriteResult {
  /** Rows that were not in the store before this write (each event is counted once, from here). */
  inserted: AuditEventRow[];
  /** Rows that could not be stored, with the database's reason. */
  refused: Map<string, Error>;
}

/** Fixed key space of the per-session advisory locks (pg_advisory_xact_lock(bigint)). */
const CHAIN_LOCK_SEED = 7_311_843;
/** deadlock_detected, serialization_failure: another replica held the same sessions; try again. */
const RETRYABLE = new Set(['40P01', '40001']);

function transient(error: unknown): boolean {
  const code = (error as { code?: string; driverError?: { code?: string } })?.driverError?.code ?? (error as { code?: string })?.code;
  return isConnectionError(error) || (code !== undefined && RETRYABLE.has(code));
}

/** Which of the ids are stored already, and the chain heads of the sessions, in one round trip. */
const READ_STORED = `
  SELECT id AS key, NULL::bigint AS chain_seq, NULL::text AS hash FROM audit_event WHERE id = ANY($1::text[])
  UNION ALL
  SELECT session_id, chain_seq, hash FROM audit_chain_head WHERE session_id = ANY($2::text[])`;

/** Inserts the linked events and moves the sessions' heads, in one statement. */
const INSERT_EVENTS_AND_HEADS = `
  WITH events AS (INSERT INTO audit_event (${EVENT_COLUMNS}) SELECT * FROM ${EVENT_ROWS_SOURCE})
  INSERT INTO audit_chain_head (session_id, chain_seq, hash, updated_at)
  SELECT s, n, h, now() FROM unnest($16::text[], $17::bigint[], $18::text[]) AS t(s, n, h)
  ON CONFLICT (session_id) DO UPDATE SET chain_seq = EXCLUDED.chain_seq, hash = EXCLUDED.hash, updated_at = now()`;

/**
 * Writes a batch of events in one transaction: locks the batch's sessions (a transaction-scoped advisory
 * lock per session, taken in a fixed order), leaves out ids already stored (a redelivered message never
 * makes a second row), links the new events to their sessions' hash chains from the heads read under the
 * lock, and inserts them with one multi-row insert. So two replicas (or a replica and the dead-letter
 * consumer, or two batches of one replica) writing the same session serialise, and the chain stays one
 * line per session. `placed` is told when the batch holds its locks: a transaction started after that
 * waits for them, so its events of the same sessions come after this batch's in their chains (the batcher
 * then starts the next batch, whose round trips overlap this one's insert). A batch the database refuses
 * goes again row by row, after the batch behind it, if that one was stored first.
 *
 * When the database is unreachable it throws TransientError: the messages stay unacknowledged and are
 * redelivered later. When the database refuses the batch, rows are retried one by one so that one bad
 * row does not hold back the others.
 */
export class AuditEventWriter {
  constructor(private readonly dataSource: DataSource) {}

  async write(rows: AuditEventRow[], placed: () => void): Promise<WriteResult> {
    const refused = new Map<string, Error>();
    try {
      return { inserted: await this.transaction(rows, placed), refused };
    } catch (error) {
      if (transient(error)) throw new TransientError(`database unavailable: ${(error as Error).message}`, { cause: error });
    }
    const inserted: AuditEventRow[] = [];
    for (const row of rows) {
      try {
        inserted.push(...(await this.transaction([row], placed)));
      } catch (rowError) {
        if (transient(rowError)) throw new TransientError(`database unavailable: ${(rowError as Error).message}`, { cause: rowError });
        refused.set(row.id, rowError as Error);
      }
    }
    return { inserted, refused };
  }

  private async transaction(rows: AuditEventRow[], placed: () => void): Promise<AuditEventRow[]> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const inserted = await this.insertNew(runner, rows, placed);
      await runner.commitTransaction();
      return inserted;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  private async insertNew(runner: QueryRunner, rows: AuditEventRow[], placed: () => void): Promise<AuditEventRow[]> {
    const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
    const sessions = [...new Set(unique.map((r) => r.sessionId))].sort();
    await runner.query(
      `SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended(s, ${CHAIN_LOCK_SEED}) AS k FROM unnest($1::text[]) AS s ORDER BY 1) AS locks`,
      [sessions],
    );
    placed();
    const found = (await runner.query(READ_STORED, [unique.map((r) => r.id), sessions])) as { key: string; chain_seq: string | null; hash: string | null }[];
    const stored = new Set<string>();
    const heads = new Map<string, ChainHead>();
    for (const f of found) {
      if (f.hash === null) stored.add(f.key);
      else heads.set(f.key, { chainSeq: Number(f.chain_seq), hash: f.hash });
    }
    const fresh = unique.filter((r) => !stored.has(r.id));
    if (!fresh.length) return [];
    const linked = linkEvents(fresh, heads);
    const c = linked.chained;
    const next = [...linked.heads.entries()];
    await runner.query(INSERT_EVENTS_AND_HEADS, [
      ...eventRowParameters(c),
      next.map(([s]) => s),
      next.map(([, h]) => h.chainSeq),
      next.map(([, h]) => h.hash),
    ]);
    return c.map((x) => x.event);
  }
}
