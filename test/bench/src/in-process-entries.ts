import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';

/**
 * A service's in-process benchmark (test/bench/src/in-process/<name>-benchmark.ts), built: each runs in a
 * process of its own, so that nothing else shares its heap or its CPU.
 */
export function inProcessBenchmark(name: 'review' | 'breaker' | 'pattern' | 'audit' | 'gate'): string {
  return join(WORKSPACE_ROOT, 'test/bench/dist/in-process', `${name}-benchmark.js`);
}
