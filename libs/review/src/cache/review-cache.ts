/** Counts a cache keeps so that its hit ratio can be graphed. */
export interface CacheStats {
  hits: number;
  misses: number;
  evictions: number;
  size: number;
}

/**
 * A bounded map with a time to live whose least recently used entry goes first when it is full. A Map
 * keeps insertion order, so re-inserting on every hit makes the first key the least recently used one:
 * get, set and eviction are O(1).
 */
export class ReviewCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private hitCount = 0;
  private missCount = 0;
  private evictionCount = 0;

  constructor(
    readonly maxSize: number,
    readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError(`cache size must be a positive integer, got ${maxSize}`);
    if (!(ttlMs > 0)) throw new RangeError(`cache TTL must be positive, got ${ttlMs}`);
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= this.clock()) {
      if (entry) this.entries.delete(key);
      this.missCount++;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hitCount++;
    return entry.value;
  }

  /** Reads without counting a hit or a miss, e.g. to look a session up in passing. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expires > this.clock() ? entry.value : undefined;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.clock() + this.ttlMs });
    while (this.entries.size > this.maxSize) {
      this.entries.delete(this.entries.keys().next().value as string);
      this.evictionCount++;
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  stats(): CacheStats {
    return { hits: this.hitCount, misses: this.missCount, evictions: this.evictionCount, size: this.entries.size };
  }

  /** Hits over lookups since the cache was made; 0 before the first lookup. */
  hitRatio(): number {
    const lookups = this.hitCount + this.missCount;
    return lookups ? this.hitCount / lookups : 0;
  }
}
