import { partitionOf } from '@warden/contracts';
import { SessionLanes } from '../consumer/session-lanes.js';
import { RecordConflictError } from './record-store.js';

export interface SessionAddress {
  agentId: string;
  sessionId: string;
}

/** Where partitions come and go: the service's JetStreamServer. */
export interface PartitionSource {
  on(event: 'partition.acquired' | 'partition.released', listener: (partition: number) => void): unknown;
  ownedPartitions(): number[];
}

export interface HolderEvents<R> {
  /** Sessions held in memory, after each change of their number. */
  size?(held: number): void;
  /** A write refused because another replica wrote first. */
  conflict?(): void;
  /** A session was dropped from memory (failure, release, end, eviction, stop): what lives with it goes too. */
  forgotten?(address: SessionAddress, session: R): void;
  /** The stored sessions of newly acquired partitions were taken over. */
  tookOver?(partitions: number[], sessions: number): void;
  /** Taking some of them over failed; it is tried again shortly. */
  takeoverFailed?(partitions: number[], error: unknown): void;
}

export interface HolderOptions<R> {
  /** Reads a session that is not held from where the service stores it (or opens it at `at`); runs in its lane. */
  load(address: SessionAddress, at: number): Promise<R>;
  partitions: number;
  /** Sessions held in memory at most; the least recently used idle one is dropped (it is stored). */
  capacity?: number;
  /** A session that must stay in memory however full the cache is (its timers live with it). */
  pinned?(session: R): boolean;
  /** The stored sessions of these partitions; without it acquiring a partition loads nothing. */
  stored?(partitions: ReadonlySet<number>): Promise<SessionAddress[]>;
  /** Run in its lane, once loaded, for every stored session of a partition this replica acquires. */
  takeOver?(session: R): Promise<void>;
  events?: HolderEvents<R>;
}

/** Partitions acquired together (at start, or when a replica dies) are taken over in one scan. */
const TAKEOVER_SETTLE_MS = 50;
const TAKEOVER_RETRY_MS = 1_000;

/** The key a session's lane and its entry are held under. */
export const laneKey = (address: SessionAddress) => `${address.agentId}\u0000${address.sessionId}`;

interface Entry<R> {
  /**
   * The key the session is held under, used again when it moves to the end: the key of each task is a
   * new string (holding the message's own ids), which the map would otherwise keep in place of this one
   * until the session's next task, long enough for V8 to move it to the old generation to die there.
   */
  key: string;
  address: SessionAddress;
  session: R;
}

/**
 * Holds the sessions of the partitions a replica owns, whatever a service keeps in them and however it
 * stores them.
 *
 * - One lane per session: its work runs one task after the other.
 * - A bounded cache: a session is loaded on first sight, kept while it is used, and dropped when idle
 *   and the cache is full, least recently used first (never a pinned one).
 * - One failure policy: whatever fails while a session is worked on, the copy in memory may be ahead
 *   of what was stored, so it is forgotten and the next task loads it again.
 * - Partitions: the sessions of a released partition are forgotten; the stored sessions of acquired
 *   ones are loaded (and taken over) once the acquisitions settle, again until it succeeds.
 */
