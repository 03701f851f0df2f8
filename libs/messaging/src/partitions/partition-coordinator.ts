import { EventEmitter } from 'node:events';
import { assignPartitions } from './partition-assignment.js';
import { LeaseConflictError, type LeaseEntry, type LeaseStore } from './lease-store.js';

export type ReleaseReason = 'rebalance' | 'lost' | 'shutdown';

/** What the coordinator asks of the transport when ownership changes. */
export interface PartitionHandler {
  /** Start consuming the partition. `takeover` is true when the previous owner did not hand it over cleanly. */
  acquire(partition: number, takeover: boolean): Promise<void>;
  /** Stop consuming and finish what is in flight. */
  release(partition: number, reason: ReleaseReason): Promise<void>;
}

export interface PartitionCoordinatorOptions {
  /** Replicas of one service form a group; each group divides the partitions among its members. */
  group: string;
  replicaId: string;
  partitions: number;
  /** How often membership (and with it the partitions owned) is renewed. */
  heartbeatMs: number;
  /** A member not renewed for this long is dead, and its partitions free to take over. */
  leaseMs: number;
  store: LeaseStore;
  handler: PartitionHandler;
  now?: () => number;
}

interface Observation {
  value: string | null;
  revision: number;
  seenAt: number;
}

interface Lease {
  revision: number;
  renewedAt: number;
}

/** Fraction of the lease after which an owner that could not renew stops processing on its own. */
const FENCE = 0.8;

/**
 * Divides a service's partitions among its live replicas so that a session is processed by one
 * replica at a time, and moves the partitions of a replica that stops or dies to the others.
 *
 * Membership and ownership are keys in a lease store. Each replica writes its member key every
 * heartbeat, and that one write renews every partition it owns: an idle suite writes one key per
 * replica per heartbeat, not one per partition. Ownership keys are written with compare-and-set when
 * they change hands: a partition is taken over only when its owner's member key has not changed for a
 * lease, at the exact revision observed, so two replicas never both believe they own it. Staleness is
 * measured on the local clock (time since the key last changed), so clock skew between machines does
 * not matter. An owner that cannot renew stops processing after 80% of the lease, before anyone else
 * may take over; once it can write again, it confirms each partition with a compare-and-set write
 * before acting on it, since another replica may have taken it over meanwhile.
 *
 * Events: `acquired` (partition, takeover), `released` (partition, reason), `members` (ids), `error` (Error).
 */
export class PartitionCoordinator extends EventEmitter {
  private readonly observed = new Map<string, Observation>();
  private readonly owned = new Map<number, Lease>();
  private readonly now: () => number;
  private watcher?: { stop(): void };
  private timer?: NodeJS.Timeout;
  private running = false;
  private ticking?: Promise<void>;
  private lastMembers = '';
  private settledOnce = false;
  private firstTickDone = false;
  /** Built once: `holds` looks a partition's key up for every message handled. */
  private readonly partitionKeys: string[];
  /** When the watch started: an owner never seen is given a lease's time from then. */
  private watchingSince = 0;
  /** Who waits for a partition's lease to be renewed (see whenHeld), in the order they asked. */
  private readonly fenced = new Map<number, ((held: boolean) => void)[]>();

  constructor(private readonly options: PartitionCoordinatorOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.partitionKeys = Array.from({ length: options.partitions }, (_, partition) => `${options.group}.p.${partition}`);
    // Problems are reported, never thrown: an 'error' event without listeners would crash the process.
    this.on('error', () => undefined);
  }

  get replicaId(): string {
    return this.options.replicaId;
  }

  /** Partitions this replica owns right now, in order. */
  ownedPartitions(): number[] {
    return [...this.owned.keys()].sort((a, b) => a - b);
  }

  /** True while this replica owns the partition, its lease fresh enough to act on it or not. */
  owns(partition: number): boolean {
    return this.owned.has(partition);
  }

  /** True while this replica owns the partition and its lease is fresh enough to act on it. */
  holds(partition: number): boolean {
    const lease = this.owned.get(partition);
    return !!lease && this.now() - lease.renewedAt < this.options.leaseMs * FENCE && !this.takenFrom(partition, lease);
  }

