/**
 * What the services' in-process benchmarks (review, breaker, pattern detector, ...) share: their
 * command-line options and how they summarise latencies, so that test/bench reads them all alike.
 */

/** Latency figures in milliseconds, rounded to 0.1 µs. */
export interface LatencySummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** The value at quantile `q` (0-1) of ascending `sorted` samples (nearest rank below). */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function summariseLatencies(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  return {
    count: sorted.length,
    meanMs: round(sorted.reduce((s, v) => s + v, 0) / sorted.length),
    p50Ms: round(percentile(sorted, 0.5)),
    p95Ms: round(percentile(sorted, 0.95)),
    p99Ms: round(percentile(sorted, 0.99)),
    p999Ms: round(percentile(sorted, 0.999)),
    maxMs: round(sorted[sorted.length - 1]!),
  };
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Reads `--<option> N` for each whole-number option in `defaults` (`customRules` is `--custom-rules`),
 * `--json`, and `--help` (prints `help` and exits). Throws with the option named on anything else.
 */
export function parseBenchmarkOptions<K extends string>(
  argv: readonly string[],
  defaults: Record<K, number>,
  help: string,
  minimum = 1,
): Record<K, number> & { json: boolean } {
  const options = { ...defaults, json: false } as Record<K, number> & { json: boolean };
  const byFlag = new Map((Object.keys(defaults) as K[]).map((key) => [`--${kebab(key)}`, key]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(help);
      process.exit(0);
    }
    if (arg === '--json') {
      options.json = true;
      continue;
    }
    const key = byFlag.get(arg);
    if (!key) throw new Error(`unknown option ${arg} (see --help)`);
    const value = Number(argv[++i]);
    if (!Number.isInteger(value) || value < minimum) throw new Error(`${arg} needs a whole number >= ${minimum}, got ${argv[i] ?? 'nothing'}`);
    (options as Record<K, number>)[key] = value;
  }
  return options;
}
