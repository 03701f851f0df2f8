import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { nodeOptionsOf, WORKSPACE_ROOT } from '@warden/local-runtime';
import { inProcessBenchmark } from './in-process-entries.js';

const run = promisify(execFile);

export interface ReviewTimeSummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

export interface ReviewTimeFigures {
  /** `cel`: of the custom rules, those written as CEL conditions. */
  rules: { builtIn: number; custom: number; cel?: number };
  sessions: number;
  actionTemplates: number;
  /** Every action distinct: the analysis cache never hits. */
  uncached: ReviewTimeSummary;
  /** The same 50 inputs again and again: the analysis comes from the cache. */
  cached: ReviewTimeSummary;
  /** Shell commands of 1-4 KB only (here-documents, one-liners, scripts), each distinct: parser included. */
  longCommands?: ReviewTimeSummary;
  /** The same, per shape of long command. */
  longCommandShapes?: (ReviewTimeSummary & { shape: string; bytes: number })[];
  /** Garbage collections that began during those reviews, and the reviews none fell into. */
  longCommandCollections?: { pauses: number; meanPauseMs: number; hit: number; operations: number; withoutPauses: ReviewTimeSummary };
  /** The Node options the measuring process ran with: the reviewer's own (apps/reviewer/package.json). */
  nodeOptions?: string[];
}

/**
 * The step reviewer's in-process review time, measured by the review benchmark
 * (test/bench/src/in-process/review-benchmark.ts) in a separate process so that nothing else shares its heap,
 * started with the reviewer's own Node options (its young generation) as the service is.
 */
export async function measureReviewTime(options: { customRules: number; celRules?: number; count: number }): Promise<ReviewTimeFigures> {
  const entry = inProcessBenchmark('review');
  const rules = ['--custom-rules', String(options.customRules), '--cel-rules', String(options.celRules ?? 0)];
  const { stdout } = await run(process.execPath, [...nodeOptionsOf(WORKSPACE_ROOT, 'reviewer'), entry, '--json', ...rules, '--count', String(options.count)], {
    cwd: WORKSPACE_ROOT,
    maxBuffer: 1024 * 1024,
    timeout: 300_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ReviewTimeFigures;
}