  /**
   * True once this replica holds the partition (at once while it does), false once it owns it no more.
   * A message that comes while the lease is past the fence (a renewal slow under load, a leader election)
   * waits for the renewal: left unacknowledged, it would come back only after the ack wait, behind the
   * session's later messages. Those asking are answered in the order they asked.
   */
  whenHeld(partition: number): boolean | Promise<boolean> {
    if (this.holds(partition)) return true;
    if (!this.owned.has(partition)) return false;
    return new Promise((resolve) => {
      const waiting = this.fenced.get(partition);
      if (waiting) waiting.push(resolve);
      else this.fenced.set(partition, [resolve]);
    });
  }

  /** Has taken part in at least one round, so its view of the group is meaningful. */
  get started(): boolean {
    return this.firstTickDone;
  }

  /**
   * Has held every partition the group assigned it, at least once: a replica started while a dead
   * predecessor's leases still run owns nothing until they lapse, and is not ready before.
   */
  get settled(): boolean {
    return this.settledOnce;
  }

  async start(): Promise<void> {
    this.running = true;
    this.watchingSince = this.now();
    this.watcher = await this.options.store.watch(this.options.group, (entry) => this.observe(entry));
    // Let the watch deliver the current keys before the first round, to avoid claiming partitions
    // another replica holds and releasing them again a moment later.
    await new Promise((resolve) => setTimeout(resolve, Math.min(this.options.heartbeatMs, 250)));
    await this.runTick();
  }