export class SessionHolder<R> {
  private readonly held = new Map<string, Entry<R>>();
  private readonly lanes = new SessionLanes();
  private readonly capacity: number;
  private readonly owned = new Set<number>();
  private acquiring: number[] = [];
  private takeoverTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: HolderOptions<R>) {
    this.capacity = options.capacity ?? 50_000;
  }

  get size(): number {
    return this.held.size;
  }

  /** Runs `work` on the session in its lane, loaded first unless held. */
  run<T>(address: SessionAddress, at: number, work: (session: R) => Promise<T> | T): Promise<T> {
    const key = laneKey(address);
    return this.lanes.run(key, async () => {
      try {
        return await work(await this.hold(key, address, at));
      } catch (error) {
        this.drop(key);
        if (error instanceof RecordConflictError) this.options.events?.conflict?.();
        throw error;
      }
    });
  }

  /** Whether the session is held in memory now. */
  holds(address: SessionAddress): boolean {
    return this.held.has(laneKey(address));
  }

  /** Drops the session from memory (it ended, or another replica owns it now). */
  forget(address: SessionAddress): void {
    this.drop(laneKey(address));
  }

  /**
   * Follows the partitions this replica owns: those it holds already (the transport may have started
   * before the service's modules) and those it acquires or releases from now on. `released` runs
   * after the partition's sessions were forgotten.
   */
  follow(source: PartitionSource, released?: (partition: number) => void): void {
    source.on('partition.acquired', (partition) => this.acquired(partition));
    source.on('partition.released', (partition) => {
      this.release(partition);
      released?.(partition);
    });
    for (const partition of source.ownedPartitions()) this.acquired(partition);
  }

  /** Whether this replica owns the session's partition now. */
  owns(address: SessionAddress): boolean {
    return this.owned.has(partitionOf(address.sessionId, this.options.partitions));
  }

  /** Forgets the sessions of a partition this replica gave up; whoever takes it over loads them. */
  release(partition: number): void {
    this.owned.delete(partition);
    for (const [key, entry] of this.held) {
      if (partitionOf(entry.address.sessionId, this.options.partitions) === partition) this.drop(key);
    }
  }

  /** The sessions held in memory now (a sweep works through them, each in its lane). */
  heldSessions(): R[] {
    return [...this.held.values()].map((entry) => entry.session);
  }

  /** At shutdown: nothing more is taken over, nothing is held. */
  stop(): void {
    this.stopped = true;
    if (this.takeoverTimer) clearTimeout(this.takeoverTimer);
    for (const key of [...this.held.keys()]) this.drop(key);
  }

  private acquired(partition: number): void {
    this.owned.add(partition);
    if (!this.options.stored || this.stopped) return;
    this.acquiring.push(partition);
    this.takeoverTimer ??= setTimeout(() => void this.takeOverAcquired(), TAKEOVER_SETTLE_MS);
  }

  private async takeOverAcquired(): Promise<void> {
    const partitions = [...new Set(this.acquiring)];
    this.acquiring = [];
    this.takeoverTimer = undefined;
    let failure: { error: unknown } | undefined;
    let sessions: SessionAddress[] = [];
    try {
      sessions = await this.options.stored!(new Set(partitions));
    } catch (error) {
      failure = { error };
    }
    // One session that fails does not hold the others back; the next attempt finds the rest held.
    for (const address of sessions) {
      if (this.stopped || !this.owns(address)) continue;
      await this.run(address, Date.now(), (session) => this.options.takeOver?.(session)).catch((error: unknown) => (failure ??= { error }));
    }
    if (!failure) return void this.options.events?.tookOver?.(partitions, sessions.length);
    this.options.events?.takeoverFailed?.(partitions, failure.error);
    if (this.stopped) return;
    this.acquiring.push(...partitions);
    this.takeoverTimer = setTimeout(() => void this.takeOverAcquired(), TAKEOVER_RETRY_MS);
    this.takeoverTimer.unref();
  }

  private async hold(key: string, address: SessionAddress, at: number): Promise<R> {
    const cached = this.held.get(key);
    if (cached) {
      // Least recently used first: move it to the end.
      this.held.delete(key);
      this.held.set(cached.key, cached);
      return cached.session;
    }
    const session = await this.options.load(address, at);
    this.held.set(key, { key, address, session });
    this.evict();
    this.options.events?.size?.(this.held.size);
    return session;
  }

  private evict(): void {
    for (const [key, entry] of this.held) {
      if (this.held.size <= this.capacity) return;
      if (!this.lanes.isBusy(key) && !this.options.pinned?.(entry.session)) this.drop(key);
    }
  }

  private drop(key: string): void {
    const entry = this.held.get(key);
    if (!entry) return;
    this.held.delete(key);
    this.options.events?.forgotten?.(entry.address, entry.session);
    this.options.events?.size?.(this.held.size);
  }
}
