import { SessionLanes } from './session-lanes.js';

/** A promise resolved from outside: a task waits on it while the test looks at the lanes. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('SessionLanes', () => {
  it('runs the work of one key in order and of different keys side by side, through failures, until idle', async () => {
    const lanes = new SessionLanes();
    const done: string[] = [];
    const first = gate();
    const a1 = lanes.run('a', async () => {
      await first.opened;
      done.push('a1');
    });
    const a2 = lanes.run('a', async () => {
      done.push('a2');
      throw new Error('a2 failed');
    });
    const a3 = lanes.run('a', async () => void done.push('a3'));
    await lanes.run('b', async () => void done.push('b1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual(['b1']);
    expect([lanes.isBusy('a'), lanes.isBusy('b')]).toEqual([true, false]);
    first.open();
    await a1;
    await expect(a2).rejects.toThrow('a2 failed');
    await a3;
    expect(done).toEqual(['b1', 'a1', 'a2', 'a3']);
    await new Promise((resolve) => setImmediate(resolve));
    expect([lanes.isBusy('a'), lanes.activeKeys]).toEqual([false, 0]);
  });

  it('keeps order for work queued again and again after the lanes fell idle', async () => {
    const lanes = new SessionLanes();
    const done: string[] = [];
    for (let round = 0; round < 3; round++) {
      const held = gate();
      const running = lanes.run('a', async () => {
        await held.opened;
        done.push(`a${round}`);
      });
      const after = lanes.run('a', async () => void done.push(`a${round}-after`));
      const other = lanes.run(`k${round}`, async () => void done.push(`k${round}`));
      await other;
      held.open();
      await Promise.all([running, after]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lanes.activeKeys).toBe(0);
    }
    expect(done).toEqual(['k0', 'a0', 'a0-after', 'k1', 'a1', 'a1-after', 'k2', 'a2', 'a2-after']);
  });
});
