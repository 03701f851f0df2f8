/** Latency figures in milliseconds. */
export interface LatencySummary {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

/**
 * Nearest-rank percentile of sorted values: the smallest value with at least q of the samples at or
 * below it. No interpolation, so a reported p99 is a latency that was actually observed.
 */
export function percentile(sorted: Float64Array, q: number): number {
  if (!sorted.length) return Number.NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Collects samples in a growable typed array; summarising sorts a copy. */
export class Samples {
  private values = new Float64Array(1024);
  private size = 0;

  add(value: number): void {
    if (this.size === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.size++] = value;
  }

  get count(): number {
    return this.size;
  }

  summary(): LatencySummary {
    const sorted = this.values.slice(0, this.size).sort();
    let sum = 0;
    for (const v of sorted) sum += v;
    return {
      count: this.size,
      min: this.size ? sorted[0]! : Number.NaN,
      mean: this.size ? sum / this.size : Number.NaN,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
      p999: percentile(sorted, 0.999),
      max: this.size ? sorted[this.size - 1]! : Number.NaN,
    };
  }
}

/** Rounds for JSON output: enough digits for sub-millisecond latencies without float noise. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function roundSummary(summary: LatencySummary): LatencySummary {
  return Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, k === 'count' ? v : round(v, 4)])) as unknown as LatencySummary;
}
