import { createMessage, derivedMessageId, partitionOf, validateMessage, type AnyMessage, type MessageType } from '@warden/contracts';
import { SessionLanes } from '../consumer/session-lanes.js';
import { ContractViolationError } from '../errors.js';
import { AppliedIds } from './applied-ids.js';
import { asTransient } from './bus-failures.js';
import { RecordConflictError, type RecordStore } from './record-store.js';

/** Message ids remembered per session, so that a redelivered message is not applied twice. */
const REMEMBERED_IDS = 64;

export interface SessionAddress {
  agentId: string;
  sessionId: string;
}

/** How a service's session is opened, stored and restored: the keeper knows nothing else of it. */
export interface SessionModel<S, Stored> {
  open(address: SessionAddress, at: number): S;
  restore(stored: Stored): S;
  snapshot(session: S): Stored;
}

/** A message a change leads to; its id is derived from `key`, so deciding it again yields the same id. */
export interface Outgoing {
  type: MessageType;
  payload: unknown;
  key: string;
}

/** What is stored per session: the service's snapshot, the messages it led to, the ids applied. */
export interface KeptSession<Stored> {
  state: Stored;
  outbox: AnyMessage[];
  applied: string[];
}

/** A session as this replica holds it. */
export interface Held<S> {
  readonly address: SessionAddress;
  session: S;
  /** Undefined while it is not stored yet. */
  revision: number | undefined;
  /** The ids of the messages last applied (stored with it as a list). */
  applied: AppliedIds;
  /** Messages stored with the session and not yet published (only after a load). */
  outbox: AnyMessage[];
}

export interface KeeperEvents {
  /** Sessions held in memory, after each change of their number. */
  size?(held: number): void;
  /** A write refused because another replica wrote first. */
  conflict?(): void;
  /** A session was dropped from memory (failure, release, end, eviction). */
  forgotten?(address: SessionAddress): void;
  /** The sessions of newly acquired partitions were taken over (`takeOver` ran for each). */
  tookOver?(partitions: number[], sessions: number): void;
  /** Taking them over failed; it is tried again shortly. */
  takeoverFailed?(partitions: number[], error: unknown): void;
}

export interface KeeperOptions<S, Stored> {
  /** Where sessions are stored (a KV bucket's RecordStore): read, written with compare-and-set, listed. */
  store: Pick<RecordStore<KeptSession<Stored>>, 'get' | 'write' | 'keys'>;
  /** Publishes one message to JetStream (the service's MessagePublisher). */
  publish: (message: AnyMessage) => Promise<unknown>;
  model: SessionModel<S, Stored>;
  partitions: number;
  /** Sessions held in memory at most; the least recently used idle one is dropped (it is stored). */
  capacity?: number;
  /**
   * Run in its lane for every stored session of a partition this replica acquires (a service whose
   * sessions have clocks arms them here); without it acquiring loads nothing.
   */
  takeOver?: (held: Held<S>) => Promise<void>;
  events?: KeeperEvents;
}

/** Partitions acquired together (at start, or when a replica dies) are taken over in one scan. */
const TAKEOVER_SETTLE_MS = 50;
const TAKEOVER_RETRY_MS = 1_000;

/** Where partitions come and go: the service's JetStreamServer. */
export interface PartitionSource {
  on(event: 'partition.acquired' | 'partition.released', listener: (partition: number) => void): unknown;
  ownedPartitions(): number[];
}

export const sessionRecordKey = (address: SessionAddress) => `session.${address.agentId}.${address.sessionId}`;
const laneKey = (address: SessionAddress) => `${address.agentId}\u0000${address.sessionId}`;

