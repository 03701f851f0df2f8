import { createMessage, derivedMessageId, partitionOf, validateMessage, type AnyMessage, type MessageType } from '@warden/contracts';
import type { MessageReceipt } from '../consumer/message-receipt.js';
import { ContractViolationError } from '../errors.js';
import { AppliedIds } from './applied-ids.js';
import { asTransient } from './bus-failures.js';
import type { RecordStore } from './record-store.js';
import type { LifecycleMessage, SessionLifecycle } from './session-lifecycle.js';
import { laneKey, SessionHolder, type HolderEvents, type PartitionSource, type SessionAddress } from './session-holder.js';

/** Message ids remembered per session, so that a redelivered message is not applied twice. */
const REMEMBERED_IDS = 64;

/**
 * The outbox of every held session with nothing left to publish: one array, not a new empty one kept by
 * each session after each event (V8 moves it to the old generation, where it lies until the session's
 * next event).
 */
const NOTHING_TO_PUBLISH: readonly AnyMessage[] = Object.freeze([]);

/** How a service's session is opened, stored and restored: the keeper knows nothing else of it. */
export interface SessionModel<S, Stored> {
  open(address: SessionAddress, at: number): S;
  restore(stored: Stored): S;
  snapshot(session: S): Stored;
  /**
   * For a model that remembers the ids of the messages applied to it in its own snapshot (the breaker's
   * ledger, the intervention record): whether it applied this one. The keeper then asks it, and stores no
   * list of its own beside: the same ids twice made every record half again as long.
   */
  applied?(session: S, messageId: string): boolean;
}

/** The messages applied to a held session, as the keeper asks about them and stores them. */
export interface AppliedLog {
  has(id: string): boolean;
  /** Remembers `id` as applied. */
  add(id: string): void;
  /** The ids as stored, and as they will be once `id` is added. */
  list(): string[];
  listWith(id: string): string[];
}

/** The log of a model that remembers what it applied in its own snapshot: the keeper keeps and stores nothing of it. */
class ModelAppliedLog<S> implements AppliedLog {
  constructor(
    private readonly held: { session: S },
    private readonly applied: (session: S, messageId: string) => boolean,
  ) {}

  has(id: string): boolean {
    return this.applied(this.held.session, id);
  }

  add(): void {
    // The model records what it applies: a lifecycle message handed out by missedLifecycle is applied through it.
  }

  list(): string[] {
    return [];
  }

  listWith(): string[] {
    return [];
  }
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
  /** Its declaration was applied, or looked for on the session stream (absent in records of older versions). */
  declared?: boolean;
}

/** A session as this replica holds it. */
export interface Held<S> {
  readonly address: SessionAddress;
  session: S;
  /** Undefined while it is not stored yet. */
  revision: number | undefined;
  /** The ids of the messages last applied (stored with it as a list, unless the model keeps them itself). */
  applied: AppliedLog;
  /** Messages stored with the session and not yet published (only after a load). */
  outbox: readonly AnyMessage[];
  /** Whether its declaration was applied or looked for (see SessionKeeper.missedLifecycle). */
  declared: boolean;
  /**
   * The write that empties the stored outbox once it is published, while it is under way: it is off the
   * path of the message's acknowledgement, and the session's next task waits for it.
   */
  emptying?: Promise<void>;
  /** Messages applied in memory and not stored yet (see StoreBatching), in their order. */
  unstored: Unstored<S>[];
}

/** A message applied to a held session and not stored yet: acknowledged by the write that stores it. */
interface Unstored<S> {
  receipt: MessageReceipt;
  /** How to apply it again, after a failure dropped the copy in memory; absent for a redelivery. */
  replay?: { cause: AnyMessage; at: number; step: SessionStep<S> };
}

/**
 * Stores a session's changes together instead of one write per message: a message that leads to nothing
 * to publish is applied in memory and acknowledged once a later write stores it — the one that reaches
 * `messages` unstored, the one `delayMs` after the first, or any write the session makes (a message
 * with something to publish, a timer's change, its end). A message is never acknowledged before it is
 * stored: a replica that dies leaves it to the partition's next owner, who replays from the last stored
 * record in order. A write that fails drops the copy in memory, as any failure does, and the messages
 * not stored are applied again, in their order, before the session's next task.
 */
