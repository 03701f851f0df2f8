import { eventually } from '@warden/testing';
import { EventBatcher } from './event-batcher.js';

describe('EventBatcher', () => {
  it('writes a full batch at once and resolves every item after the write', async () => {
    const writes: number[][] = [];
    const batcher = new EventBatcher<number>(async (items) => void writes.push(items), { maxBatch: 3, maxWaitMs: 10_000 });
    await Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it('writes a partial batch after the wait', async () => {
    const writes: number[][] = [];
    const batcher = new EventBatcher<number>(async (items) => void writes.push(items), { maxBatch: 100, maxWaitMs: 5 });
    await Promise.all([batcher.add(1), batcher.add(2)]);
    expect(writes).toEqual([[1, 2]]);
  });

  it('rejects every item of a batch whose write failed, and goes on with the next', async () => {
    let fail = true;
    const batcher = new EventBatcher<number>(
      async () => {
        if (fail) throw new Error('database down');
      },
      { maxBatch: 2, maxWaitMs: 5 },
    );
    const first = [batcher.add(1), batcher.add(2)];
    await expect(Promise.all(first)).rejects.toThrow('database down');
    fail = false;
    await expect(batcher.add(3)).resolves.toBeUndefined();
  });

  it('rejects only the items the write refused', async () => {
    const batcher = new EventBatcher<number>(async (items) => items.map((i) => (i === 2 ? new Error('refused') : undefined)), {
      maxBatch: 3,
      maxWaitMs: 10_000,
    });
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2), batcher.add(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('runs one write at a time while none is placed', async () => {
    let running = 0;
    let most = 0;
    const batcher = new EventBatcher<number>(
      async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
      },
      { maxBatch: 2, maxWaitMs: 1 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.add(i)));
    expect(most).toBe(1);
  });
  it('starts the next write once the one before is placed, two at most, in the order they were placed', async () => {
    const started: number[][] = [];
    const releases: (() => void)[] = [];
    const places: (() => void)[] = [];
    const batcher = new EventBatcher<number>(
      async (items, placed) => {
        started.push(items);
        places.push(placed);
        await new Promise<void>((resolve) => releases.push(resolve));
      },
      { maxBatch: 2, maxWaitMs: 0 },
    );
    // A write starts as soon as it is due (the wait is 0): the first takes the first item alone.
    const added = [1, 2, 3, 4, 5, 6].map((i) => batcher.add(i));
    expect(started).toEqual([[1]]);
    // Placed (twice: the second call changes nothing), so the next batch starts behind it.
    places[0]!();
    places[0]!();
    expect(started).toEqual([[1], [2, 3]]);
    // Placed too, but two writes run already: the third waits for one of them to end.
    places[1]!();
    expect(started).toEqual([[1], [2, 3]]);
    releases[0]!();
    await eventually('the third write, once the first ended', () => started.length === 3);
    expect(started[2]).toEqual([4, 5]);
    // The third is not placed: the fourth waits for it to be placed or to end, though only it runs now.
    releases[1]!();
    await Promise.all(added.slice(1, 3));
    expect(started).toHaveLength(3);
    releases[2]!();
    await eventually('the fourth write, once the third ended', () => started.length === 4);
    releases[3]!();
    await Promise.all(added);
    expect(started).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('puts the items that arrived during a write into one batch, written as soon as the write ends', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const batcher = new EventBatcher<number>(
      async (items) => {
        writes.push(items);
        if (writes.length === 1) await first;
      },
      { maxBatch: 100, maxWaitMs: 0 },
    );
    const added = [batcher.add(1)];
    await eventually('the first write', () => writes.length === 1);
    // Each after the wait (0 ms) of the one before ran out: timers of equal delay fire in order.
    for (const item of [2, 3, 4]) {
      added.push(batcher.add(item));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    release();
    await Promise.all(added);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('cuts what waits during a write into batches of at most maxBatch', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const batcher = new EventBatcher<number>(
      async (items) => {
        writes.push(items);
        if (writes.length === 1) await first;
      },
      { maxBatch: 2, maxWaitMs: 0 },
    );
    const added = [batcher.add(1)];
    await eventually('the first write', () => writes.length === 1);
    added.push(...[2, 3, 4, 5, 6].map((i) => batcher.add(i)));
    release();
    await Promise.all(added);
    expect(writes).toEqual([[1], [2, 3], [4, 5], [6]]);
  });
});