  /**
   * Stops taking part: each partition is released, and with `handOver` (the store reachable) its lease
   * and this replica's membership are deleted so that others take over at once. Without it nothing is
   * written: the leases lapse on their own, and a store that cannot answer does not hold the shutdown up.
   */
  async stop(handOver = true): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    if (handOver) await this.ticking;
    for (const partition of this.ownedPartitions()) {
      if (handOver) await this.giveUp(partition, 'shutdown');
      else await this.drop(partition, 'shutdown');
    }
    if (handOver) await this.options.store.remove(this.memberKey(this.options.replicaId)).catch(() => undefined);
    this.watcher?.stop();
  }

  /** One round: heartbeat, renew, rebalance, claim. Runs every heartbeat; exposed for tests. */
  async tick(): Promise<void> {
    const { store, replicaId, leaseMs } = this.options;
    const sentAt = this.now();
    const renewed = await store
      .put(this.memberKey(replicaId), JSON.stringify({ replica: replicaId, at: new Date(sentAt).toISOString() }))
      .then(() => true)
      .catch((error: Error) => {
        this.emit('error', error);
        return false;
      });

    for (const [partition, lease] of [...this.owned]) {
      if (this.takenFrom(partition, lease)) {
        await this.drop(partition, 'lost');
        continue;
      }
      if (!renewed) continue;
      if (sentAt - lease.renewedAt >= leaseMs * FENCE) {
        // It stopped acting on the partition for want of renewal: someone may hold it now.
        try {
          lease.revision = await store.update(this.partitionKey(partition), replicaId, lease.revision);
        } catch (error) {
          if (error instanceof LeaseConflictError) await this.drop(partition, 'lost');
          else this.emit('error', error as Error);
          continue;
        }
      }
      lease.renewedAt = sentAt;
      // Those waiting go on with the renewal, not a heartbeat later (their sessions' lanes keep the order).
      this.answerFenced(partition);
    }

    const members = this.liveMembers();
    const key = members.join(',');
    if (key !== this.lastMembers) {
      this.lastMembers = key;
      this.emit('members', members);
    }
    const mine = new Set(assignPartitions(members, this.options.partitions).get(replicaId) ?? []);

    for (const partition of this.ownedPartitions()) {
      if (!mine.has(partition)) await this.giveUp(partition, 'rebalance');
    }
    for (const partition of mine) {
      if (!this.owned.has(partition)) await this.claim(partition, leaseMs);
    }
    this.firstTickDone = true;
    if (!this.settledOnce && [...mine].every((partition) => this.owned.has(partition))) this.settledOnce = true;
  }

  private async runTick(): Promise<void> {
    if (!this.running) return;
    this.ticking = this.tick().catch((error: Error) => {
      this.emit('error', error);
    });
    await this.ticking;
    if (this.running) this.timer = setTimeout(() => void this.runTick(), this.options.heartbeatMs);
  }

  private observe(entry: LeaseEntry): void {
    this.observed.set(entry.key, { value: entry.value, revision: entry.revision, seenAt: this.now() });
  }

  /** Another replica wrote the partition's key after this one took it: it was taken over. */
  private takenFrom(partition: number, lease: Lease): boolean {
    const seen = this.observed.get(this.partitionKey(partition));
    return !!seen && seen.revision > lease.revision && seen.value !== this.options.replicaId;
  }

  /** A member whose key is gone (it stopped) or has not changed for a lease (it died or is cut off). */
  private memberDead(replica: string, leaseMs: number): boolean {
    const seen = this.observed.get(this.memberKey(replica));
    if (seen?.value === null) return true;
    return this.now() - (seen?.seenAt ?? this.watchingSince) >= leaseMs;
  }

  /**
   * Reads the owner's member key from the store before its partition is taken: a watch that lags (a
   * consumer stalled by a leader election) must not make a live owner look dead. Unsure is alive.
   */
  private async renewedUnseen(replica: string): Promise<boolean> {
    const key = this.memberKey(replica);
    try {
      const stored = await this.options.store.get(key);
      if (!stored || stored.value === null || stored.revision === this.observed.get(key)?.revision) return false;
      this.observe(stored);
      return true;
    } catch (error) {
      this.emit('error', error as Error);
      return true;
    }
  }

  private liveMembers(): string[] {
    const prefix = `${this.options.group}.m.`;
    const cutoff = this.now() - this.options.leaseMs;
    const members = new Set([this.options.replicaId]);
    for (const [key, o] of this.observed) {
      if (key.startsWith(prefix) && o.value !== null && o.seenAt >= cutoff) members.add(key.slice(prefix.length));
    }
    return [...members].sort();
  }

  private async claim(partition: number, leaseMs: number): Promise<void> {
    const { store, replicaId } = this.options;
    const key = this.partitionKey(partition);
    const seen = this.observed.get(key);
    let revision: number;
    let takeover = false;
    try {
      if (!seen || seen.value === null) {
        revision = await store.create(key, replicaId);
      } else if (seen.value === replicaId || (this.memberDead(seen.value, leaseMs) && !(await this.renewedUnseen(seen.value)))) {
        // Our own lease from before a restart, or an owner that stopped renewing: it did not hand over.
        takeover = true;
        revision = await store.update(key, replicaId, seen.revision);
      } else {
        return; // held by a live owner that will release it once it sees the new assignment
      }
    } catch (error) {
      if (!(error instanceof LeaseConflictError)) this.emit('error', error as Error);
      // What this replica saw of the lease is stale (its watch may have missed changes while the bus
      // was away): the next round decides on the lease as it is stored.
      else await this.refresh(key);
      return;
    }
    this.owned.set(partition, { revision, renewedAt: this.now() });
    try {
      await this.options.handler.acquire(partition, takeover);
      this.emit('acquired', partition, takeover);
    } catch (error) {
      this.emit('error', error as Error);
      this.owned.delete(partition);
      this.answerFenced(partition);
      await store.delete(key, revision).catch(() => undefined);
    }
  }

  private async refresh(key: string): Promise<void> {
    try {
      const entry = await this.options.store.get(key);
      // Seen now, as a watch would have shown it: an owner is still given a lease's time to renew.
      if (entry) this.observe(entry);
      else this.observed.set(key, { value: null, revision: 0, seenAt: this.now() });
    } catch (error) {
      this.emit('error', error as Error);
    }
  }

  /** Hands a partition over: stop, drain, then delete the lease so that the next owner starts at once. */
  private async giveUp(partition: number, reason: ReleaseReason): Promise<void> {
    const lease = this.owned.get(partition);
    await this.drop(partition, reason);
    if (lease) await this.options.store.delete(this.partitionKey(partition), lease.revision).catch(() => undefined);
  }

  private async drop(partition: number, reason: ReleaseReason): Promise<void> {
    if (!this.owned.has(partition)) return;
    this.owned.delete(partition);
    // Before the release waits for the handlers in flight: those waiting leave their messages to the next owner.
    this.answerFenced(partition);
    try {
      await this.options.handler.release(partition, reason);
    } catch (error) {
      this.emit('error', error as Error);
    }
    this.emit('released', partition, reason);
  }

  /** Answers those waiting for the partition, once it is held again or owned no more. */
  private answerFenced(partition: number): void {
    const waiting = this.fenced.get(partition);
    if (!waiting) return;
    const held = this.holds(partition);
    if (!held && this.owned.has(partition)) return;
    this.fenced.delete(partition);
    for (const resolve of waiting) resolve(held);
  }

  private memberKey(replica: string): string {
    return `${this.options.group}.m.${replica}`;
  }

  private partitionKey(partition: number): string {
    return this.partitionKeys[partition] ?? `${this.options.group}.p.${partition}`;
  }
}