export interface StoreBatching {
  /** Messages applied in memory at most before the session is stored (below the ids a record remembers). */
  messages: number;
  /** How long a message waits at most for the write that stores it. */
  delayMs: number;
}

/**
 * The stateful services' batching: 32 messages stays below the 64 ids the smallest record remembers
 * (a replay from the acknowledgement floor recognises what is stored); half a second keeps the floor
 * well inside the acknowledgement wait (30 s).
 */
export const SESSION_STORE_BATCHING: StoreBatching = Object.freeze({ messages: 32, delayMs: 500 });

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
  events?: HolderEvents<Held<S>>;
  /**
   * Reads a session's lifecycle from the session stream (a SessionLifecycle), for a session that meets
   * another message before its declaration; without it nothing is looked up.
   */
  lifecycle?: Pick<SessionLifecycle, 'read'>;
  /** Stores a session's changes together (see StoreBatching); without it every message is stored before it resolves. */
  batching?: StoreBatching;
}

export const sessionRecordKey = (address: SessionAddress) => `session.${address.agentId}.${address.sessionId}`;

/** A session whose write of what it had not stored failed is tried again after this long at least. */
const STORE_RETRY_MS = 1_000;

/** What a stateful service does with one message (or a timer's change) of a session, in SessionKeeper.apply. */
export interface SessionStep<S> {
  /** Called first, in the session's lane, once the session is loaded (where a service's timing of the handling starts). */
  begin?(held: Held<S>): void;
  /** The message was applied before (a redelivery): what still has to follow it. Default: nothing. */
  redelivered?(held: Held<S>): Promise<void> | void;
  /** Whether the session is over: nothing is applied to it any more, and it is forgotten. */
  ended(session: S): boolean;
  /**
   * Applies the lifecycle messages the session missed (they came by another stream and were stored
   * before the message; applied first, in their order), then the message itself; what they lead to.
   */
  change(held: Held<S>, missed: readonly LifecycleMessage[]): Promise<Outgoing[]> | Outgoing[];
  /** Once stored and published: what follows (metrics, state records, notifications). */
  committed?(held: Held<S>, published: AnyMessage[]): Promise<void> | void;
}

/**
 * Keeps the sessions of a stateful service in one KV record each, held by a SessionHolder (lanes,
 * bounded cache, forget-on-failure, partitions followed), in one order: a change is saved first, with
 * compare-and-set, together with the messages it leads to (the outbox) and the id of its cause; then
 * the outbox is published, each message with an id derived from its cause, and emptied in the record.
 * A crash in between leaves the outbox in the record: whoever loads the session next publishes it again
 * (JetStream drops what had gone out), and the cause, redelivered, is recognised as applied. Every
 * failure of the bus is a TransientError, retried for as long as it takes.
 *
 * Emptying the outbox is the one write off the path of the acknowledgement: the message's consequences
 * are stored and published before it, and the session's next task waits for it (a failure then makes
 * that task's message a TransientError, and the session is loaded again with the outbox still stored).
 * With batching (StoreBatching), a message that leads to nothing to publish is not stored on its own:
 * its acknowledgement waits for the session's next write.
 */
export class SessionKeeper<S, Stored> {
  private readonly holder: SessionHolder<Held<S>>;
  /** Emptying writes under way, awaited at shutdown. */
  private readonly emptying = new Set<Promise<void>>();
  /** Sessions with messages not stored yet, by lane key: stored when the timer fires. */
  private readonly due = new Map<string, SessionAddress>();
  private storeTimer?: NodeJS.Timeout;
  private stopping = false;
  /** What a failure dropped from memory before it was stored, by lane key: applied again on the next load. */
  private readonly dropped = new Map<string, { address: SessionAddress; unstored: Unstored<S>[] }>();

