import { assignPartitions } from './partition-assignment.js';
import { LeaseConflictError, type LeaseEntry, type LeaseStore } from './lease-store.js';
import { PartitionCoordinator, type PartitionHandler, type ReleaseReason } from './partition-coordinator.js';

/** A lease store in memory; watchers are called synchronously, like a watch with no lag. */
class MemoryLeaseStore implements LeaseStore {
  private readonly data = new Map<string, { value: string | null; revision: number }>();
  private revision = 0;
  private readonly watchers = new Set<(entry: LeaseEntry) => void>();
  unreachable = new Set<string>(); // writers whose writes fail as if the network were down
  /** Replicas whose watch lags: they see nothing written until taken out again. */
  readonly lagging = new Set<string>();
  writes = 0;

  async watch(prefix: string, onEntry: (entry: LeaseEntry) => void) {
    for (const [key, e] of this.data) if (key.startsWith(prefix)) onEntry({ key, ...e });
    const watcher = (entry: LeaseEntry) => entry.key.startsWith(prefix) && onEntry(entry);
    this.watchers.add(watcher);
    return { stop: () => this.watchers.delete(watcher) };
  }
  async get(key: string): Promise<LeaseEntry | null> {
    const e = this.data.get(key);
    return e ? { key, ...e } : null;
  }
  private write(key: string, value: string | null): number {
    this.writes++;
    const entry = { value, revision: ++this.revision };
    this.data.set(key, entry);
    for (const w of this.watchers) w({ key, ...entry });
    return entry.revision;
  }
  private check(writer: string) {
    if (this.unreachable.has(writer)) throw new Error('network down');
  }
  async put(key: string, value: string) {
    this.check(value.includes('"replica"') ? JSON.parse(value).replica : value);
    return this.write(key, value);
  }
  async create(key: string, value: string) {
    this.check(value);
    if (this.data.get(key)?.value) throw new LeaseConflictError(key);
    return this.write(key, value);
  }
  async update(key: string, value: string, revision: number) {
    this.check(value);
    if (this.data.get(key)?.revision !== revision) throw new LeaseConflictError(key);
    return this.write(key, value);
  }
  async delete(key: string, revision: number) {
    if (this.data.get(key)?.revision !== revision) throw new LeaseConflictError(key);
    this.write(key, null);
  }
  async remove(key: string) {
    this.write(key, null);
  }
  owner(key: string) {
    return this.data.get(key)?.value ?? null;
  }
}

class RecordingHandler implements PartitionHandler {
  readonly active = new Set<number>();
  readonly events: string[] = [];
  async acquire(partition: number, takeover: boolean) {
    this.active.add(partition);
    this.events.push(`acquire ${partition}${takeover ? ' takeover' : ''}`);
  }
  async release(partition: number, reason: ReleaseReason) {
    this.active.delete(partition);
    this.events.push(`release ${partition} ${reason}`);
  }
}

const PARTITIONS = 8;
let clock = 0;
const now = () => clock;

function replica(store: MemoryLeaseStore, id: string) {
  const handler = new RecordingHandler();
  const coordinator = new PartitionCoordinator({
    group: 'reviewer',
    replicaId: id,
    partitions: PARTITIONS,
    heartbeatMs: 1000,
    leaseMs: 5000,
    store,
    handler,
    now,
  });
  return { coordinator, handler, id };
}

type Replica = ReturnType<typeof replica>;

async function round(replicas: Replica[], advanceMs = 1000) {
  clock += advanceMs;
  for (const r of replicas) await r.coordinator.tick();
  assertSingleOwners(replicas);
}

function assertSingleOwners(replicas: Replica[]) {
  for (let p = 0; p < PARTITIONS; p++) {
    const holders = replicas.filter((r) => r.coordinator.holds(p) && r.handler.active.has(p));
    expect(holders.length).toBeLessThanOrEqual(1);
  }
}

async function watchOnly(r: Replica, store: MemoryLeaseStore) {
  // start() waits for the watch and ticks on a timer; tests drive ticks by hand instead.
  await store.watch('reviewer', (e) => store.lagging.has(r.id) || (r.coordinator as unknown as { observe(e: LeaseEntry): void }).observe(e));
}

