import { collectionShare, recordCollectionPauses } from './collection-pauses.js';

describe('collectionShare', () => {
  it('counts the operations a pause began in and summarises the others', () => {
    const operations = [
      { start: 0, end: 1 },
      { start: 2, end: 4 },
      { start: 5, end: 5.5 },
      { start: 6, end: 9 },
    ];
    // One pause inside the second operation, one between operations, two inside the last.
    const pauses = [
      { start: 3, duration: 1, kind: 'minor' },
      { start: 4.5, duration: 0.2, kind: 'minor' },
      { start: 6.5, duration: 1, kind: 'minor' },
      { start: 8, duration: 2, kind: 'major' },
    ];
    const share = collectionShare(operations, pauses);
    expect(share).toMatchObject({ pauses: 3, hit: 2, operations: 4, meanPauseMs: 1.3333 });
    expect(share.withoutPauses).toMatchObject({ count: 2, maxMs: 1, p50Ms: 1 });
  });

  it('reports no pauses when none fell into an operation', () => {
    const share = collectionShare([{ start: 10, end: 11 }], [{ start: 1, duration: 5, kind: 'minor' }]);
    expect(share).toMatchObject({ pauses: 0, hit: 0, meanPauseMs: 0 });
    expect(share.withoutPauses.count).toBe(1);
  });
});

describe('recordCollectionPauses', () => {
  it('returns the pauses of collections made while it recorded, in time order', async () => {
    const recording = recordCollectionPauses();
    // Enough short-lived garbage for several young-generation collections (kept in a ring, so that it is allocated).
    const ring: { i: number; list: number[] }[] = new Array(1000);
    for (let i = 0; i < 400_000; i++) ring[i % 1000] = { i, list: [i, i] };
    const pauses = await recording.stop();
    expect(ring[999]!.i).toBe(399_999);
    expect(pauses.some((p) => p.kind === 'minor')).toBe(true);
    expect(pauses.every((p, i) => i === 0 || pauses[i - 1]!.start <= p.start)).toBe(true);
  });
});
