import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { nodeOptionsOf, WORKSPACE_ROOT } from '@warden/local-runtime';
import { inProcessBenchmark } from './in-process-entries.js';

const run = promisify(execFile);

/** What test/bench/src/in-process/audit-benchmark.ts prints with --json. */
export interface AuditIngestFigures {
  events: number;
  sessions: number;
  batch: number;
  /** Raw multi-row INSERT of the same rows into the same PostgreSQL, events/s. */
  baselineInsertPerSec: number;
  /** Through JetStream, the audit service's checks, hash chain and insert, acked after commit, events/s. */
  ingestPersistedPerSec: number;
  ingestVsBaseline: number;
  ingestMeanBatch: number;
  /** CPU the audit process spent per event while ingesting (user + system, all threads), µs. */
  ingestCpuMicrosPerEvent: number;
  lag: { publishRatePerSec: number; events: number; p50Seconds: number; p99Seconds: number };
}

/**
 * The audit's ingest rate beside a raw multi-row insert baseline, measured by the audit benchmark
 * (test/bench/src/in-process/audit-benchmark.ts) in a separate process with its own nats-server and PostgreSQL cluster,
 * started with the audit's Node options (apps/audit/package.json "nodeOptions").
 */
export async function measureAuditIngest(options: { count: number }): Promise<AuditIngestFigures> {
  const entry = inProcessBenchmark('audit');
  // The audit runs in the benchmark's process: with the Node options it runs with everywhere.
  const { stdout } = await run(process.execPath, [...nodeOptionsOf(WORKSPACE_ROOT, 'audit'), entry, '--json', '--count', String(options.count)], {
    cwd: WORKSPACE_ROOT,
    maxBuffer: 4 * 1024 * 1024,
    timeout: 600_000,
  });
  const figures = JSON.parse(stdout.trim().split('\n').pop()!) as AuditIngestFigures & { database?: string };
  delete figures.database;
  return figures;
}