beforeEach(() => {
  clock = 1_000_000;
});

/** Replicas a and b watching one store, after the rounds that divide the partitions between them. */
async function twoSettledReplicas() {
  const store = new MemoryLeaseStore();
  const a = replica(store, 'a');
  const b = replica(store, 'b');
  await watchOnly(a, store);
  await watchOnly(b, store);
  for (let i = 0; i < 3; i++) await round([a, b]);
  return { store, a, b };
}

describe('assignPartitions', () => {
  it('gives every partition to exactly one member, evenly', () => {
    const assignment = assignPartitions(['b', 'a', 'c'], 8);
    expect(assignment.get('a')).toEqual([0, 3, 6]);
    expect(assignment.get('b')).toEqual([1, 4, 7]);
    expect(assignment.get('c')).toEqual([2, 5]);
  });

  it('gives nothing when nobody is alive', () => {
    expect(assignPartitions([], 8).size).toBe(0);
  });
});

describe('PartitionCoordinator', () => {
  it('lets a lone replica own every partition', async () => {
    const store = new MemoryLeaseStore();
    const a = replica(store, 'a');
    await watchOnly(a, store);
    await round([a]);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect([...a.handler.active].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('splits partitions between two replicas, handing over cleanly', async () => {
    const store = new MemoryLeaseStore();
    const a = replica(store, 'a');
    const b = replica(store, 'b');
    await watchOnly(a, store);
    await round([a]);
    await watchOnly(b, store);
    for (let i = 0; i < 3; i++) await round([a, b]);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 2, 4, 6]);
    expect(b.coordinator.ownedPartitions()).toEqual([1, 3, 5, 7]);
    expect(a.handler.events).toContain('release 1 rebalance');
    expect(b.handler.events).toContain('acquire 1');
    expect(b.handler.events).not.toContain('acquire 1 takeover');
  });

  it('moves the partitions of a replica that stops to the others at once', async () => {
    const { a, b } = await twoSettledReplicas();
    await b.coordinator.stop();
    await round([a]);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(b.handler.active.size).toBe(0);
    expect(b.handler.events.filter((e) => e.endsWith('shutdown'))).toHaveLength(4);
  });

  it('takes over the partitions of a replica that died, only after its lease expired', async () => {
    const { a } = await twoSettledReplicas();
    // b dies: it stops ticking, nothing is released.
    await round([a], 1000);
    await round([a], 1000);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 2, 4, 6]);
    for (let i = 0; i < 5; i++) await round([a], 1000);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(a.handler.events).toContain('acquire 1 takeover');
  });

  it('stops acting on its partitions when it cannot renew, before anyone may take them', async () => {
    const { store, a, b } = await twoSettledReplicas();
    store.unreachable.add('b');
    let lostAt: number | undefined;
    for (let t = 0; t < 10; t++) {
      await round([a, b], 1000);
      if (lostAt === undefined && !b.coordinator.holds(1)) lostAt = clock;
      if (store.owner('reviewer.p.1') === 'a') {
        expect(lostAt).toBeDefined();
        expect(lostAt!).toBeLessThan(clock);
        break;
      }
    }
    expect(store.owner('reviewer.p.1')).toBe('a');
    expect(b.handler.events).toContain('release 1 lost');
  });

  it('renews every partition it owns with one write per replica and heartbeat', async () => {
    const { store, a, b } = await twoSettledReplicas();
    const before = store.writes;
    for (let i = 0; i < 10; i++) await round([a, b]);
    expect(store.writes - before).toBe(20);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 2, 4, 6]);
    expect([0, 2, 4, 6].every((p) => a.coordinator.holds(p))).toBe(true);
  });

  it('confirms each partition before acting again after being cut off, even when its watch lags behind a takeover', async () => {
    const { store, a, b } = await twoSettledReplicas();
    store.unreachable.add('b');
    store.lagging.add('b');
    for (let i = 0; i < 7; i++) await round([a, b]);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // b can write again but has not seen a's takeover: its compare-and-set writes tell it.
    store.unreachable.delete('b');
    await round([a, b]);
    expect(b.coordinator.ownedPartitions()).toEqual([]);
    expect(b.handler.events).toContain('release 1 lost');
    expect(a.coordinator.ownedPartitions()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('does not take the partitions of a live owner when its own watch lags', async () => {
    const { store, a, b } = await twoSettledReplicas();
    store.lagging.add('b');
    for (let i = 0; i < 10; i++) await round([a, b]);
    expect(a.coordinator.ownedPartitions()).toEqual([0, 2, 4, 6]);
    expect(a.handler.events.filter((e) => e.includes('lost'))).toEqual([]);
    expect(b.coordinator.ownedPartitions()).toEqual([1, 3, 5, 7]);
  });

  it('keeps its partitions after a short cut, confirming them with compare-and-set', async () => {
    const { store, a, b } = await twoSettledReplicas();
    store.unreachable.add('b');
    // Past the fence (4 s of a 5 s lease), before a may take over.
    for (let i = 0; i < 4; i++) await round([a, b], 1100);
    expect(b.coordinator.holds(1)).toBe(false);
    store.unreachable.delete('b');
    const before = store.writes;
    await round([a, b], 500);
    // a's and b's member keys, and b's four partitions confirmed.
    expect(store.writes - before).toBe(6);
    expect(b.coordinator.ownedPartitions()).toEqual([1, 3, 5, 7]);
    expect([1, 3, 5, 7].every((p) => b.coordinator.holds(p))).toBe(true);
  });

  it('answers at once for a partition it holds or does not own; past the fence, once renewed, in the order asked', async () => {
    const { store, a, b } = await twoSettledReplicas();
    expect(b.coordinator.whenHeld(1)).toBe(true);
    expect(b.coordinator.whenHeld(0)).toBe(false);
    store.unreachable.add('b');
    for (let i = 0; i < 4; i++) await round([a, b], 1100);
    const answers: string[] = [];
    const first = b.coordinator.whenHeld(1);
    const second = b.coordinator.whenHeld(1);
    expect(first).toBeInstanceOf(Promise);
    void (first as Promise<boolean>).then((held) => answers.push(`first ${held}`));
    void (second as Promise<boolean>).then((held) => answers.push(`second ${held}`));
    await Promise.resolve();
    expect(answers).toEqual([]);
    store.unreachable.delete('b');
    await round([a, b], 500);
    await second;
    expect(answers).toEqual(['first true', 'second true']);
  });

  it('tells those waiting past the fence that the partition is lost once another replica took it', async () => {
    const { store, a, b } = await twoSettledReplicas();
    store.unreachable.add('b');
    for (let i = 0; i < 4; i++) await round([a, b], 1100);
    const waiting = b.coordinator.whenHeld(1) as Promise<boolean>;
    for (let i = 0; i < 3; i++) await round([a, b], 1100);
    expect(store.owner('reviewer.p.1')).toBe('a');
    store.unreachable.delete('b');
    await round([a, b]);
    await expect(waiting).resolves.toBe(false);
    expect(b.coordinator.owns(1)).toBe(false);
  });

  it('never lets two replicas own a partition through joins, deaths and restarts', async () => {
    const store = new MemoryLeaseStore();
    const replicas = ['a', 'b', 'c'].map((id) => replica(store, id));
    for (const r of replicas) await watchOnly(r, store);
    let alive = [...replicas];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let step = 0; step < 200; step++) {
      if (random() < 0.05 && alive.length > 1) alive = alive.filter((r) => r !== alive[Math.floor(random() * alive.length)]);
      if (random() < 0.05 && alive.length < replicas.length) {
        const back = replicas.find((r) => !alive.includes(r))!;
        alive.push(back);
      }
      await round(alive, 500 + Math.floor(random() * 1500));
    }
    for (let i = 0; i < 12; i++) await round(alive, 1000);
    const owned = alive.flatMap((r) => r.coordinator.ownedPartitions()).sort((x, y) => x - y);
    expect(owned).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
