import { CountedIds } from './counted-ids.js';

/** What the list of counted ids did: the newest `limit`, oldest first. */
function asList(ids: readonly string[], limit: number): string[] {
  return limit > 0 ? ids.slice(-limit) : [];
}

describe('CountedIds', () => {
  it('keeps the newest ids up to its limit, oldest first, through every growth and wrap', () => {
    for (const limit of [1, 3, 8, 9, 64]) {
      const counted = new CountedIds(limit);
      const added: string[] = [];
      for (let i = 0; i < 3 * limit + 5; i++) {
        counted.add(`a${i}`);
        added.push(`a${i}`);
        expect(counted.list()).toEqual(asList(added, limit));
      }
      expect(counted.has(`a${3 * limit + 4}`)).toBe(true);
      expect(counted.has(`a${2 * limit + 4}`)).toBe(false);
    }
  });

  it('continues from a stored list, keeping all of it, even beyond the limit, until the next is added', () => {
    const stored = Array.from({ length: 10 }, (_, i) => `s${i}`);
    const counted = CountedIds.of(stored, 4);
    expect(counted.size).toBe(10);
    expect(counted.list()).toEqual(stored);
    expect(stored.every((id) => counted.has(id))).toBe(true);
    counted.add('next');
    expect(counted.list()).toEqual(['s7', 's8', 's9', 'next']);
    const shorter = CountedIds.of(['x', 'y'], 4);
    for (const id of ['z', 'w', 'v']) shorter.add(id);
    expect(shorter.list()).toEqual(['y', 'z', 'w', 'v']);
  });

  it('holds nothing with a limit of 0, and nothing once cleared', () => {
    const none = CountedIds.of(['a', 'b'], 0);
    none.add('c');
    expect(none.list()).toEqual([]);
    expect(none.has('a')).toBe(false);
    const counted = new CountedIds(4);
    counted.add('a');
    counted.clear();
    expect(counted.size).toBe(0);
    expect(counted.has('a')).toBe(false);
    counted.add('b');
    expect(counted.list()).toEqual(['b']);
  });
});
