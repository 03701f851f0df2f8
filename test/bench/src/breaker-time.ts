import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import type { ReviewTimeSummary } from './review-time.js';
import { inProcessBenchmark } from './in-process-entries.js';

const run = promisify(execFile);

export interface BreakerTimeFigures {
  sessions: number;
  action: ReviewTimeSummary;
  outcome: ReviewTimeSummary;
  all: ReviewTimeSummary;
}

/**
 * The breakers' check time per event, in process, measured by the breaker benchmark
 * (test/bench/src/in-process/breaker-benchmark.ts) in a separate process.
 */
export async function measureBreakerTime(options: { count: number }): Promise<BreakerTimeFigures> {
  const entry = inProcessBenchmark('breaker');
  const { stdout } = await run(process.execPath, [entry, '--json', '--count', String(options.count)], { cwd: WORKSPACE_ROOT, maxBuffer: 1024 * 1024, timeout: 300_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as BreakerTimeFigures;
}

/**
 * The breaker's configuration while the benchmark runs beside it: the sessions propose thousands of
 * actions without phases, so the iteration limits are raised out of reach — what is measured is the
 * breaker's work on every event, not a session it has stopped.
 */
export const BENCH_BREAKER_CONFIG = `breakers:
  iteration:
    limits: { default: 1000000000, planning: 1000000000, implementation: 1000000000, review: 1000000000, testing: 1000000000, deployment: 1000000000 }
`;