  constructor(private readonly options: KeeperOptions<S, Stored>) {
    const { takeOver } = options;
    this.holder = new SessionHolder<Held<S>>({
      load: (address, at) => this.load(address, at),
      partitions: options.partitions,
      ...(options.capacity !== undefined ? { capacity: options.capacity } : {}),
      // What is not stored lives only here until its write.
      pinned: (held) => held.unstored.length > 0,
      ...(takeOver ? { stored: (partitions) => this.storedSessions(partitions), takeOver: async (held) => takeOver(await this.ready(held)) } : {}),
      ...(options.events ? { events: options.events } : {}),
    });
  }

  get size(): number {
    return this.holder.size;
  }

  /** Runs `work` on the session in its lane, loaded (or opened at `at`) first, its stored outbox published. */
  run<T>(address: SessionAddress, at: number, work: (held: Held<S>) => Promise<T> | T): Promise<T> {
    return this.holder.run(address, at, async (held) => {
      try {
        return await work(await this.ready(held));
      } catch (error) {
        // The holder forgets the copy in memory: what it had not stored is applied again on the next load.
        if (held.unstored.length) this.keepUnstored(held.address, held.unstored);
        held.unstored = [];
        throw error;
      }
    });
  }

  /**
   * The one way a stateful service applies a message to its session, in the session's lane: a redelivery
   * is recognised, an ended session is forgotten, the lifecycle messages the session missed are applied
   * first, then the message; the session is stored with what they lead to, that is published, and only
   * then does the returned promise resolve (the message may be acknowledged). `cause` is absent for a
   * timer's change. With batching and `defer`, a message that leads to nothing to publish resolves once
   * applied: the keeper takes its acknowledgement over and gives it with the write that stores it.
   */
  apply(address: SessionAddress, at: number, cause: AnyMessage | undefined, step: SessionStep<S>, defer?: () => MessageReceipt): Promise<void> {
    return this.run(address, at, async (held) => {
      step.begin?.(held);
      if (cause && this.hasApplied(held, cause.id)) {
        await step.redelivered?.(held);
        // Applied and not stored yet: acknowledged with the write that stores it.
        if (defer && held.unstored.length) this.storeLater(held, { receipt: defer() });
        return;
      }
      if (step.ended(held.session)) return this.forget(address);
      await this.change(held, cause, at, step, defer);
    });
  }

  /** Applies one message (or a timer's change) to a loaded session: stored now, or with a later write. */
  private async change(held: Held<S>, cause: AnyMessage | undefined, at: number, step: SessionStep<S>, defer?: () => MessageReceipt): Promise<void> {
    const missed = cause ? await this.missedLifecycle(held, cause, at) : [];
    const outgoing = await step.change(held, missed);
    const { batching } = this.options;
    if (batching && cause && defer && !outgoing.length && !step.ended(held.session) && held.unstored.length + 1 < batching.messages) {
      held.applied.add(cause.id);
      // As commit records it: the next write stores the session as declared.
      if (cause.type === 'session.started') held.declared = true;
      this.storeLater(held, { receipt: defer(), replay: { cause, at, step } });
      await step.committed?.(held, []);
      return;
    }
    const published = await this.commit(held, cause, outgoing);
    await step.committed?.(held, published);
    if (step.ended(held.session)) this.forget(held.address);
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
    await this.emptied(held);
    const outbox = outgoing.map((o) => this.build(held.address, cause, o));
    const applied = cause ? held.applied.listWith(cause.id) : held.applied.list();
    const declared = held.declared || cause?.type === 'session.started';
    const kept: KeptSession<Stored> = { state: this.options.model.snapshot(held.session), outbox, applied, ...(declared ? { declared } : {}) };
    held.revision = await this.options.store.write(sessionRecordKey(held.address), kept, held.revision);
    held.declared = declared;
    if (cause) held.applied.add(cause.id);
    // Stored with it: the messages applied before and not stored yet.
    if (held.unstored.length) {
      for (const { receipt } of held.unstored) receipt.ack();
      held.unstored = [];
    }
    held.outbox = outbox.length ? outbox : NOTHING_TO_PUBLISH;
    await this.publishOutbox(held);
    // Published: emptied, so that a later load (a restart, a takeover hours on) does not send it again.
    if (outbox.length) this.empty(held, { ...kept, outbox: [] });
    return outbox;
  }

