import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { inProcessBenchmark } from './in-process-entries.js';

const run = promisify(execFile);

/** What test/bench/src/in-process/pattern-benchmark.ts prints with --json. */
export interface PatternTimeFigures {
  sessions: number;
  windowActions: number;
  event: { count: number; meanMs: number; p50Ms: number; p95Ms: number; p99Ms: number; p999Ms: number; maxMs: number };
  memory: { gcExposed: boolean; heapUsedMb: number; rssMb: number; heapPerSessionKb: number; largestSnapshotKb: number };
}

/**
 * The detectors' time per event and their memory with many active sessions, in process, measured by the
 * pattern benchmark (test/bench/src/in-process/pattern-benchmark.ts) in a separate process (so its heap is its own). The
 * sessions are held as the service holds them: by its session keeper, with the ids of the messages applied.
 */
export async function measurePatternTime(options: { sessions: number; count: number }): Promise<PatternTimeFigures> {
  const entry = inProcessBenchmark('pattern');
  const args = ['--expose-gc', entry, '--json', '--sessions', String(options.sessions), '--count', String(options.count)];
  const { stdout } = await run(process.execPath, args, { cwd: WORKSPACE_ROOT, maxBuffer: 4 * 1024 * 1024, timeout: 900_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as PatternTimeFigures;
}