/**
 * Holds the sessions of the partitions a replica owns, for every stateful service alike.
 *
 * - One lane per session: its work runs one task after the other.
 * - A bounded cache: a session is loaded from its KV record on first sight (or opened), kept while it
 *   is used, and dropped when idle and the cache is full.
 * - One order: a change is saved first, with compare-and-set, together with the messages it leads to
 *   (the outbox) and the id of its cause; then the outbox is published, each message with an id
 *   derived from its cause, and emptied in the record. A crash in between leaves the outbox in the
 *   record: whoever loads the session next publishes it again (JetStream drops what had gone out),
 *   and the cause, redelivered, is recognised as applied.
 * - One failure policy: whatever fails while a session is worked on (a conflict, the bus, the domain),
 *   the cached copy is forgotten and the redelivery starts from the stored record. Every failure of
 *   the bus is a TransientError, retried for as long as it takes.
 * - Partitions: sessions of a released partition are forgotten; those of acquired ones can be listed.
 */
export class SessionKeeper<S, Stored> {
  private readonly held = new Map<string, Held<S>>();
  private readonly lanes = new SessionLanes();
  private readonly capacity: number;
  private readonly owned = new Set<number>();
  private acquiring: number[] = [];
  private takeoverTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: KeeperOptions<S, Stored>) {
    this.capacity = options.capacity ?? 50_000;
  }

  get size(): number {
    return this.held.size;
  }

  /** Runs `work` on the session in its lane, loaded (or opened at `at`) first. */
  run<T>(address: SessionAddress, at: number, work: (held: Held<S>) => Promise<T> | T): Promise<T> {
    const key = laneKey(address);
    return this.lanes.run(key, async () => {
      try {
        const held = await this.hold(address, at);
        if (held.outbox.length) await this.publishOutbox(held);
        return await work(held);
      } catch (error) {
        this.drop(key);
        if (error instanceof RecordConflictError) this.options.events?.conflict?.();
        throw error;
      }
    });
  }

  /** Whether the message with this id has been applied to the session (it is a redelivery). */
  hasApplied(held: Held<S>, messageId: string): boolean {
    return held.applied.has(messageId);
  }

  /**
   * Saves the session with the messages its change leads to, then publishes them. `cause` is the
   * message applied (remembered, and the parent of what is published); none for a timer's change.
   */
  async commit(held: Held<S>, cause: AnyMessage | undefined, outgoing: readonly Outgoing[]): Promise<AnyMessage[]> {
    const outbox = outgoing.map((o) => this.build(held.address, cause, o));
    const applied = cause ? held.applied.listWith(cause.id) : held.applied.list();
    const kept: KeptSession<Stored> = { state: this.options.model.snapshot(held.session), outbox, applied };
    held.revision = await this.options.store.write(sessionRecordKey(held.address), kept, held.revision);
    if (cause) held.applied.add(cause.id);
    held.outbox = outbox;
    await this.publishOutbox(held);
    // Published: emptied, so that a later load (a restart, a takeover hours on) does not send it again.
    if (outbox.length) held.revision = await this.options.store.write(sessionRecordKey(held.address), { ...kept, outbox: [] }, held.revision);
    return outbox;
  }

  /** Drops the session from memory (it ended, or another replica owns it now). */
  forget(address: SessionAddress): void {
    this.drop(laneKey(address));
  }

  /**
   * Follows the partitions this replica owns: those it holds already (the transport may have started
   * before the service's modules) and those it acquires or releases from now on. `released` runs
   * after the keeper forgot the partition's sessions.
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

  /** This replica owns the partition now: its stored sessions are taken over (see `takeOver`). */
  acquired(partition: number): void {
    this.owned.add(partition);
    if (!this.options.takeOver || this.stopped) return;
    this.acquiring.push(partition);
    this.takeoverTimer ??= setTimeout(() => void this.takeOverAcquired(), TAKEOVER_SETTLE_MS);
  }

  /** Forgets the sessions of a partition this replica gave up; whoever takes it over loads them. */
  release(partition: number): void {
    this.owned.delete(partition);
    for (const [key, held] of this.held) {
      if (partitionOf(held.address.sessionId, this.options.partitions) === partition) this.drop(key);
    }
  }

  /** The stored sessions of these partitions, for a replica that takes them over. */
  async storedSessions(partitions: ReadonlySet<number>): Promise<SessionAddress[]> {
    const sessions: SessionAddress[] = [];
    for (const key of await this.options.store.keys('session.>')) {
      const [, agentId, sessionId] = key.split('.');
      if (agentId && sessionId && partitions.has(partitionOf(sessionId, this.options.partitions))) sessions.push({ agentId, sessionId });
    }
    return sessions;
  }

  /** The sessions held in memory now (a sweep works through them, each in its lane). */
  heldSessions(): Held<S>[] {
    return [...this.held.values()];
  }

  /** At shutdown: nothing more is taken over, nothing is held. */
  stop(): void {
    this.stopped = true;
    if (this.takeoverTimer) clearTimeout(this.takeoverTimer);
    for (const key of [...this.held.keys()]) this.drop(key);
  }

  private async takeOverAcquired(): Promise<void> {
    const partitions = [...new Set(this.acquiring)];
    this.acquiring = [];
    this.takeoverTimer = undefined;
    try {
      const sessions = await this.storedSessions(new Set(partitions));
      for (const address of sessions) {
        if (this.stopped || !this.owns(address)) continue;
        await this.run(address, Date.now(), (held) => this.options.takeOver!(held));
      }
      this.options.events?.tookOver?.(partitions, sessions.length);
    } catch (error) {
      this.options.events?.takeoverFailed?.(partitions, error);
      if (this.stopped) return;
      this.acquiring.push(...partitions);
      this.takeoverTimer = setTimeout(() => void this.takeOverAcquired(), TAKEOVER_RETRY_MS);
      this.takeoverTimer.unref();
    }
  }

  private async hold(address: SessionAddress, at: number): Promise<Held<S>> {
    const key = laneKey(address);
    const cached = this.held.get(key);
    if (cached) {
      // Least recently used first: move it to the end.
      this.held.delete(key);
      this.held.set(key, cached);
      return cached;
    }
    const stored = await this.options.store.get(sessionRecordKey(address));
    const kept = stored && asKept<Stored>(stored.value);
    const held: Held<S> = kept
      ? { address, session: this.options.model.restore(kept.state), revision: stored.revision, applied: AppliedIds.of(kept.applied, REMEMBERED_IDS), outbox: kept.outbox }
      : { address, session: this.options.model.open(address, at), revision: undefined, applied: new AppliedIds(REMEMBERED_IDS), outbox: [] };
    this.held.set(key, held);
    this.evict();
    this.options.events?.size?.(this.held.size);
    return held;
  }

  private build(address: SessionAddress, cause: AnyMessage | undefined, outgoing: Outgoing): AnyMessage {
    const message = createMessage(outgoing.type, {
      id: derivedMessageId(outgoing.type, outgoing.key),
      session_id: address.sessionId,
      agent_id: address.agentId,
      ...(cause ? { trace_id: cause.trace_id, causation_id: cause.id } : {}),
      payload: outgoing.payload as never,
    }) as AnyMessage;
    const validation = validateMessage(message);
    // Checked before anything is stored: an invalid message is a bug, never kept in an outbox.
    if (!validation.ok) throw new ContractViolationError(message.type, validation.detail);
    return message;
  }

  private async publishOutbox(held: Held<S>): Promise<void> {
    for (const message of held.outbox) {
      try {
        await this.options.publish(message);
      } catch (error) {
        if (error instanceof ContractViolationError) throw error;
        throw asTransient(`publishing ${message.type}`, error);
      }
    }
    held.outbox = [];
  }

  private evict(): void {
    if (this.held.size <= this.capacity) return;
    for (const [key] of this.held) {
      if (this.held.size <= this.capacity) return;
      if (!this.lanes.isBusy(key)) this.drop(key);
    }
  }

  private drop(key: string): void {
    const held = this.held.get(key);
    if (!held) return;
    this.held.delete(key);
    this.options.events?.forgotten?.(held.address);
    this.options.events?.size?.(this.held.size);
  }
}

/** A record stored before sessions were kept with their outbox is the bare snapshot. */
function asKept<Stored>(value: unknown): KeptSession<Stored> {
  const v = value as Partial<KeptSession<Stored>>;
  if (v && typeof v === 'object' && 'state' in v && Array.isArray(v.applied) && Array.isArray(v.outbox)) return v as KeptSession<Stored>;
  return { state: value as Stored, outbox: [], applied: [] };
}