  /**
   * The lifecycle messages (declaration, phase and goal changes) that a session not declared yet must
   * apply before `cause`, which came by another stream: those stored before it (`at`) and not applied.
   * Looked up once per session: an agent that never declares costs one read. Nothing when `cause` is
   * itself a lifecycle message, or without a reader. Each one returned counts as applied from now on.
   */
  async missedLifecycle(held: Held<S>, cause: AnyMessage, at: number): Promise<LifecycleMessage[]> {
    if (held.declared || !this.options.lifecycle || cause.type.startsWith('session.')) return [];
    const missed = (await this.options.lifecycle.read(held.address, at)).filter((m) => !held.applied.has(m.message.id));
    held.declared = true;
    for (const m of missed) held.applied.add(m.message.id);
    return missed;
  }

  /** Drops the session from memory (it ended, or another replica owns it now). */
  forget(address: SessionAddress): void {
    this.holder.forget(address);
  }

  /** See SessionHolder.follow: `released` runs after the keeper forgot the partition's sessions. */
  follow(source: PartitionSource, released?: (partition: number) => void): void {
    this.holder.follow(source, (partition) => {
      this.leave(partition);
      released?.(partition);
    });
  }

  /** Whether this replica owns the session's partition now. */
  owns(address: SessionAddress): boolean {
    return this.holder.owns(address);
  }

  /** Forgets the sessions of a partition this replica gave up; whoever takes it over loads them. */
  release(partition: number): void {
    this.holder.release(partition);
    this.leave(partition);
  }

  /**
   * What was not stored of a partition given up stays unacknowledged: its next owner replays it from
   * the last stored record.
   */
  private leave(partition: number): void {
    const mine = (key: string, address: SessionAddress) => partitionOf(address.sessionId, this.options.partitions) === partition && key;
    for (const [key, address] of this.due) if (mine(key, address)) this.due.delete(key);
    for (const [key, { address }] of this.dropped) if (mine(key, address)) this.dropped.delete(key);
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
    return this.holder.heldSessions();
  }

  /**
   * At shutdown: what is not stored yet is stored (what cannot be is left unacknowledged, for the next
   * owner), nothing more is taken over, nothing is held; resolves once the writes under way are done.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.storeTimer);
    this.storeTimer = undefined;
    await this.storeDue();
    this.holder.stop();
    this.due.clear();
    this.dropped.clear();
    await Promise.allSettled(this.emptying);
  }

  /**
   * Keeps a message applied and not stored yet: the session is due, and stored when the timer fires (or
   * sooner, by a write of its own). Every such message comes this way, so none waits for a write that
   * nothing will make.
   */
  private storeLater(held: Held<S>, message: Unstored<S>): void {
    held.unstored.push(message);
    const key = laneKey(held.address);
    if (this.due.has(key)) return;
    this.due.set(key, held.address);
    this.armStoreTimer(this.options.batching?.delayMs ?? 0);
  }

  private armStoreTimer(ms: number): void {
    if (this.storeTimer || this.stopping) return;
    this.storeTimer = setTimeout(() => {
      this.storeTimer = undefined;
      void this.storeDue();
    }, ms);
    this.storeTimer.unref();
  }

  /** Stores every session with messages not stored yet, each in its lane; one that fails is tried again later. */
  private async storeDue(): Promise<void> {
    const due = [...this.due.values()];
    this.due.clear();
    await Promise.all(
      due.map(async (address) => {
        const key = laneKey(address);
        // Neither held nor dropped: stored already, or given up with its partition.
        if (!this.holder.holds(address) && !this.dropped.has(key)) return;
        await this.run(address, Date.now(), (held) => (held.unstored.length ? this.commit(held, undefined, []) : undefined)).catch(() => {
          // A failed write dropped the session with what it had not stored, and made it due again (see run);
          // a failed load left that where it was: due again too (a partition given up takes it along: leave).
          if (this.dropped.has(key) && !this.due.has(key)) this.keepUnstored(address, []);
        });
      }),
    );
  }

