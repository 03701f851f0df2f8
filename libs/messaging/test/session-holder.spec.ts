import { partitionOf, PATTERN_SESSION_BUCKET } from '@warden/contracts';
import { eventually, TestNatsServer } from '@warden/testing';
import { BusConnection, RecordConflictError, RecordStore, SessionHolder, type HolderEvents, type HolderOptions, type SessionAddress } from '../src/index.js';

/** A session as a service holds it: a counter stored in its own record, and whether it must stay in memory. */
interface Counter {
  address: SessionAddress;
  n: number;
  revision: number | undefined;
  paused: boolean;
}

const PARTITIONS = 4;
let sequence = 0;
const newSession = (): SessionAddress => ({ agentId: 'agent-1', sessionId: `holder-${process.pid}-${++sequence}` });
const recordKey = (address: SessionAddress) => `counter.${address.agentId}.${address.sessionId}`;

/** A promise resolved from outside: a task waits on it while the test looks at the lanes. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('SessionHolder over a real nats-server', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let records: RecordStore<{ n: number; paused?: boolean }>;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: PARTITIONS });
    bus = await BusConnection.open(nats.service);
    records = new RecordStore(bus.nc, PATTERN_SESSION_BUCKET);
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await nats?.stop();
  });

  /** A holder whose sessions are counters in the bucket; what it loads and forgets is written down. */
  function holder(options: Partial<HolderOptions<Counter>> = {}, events: HolderEvents<Counter> = {}) {
    const seen = { loaded: [] as string[], forgotten: [] as string[], conflicts: 0, sizes: [] as number[] };
    const held = new SessionHolder<Counter>({
      load: async (address) => {
        seen.loaded.push(address.sessionId);
        const stored = await records.get(recordKey(address));
        return { address, n: stored?.value.n ?? 0, revision: stored?.revision, paused: stored?.value.paused ?? false };
      },
      partitions: PARTITIONS,
      pinned: (counter) => counter.paused,
      events: { forgotten: (address) => seen.forgotten.push(address.sessionId), conflict: () => seen.conflicts++, size: (size) => seen.sizes.push(size), ...events },
      ...options,
    });
    return { held, seen };
  }

  /** Counts one more in the session, stored with compare-and-set. */
  const count = (held: SessionHolder<Counter>, address: SessionAddress, paused = false) =>
    held.run(address, Date.now(), async (counter) => {
      counter.revision = await records.write(recordKey(address), { n: counter.n + 1, paused }, counter.revision);
      counter.n++;
      counter.paused = paused;
      return counter.n;
    });

  it("runs a session's tasks one after the other, other sessions alongside, and loads a session once while it holds it", async () => {
    const { held, seen } = holder();
    const [a, b] = [newSession(), newSession()];
    const order: string[] = [];
    const first = gate();
    const a1 = held.run(a, Date.now(), async () => {
      await first.opened;
      order.push('a1');
    });
    const a2 = held.run(a, Date.now(), () => void order.push('a2'));
    await held.run(b, Date.now(), () => void order.push('b'));
    expect(order).toEqual(['b']);
    first.open();
    await Promise.all([a1, a2]);
    expect(order).toEqual(['b', 'a1', 'a2']);
    expect(seen.loaded.sort()).toEqual([a.sessionId, b.sessionId].sort());
    expect(held.size).toBe(2);
  });

  it('forgets a session whose task failed, counts a conflict, and loads the stored session again for the next task', async () => {
    const first = holder();
    const second = holder();
    const session = newSession();
    await count(first.held, session);
    await count(second.held, session);
    // `first` holds 1, the record says 2.
    await expect(count(first.held, session)).rejects.toBeInstanceOf(RecordConflictError);
    expect(first.seen.conflicts).toBe(1);
    expect(first.seen.forgotten).toEqual([session.sessionId]);
    expect(await count(first.held, session)).toBe(3);

    await expect(first.held.run(session, Date.now(), () => Promise.reject(new Error('the domain failed')))).rejects.toThrow('the domain failed');
    expect(first.seen.conflicts).toBe(1);
    expect(first.seen.forgotten).toEqual([session.sessionId, session.sessionId]);
    expect(await count(first.held, session)).toBe(4);
    expect(first.seen.loaded).toEqual([session.sessionId, session.sessionId, session.sessionId]);
  });

  it('holds at most its capacity, dropping the least recently used idle session and never a pinned one', async () => {
    const { held, seen } = holder({ capacity: 3 });
    const [paused, b, c, d] = [newSession(), newSession(), newSession(), newSession()];
    await count(held, paused, true);
    await count(held, b);
    await count(held, c);
    await count(held, b);
    await count(held, d);
    // `paused` is the oldest but pinned; `c` is the least recently used of the others.
    expect(seen.forgotten).toEqual([c.sessionId]);
    await count(held, c);
    expect(seen.forgotten).toEqual([c.sessionId, b.sessionId]);
    expect(held.heldSessions().map((s) => s.address.sessionId)).toEqual([paused.sessionId, d.sessionId, c.sessionId]);
    expect(seen.sizes.at(-1)).toBe(3);
    // Dropped, not lost: loaded again from its record.
    expect(await count(held, b)).toBe(3);
  });

  it("takes over the stored sessions of acquired partitions in their lanes, again while listing fails, and forgets a released partition's sessions", async () => {
    const sessions = Array.from({ length: 8 }, () => newSession());
    const writer = holder().held;
    for (const s of sessions) await count(writer, s);
    const partition = partitionOf(sessions[0]!.sessionId, PARTITIONS);
    const inPartition = sessions.filter((s) => partitionOf(s.sessionId, PARTITIONS) === partition).map((s) => s.sessionId);
    let listings = 0;
    const taken: { sessionId: string; n: number }[] = [];
    const outcomes = { failed: 0, tookOver: [] as number[][] };
    const released: number[] = [];
    const { held, seen } = holder(
      {
        stored: async (partitions) => {
        if (++listings === 1) throw new Error('503 no responders available');
        const keys = await records.keys('counter.>');
        return keys.map((key) => ({ agentId: key.split('.')[1]!, sessionId: key.split('.')[2]! })).filter((a) => partitions.has(partitionOf(a.sessionId, PARTITIONS)));
      },
        takeOver: async (counter) => void taken.push({ sessionId: counter.address.sessionId, n: counter.n }),
      },
      { takeoverFailed: () => outcomes.failed++, tookOver: (partitions) => outcomes.tookOver.push(partitions) },
    );
    const listeners = new Map<string, (p: number) => void>();
    held.follow({ on: (event, listener) => listeners.set(event, listener), ownedPartitions: () => [partition] }, (p) => released.push(p));

    await eventually('the sessions taken over', () => outcomes.tookOver.length > 0);
    expect(outcomes).toEqual({ failed: 1, tookOver: [[partition]] });
    expect(taken.map((t) => t.sessionId).sort()).toEqual(expect.arrayContaining(inPartition.sort()));
    expect(taken.every((t) => partitionOf(t.sessionId, PARTITIONS) === partition)).toBe(true);
    // Loaded before it was taken over.
    expect(taken.filter((t) => inPartition.includes(t.sessionId)).map((t) => t.n)).toEqual(inPartition.map(() => 1));
    expect(held.owns(sessions[0]!)).toBe(true);

    listeners.get('partition.released')!(partition);
    expect(released).toEqual([partition]);
    expect(held.owns(sessions[0]!)).toBe(false);
    expect(held.size).toBe(0);
    expect(seen.forgotten.sort()).toEqual(taken.map((t) => t.sessionId).sort());
    held.stop();
  });

  it('forgets every session when stopped', async () => {
    const { held, seen } = holder();
    const sessions = [newSession(), newSession()];
    for (const s of sessions) await count(held, s, true);
    held.stop();
    expect(held.size).toBe(0);
    expect(seen.forgotten.sort()).toEqual(sessions.map((s) => s.sessionId).sort());
  });
});
