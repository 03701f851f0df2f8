const DAY_MS = 24 * 3_600_000;
const REMEMBERED_IDS = 200;

/** An agent's spending over the last 24 hours, in buckets of `bucketMs`. Stored per agent and shared by all replicas. */
export interface RollingDaySnapshot {
  /** [bucket start epoch ms, USD], oldest first. */
  buckets: [number, number][];
  /** Ids of the last costs added, so that a redelivered outcome is not charged twice. */
  recent: string[];
}

/**
 * Spending in any rolling 24 hours. A bucket counts while any part of it is inside the day, so the
 * total never under-counts: a cost leaves the day at most one bucket width late.
 */
export class RollingDay {
  constructor(
    private readonly bucketMs: number,
    readonly snapshot: RollingDaySnapshot,
  ) {}

  static empty(): RollingDaySnapshot {
    return { buckets: [], recent: [] };
  }

  /** Adds a cost once per id; false when the id was already added. */
  add(id: string, at: number, usd: number): boolean {
    if (this.snapshot.recent.includes(id)) return false;
    this.snapshot.recent.push(id);
    if (this.snapshot.recent.length > REMEMBERED_IDS) this.snapshot.recent.splice(0, this.snapshot.recent.length - REMEMBERED_IDS);
    const start = Math.floor(at / this.bucketMs) * this.bucketMs;
    const bucket = this.snapshot.buckets.find(([s]) => s === start);
    if (bucket) bucket[1] += usd;
    else {
      this.snapshot.buckets.push([start, usd]);
      this.snapshot.buckets.sort((a, b) => a[0] - b[0]);
    }
    this.prune(at);
    return true;
  }

  total(now: number): number {
    let sum = 0;
    for (const [start, value] of this.snapshot.buckets) if (this.inDay(start, now)) sum += value;
    return sum;
  }

  prune(now: number): void {
    this.snapshot.buckets = this.snapshot.buckets.filter(([start]) => this.inDay(start, now) || start > now);
  }

  private inDay(start: number, now: number): boolean {
    return start + this.bucketMs > now - DAY_MS && start <= now;
  }
}