  /**
   * Keeps what a failure dropped from memory before it was stored, after what was dropped before, and
   * stores it again later (JetStream is told meanwhile that it is still being worked on).
   */
  private keepUnstored(address: SessionAddress, unstored: Unstored<S>[]): void {
    const key = laneKey(address);
    const kept = [...(this.dropped.get(key)?.unstored ?? []), ...unstored];
    this.dropped.set(key, { address, unstored: kept });
    for (const { receipt } of kept) receipt.working();
    this.due.set(key, address);
    this.armStoreTimer(Math.max(this.options.batching?.delayMs ?? 0, STORE_RETRY_MS));
  }

  private async load(address: SessionAddress, at: number): Promise<Held<S>> {
    const stored = await this.options.store.get(sessionRecordKey(address));
    const kept = stored && asKept<Stored>(stored.value);
    const held: Omit<Held<S>, 'applied'> & { applied?: AppliedLog } = kept
      ? {
          address,
          session: this.options.model.restore(kept.state),
          revision: stored.revision,
          outbox: kept.outbox.length ? kept.outbox : NOTHING_TO_PUBLISH,
          declared: kept.declared === true,
          unstored: [],
        }
      : { address, session: this.options.model.open(address, at), revision: undefined, outbox: NOTHING_TO_PUBLISH, declared: false, unstored: [] };
    const { applied } = this.options.model;
    // A record of an older version may list ids a model remembers itself: then the model's are the ones.
    held.applied = applied ? new ModelAppliedLog(held, applied) : AppliedIds.of(kept ? kept.applied : [], REMEMBERED_IDS);
    return held as Held<S>;
  }

  /**
   * A session loaded with an outbox a crash left behind publishes it before anything else; one a failure
   * dropped applies again what it had not stored, in order, before anything else.
   */
  private async ready(held: Held<S>): Promise<Held<S>> {
    await this.emptied(held);
    if (held.outbox.length) await this.publishOutbox(held);
    if (!this.dropped.size) return held;
    const key = laneKey(held.address);
    const dropped = this.dropped.get(key)?.unstored;
    if (!dropped) return held;
    this.dropped.delete(key);
    for (let index = 0; index < dropped.length; index++) {
      const { receipt, replay } = dropped[index]!;
      try {
        if (!replay || this.hasApplied(held, replay.cause.id)) this.storeLater(held, { receipt });
        else {
          let kept = false;
          await this.change(held, replay.cause, replay.at, replay.step, () => ((kept = true), receipt));
          // Stored at once this time: nobody else acknowledges it.
          if (!kept) receipt.ack();
        }
      } catch (error) {
        // Not applied again yet: kept, after what run keeps of this copy.
        held.unstored.push(...dropped.slice(index));
        throw error;
      }
    }
    return held;
  }

  /** Stores the record with its outbox emptied, at the revision just written; the next task waits for it. */
  private empty(held: Held<S>, kept: KeptSession<Stored>): void {
    const written = this.options.store.write(sessionRecordKey(held.address), kept, held.revision).then((revision) => {
      held.revision = revision;
    });
    held.emptying = written;
    // Handled here so that a failure nobody awaits yet is not an unhandled rejection; the next task sees it.
    const settled = written.catch(() => undefined).finally(() => this.emptying.delete(settled));
    this.emptying.add(settled);
  }

  /** Waits for the session's emptying write; its failure is this task's (the session is then loaded again). */
  private async emptied(held: Held<S>): Promise<void> {
    const emptying = held.emptying;
    if (!emptying) return;
    held.emptying = undefined;
    await emptying;
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
    held.outbox = NOTHING_TO_PUBLISH;
  }
}

/** A record stored before sessions were kept with their outbox is the bare snapshot. */
function asKept<Stored>(value: unknown): KeptSession<Stored> {
  const v = value as Partial<KeptSession<Stored>>;
  if (v && typeof v === 'object' && 'state' in v && Array.isArray(v.applied) && Array.isArray(v.outbox)) return v as KeptSession<Stored>;
  return { state: value as Stored, outbox: [], applied: [] };
}
