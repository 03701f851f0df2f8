import { ReviewCache } from './review-cache.js';

describe('ReviewCache', () => {
  it('evicts the least recently used entry when full', () => {
    const cache = new ReviewCache<number>(2, 60_000);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')).toBe(1);
    expect(cache.stats()).toMatchObject({ evictions: 1, size: 2 });
  });

  it('expires entries after their time to live', () => {
    let now = 0;
    const cache = new ReviewCache<string>(10, 1000, () => now);
    cache.set('k', 'v');
    now = 999;
    expect(cache.get('k')).toBe('v');
    now = 1000;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('counts hits and misses for the hit ratio', () => {
    const cache = new ReviewCache<number>(10, 60_000);
    expect(cache.hitRatio()).toBe(0);
    cache.set('a', 1);
    cache.get('a');
    cache.get('a');
    cache.get('b');
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 1 });
    expect(cache.hitRatio()).toBeCloseTo(2 / 3);
  });

  it('rejects a size or TTL that cannot work', () => {
    expect(() => new ReviewCache(0, 1000)).toThrow('cache size must be a positive integer');
    expect(() => new ReviewCache(1, 0)).toThrow('cache TTL must be positive');
  });
});
