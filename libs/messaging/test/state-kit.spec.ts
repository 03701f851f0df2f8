import { Kvm } from '@nats-io/kv';
import { createMessage, EXAMPLE_PAYLOADS, partitionOf, PATTERN_SESSION_BUCKET, publishSubject, type AnyMessage, type MessageType, type PayloadOf } from '@warden/contracts';
import { MetricsRegistry } from '@warden/observability';
import { BusRecorder, eventually, TestNatsServer } from '@warden/testing';
import {
  BucketMirror,
  BusConnection,
  MessagePublisher,
  MessagingMetrics,
  RecordConflictError,
  RecordStore,
  SessionKeeper,
  SessionLifecycle,
  streamName,
  TransientError,
  type KeptSession,
  type SessionModel,
} from '../src/index.js';

/** A session that counts what it was told, for the keeper to hold. */
interface Tally {
  agent: string;
  session: string;
  count: number;
}

const model: SessionModel<Tally, Tally> = {
  open: (address) => ({ agent: address.agentId, session: address.sessionId, count: 0 }),
  restore: (stored) => ({ ...stored }),
  snapshot: (tally) => ({ ...tally }),
};

const PARTITIONS = 4;
let sequence = 0;
const newSession = () => ({ agentId: 'agent-1', sessionId: `kit-${process.pid}-${++sequence}` });

describe('the session state kit over a real nats-server', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let publisher: MessagePublisher;
  let recorder: BusRecorder;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: PARTITIONS });
    bus = await BusConnection.open(nats.service);
    publisher = new MessagePublisher(bus, new MessagingMetrics(new MetricsRegistry('kit')));
    recorder = await BusRecorder.start(bus.nc, 'warden.pattern.>');
  }, 60_000);

  afterAll(async () => {
    recorder?.stop();
    await bus?.close();
    await nats?.stop();
  });

  /** A keeper as a service holds it; `failPublish` makes the bus refuse publications while it is set. */
  function keeper(options: { capacity?: number; failPublish?: () => boolean; failEmptying?: () => boolean } = {}) {
    const events = { conflicts: 0, forgotten: [] as string[] };
    const records = new RecordStore<KeptSession<Tally>>(bus.nc, PATTERN_SESSION_BUCKET);
    const kept = new SessionKeeper<Tally, Tally>({
      store: {
        get: (key) => records.get(key),
        keys: (filter) => records.keys(filter),
        // The write that empties a published outbox fails while `failEmptying` says so.
        write: (key, value, revision) =>
          options.failEmptying?.() && value.outbox.length === 0 ? Promise.reject(new TransientError('503 no responders available')) : records.write(key, value, revision),
      },
      publish: (message: AnyMessage) => (options.failPublish?.() ? Promise.reject(new Error('503 no responders available')) : publisher.publishMessage(message)),
      model,
      partitions: PARTITIONS,
      lifecycle: new SessionLifecycle(bus.jsm, PARTITIONS),
      ...(options.capacity ? { capacity: options.capacity } : {}),
      events: { conflict: () => events.conflicts++, forgotten: (a) => events.forgotten.push(a.sessionId) },
    });
    return { kept, events };
  }

  const cause = (sessionId: string) => createMessage('action.proposed', { agent_id: 'agent-1', session_id: sessionId, payload: EXAMPLE_PAYLOADS['action.proposed'] }) as AnyMessage;
  const report = (sessionId: string, n: number) => ({ type: 'pattern.detected' as const, payload: { ...EXAMPLE_PAYLOADS['pattern.detected'], pattern_id: `p${n}` }, key: `kit:${sessionId}:p${n}` });

  /** Applies `message` once: counts it and reports a pattern at every second count. */
  function count(kept: SessionKeeper<Tally, Tally>, message: AnyMessage) {
    return kept.run({ agentId: message.agent_id, sessionId: message.session_id }, Date.now(), async (held) => {
      if (kept.hasApplied(held, message.id)) return 'duplicate';
      held.session.count++;
      await kept.commit(held, message, held.session.count % 2 === 0 ? [report(message.session_id, held.session.count)] : []);
      return 'applied';
    });
  }

  const stored = async (sessionId: string) => (await new RecordStore<KeptSession<Tally>>(bus.nc, PATTERN_SESSION_BUCKET).get(`session.agent-1.${sessionId}`))?.value;
  const published = (sessionId: string) => recorder.messages.filter((m) => m.body.session_id === sessionId && m.body.type === 'pattern.detected');
  /** The session's messages the pattern stream stores (a duplicate publication is dropped there, not on the wire). */
  const streamCount = async (sessionId: string) => {
    const info = await bus.jsm.streams.info(streamName('pattern'), { subjects_filter: `warden.pattern.*.agent-1.${sessionId}` });
    return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  };

  /** Publishes a lifecycle message as the agent does; returns its id once JetStream has stored it. */
  async function publishLifecycle<T extends MessageType>(sessionId: string, type: T, payload: PayloadOf<T>): Promise<string> {
    const message = createMessage(type, { agent_id: 'agent-1', session_id: sessionId, payload } as never) as AnyMessage;
    await bus.js.publish(publishSubject('session', 'agent-1', sessionId), new TextEncoder().encode(JSON.stringify(message)), { msgID: message.id });
    return message.id;
  }

  describe('RecordStore', () => {
    const store = () => new RecordStore<{ n: number }>(bus.nc, PATTERN_SESSION_BUCKET);

    it('reads an absent record as undefined, creates without a revision, and refuses a stale write as a conflict', async () => {
      const key = `record-${++sequence}`;
      const records = store();
      expect(await records.get(key)).toBeUndefined();
      const first = await records.write(key, { n: 1 }, undefined);
      expect(await records.get(key)).toEqual({ value: { n: 1 }, revision: first });
      const conflict = await records.write(key, { n: 2 }, undefined).catch((error: unknown) => error);
      expect(conflict).toBeInstanceOf(RecordConflictError);
      expect(conflict).toBeInstanceOf(TransientError);
      await records.write(key, { n: 2 }, first);
      await expect(records.write(key, { n: 3 }, first)).rejects.toBeInstanceOf(RecordConflictError);
      await records.delete(key);
      expect(await records.get(key)).toBeUndefined();
      await records.write(key, { n: 4 }, undefined);
      expect((await records.get(key))?.value).toEqual({ n: 4 });
    });

    it('loses no update when several writers change one record at once', async () => {
      const key = `record-${++sequence}`;
      const writers = [store(), store(), store()];
      let conflicts = 0;
      await Promise.all(Array.from({ length: 30 }, (_, i) => writers[i % 3]!.update(key, (current) => ({ n: (current?.n ?? 0) + 1 }), () => conflicts++)));
      expect((await store().get(key))?.value).toEqual({ n: 30 });
      expect(conflicts).toBeGreaterThan(0);
    });

    it('makes a missing bucket a TransientError that says how to create it', async () => {
      const error = await new RecordStore(bus.nc, 'warden_not_provisioned').get('x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransientError);
      expect((error as Error).message).toContain('warden provision');
    });
  });

  describe('SessionKeeper', () => {
    it('stores each change with its outbox, publishes it, empties it, and recognises a redelivery', async () => {
      const { kept } = keeper();
      const session = newSession();
      const messages = [cause(session.sessionId), cause(session.sessionId)];
      expect(await count(kept, messages[0]!)).toBe('applied');
      expect(await count(kept, messages[1]!)).toBe('applied');
      expect(await count(kept, messages[1]!)).toBe('duplicate');
      await eventually('the pattern published', () => published(session.sessionId).length > 0);
      expect(published(session.sessionId).map((m) => m.body.causation_id)).toEqual([messages[1]!.id]);
      // Emptied after the change resolved: that write is off the acknowledgement's path.
      await eventually('the outbox emptied', () => stored(session.sessionId), (record) => record?.outbox.length === 0);
      expect(await stored(session.sessionId)).toEqual({ state: { agent: 'agent-1', session: session.sessionId, count: 2 }, outbox: [], applied: messages.map((m) => m.id) });
      // Another replica (or this one after a restart) carries on from the record.
      expect(await count(keeper().kept, messages[0]!)).toBe('duplicate');
    });

    it('when the bus fails after the save: the failure is transient, the copy forgotten, and the next load publishes the stored outbox once', async () => {
      let failing = true;
      const { kept, events } = keeper({ failPublish: () => failing });
      const session = newSession();
      const messages = [cause(session.sessionId), cause(session.sessionId)];
      await count(kept, messages[0]!);
      await expect(count(kept, messages[1]!)).rejects.toBeInstanceOf(TransientError);
      expect(events.forgotten).toContain(session.sessionId);
      expect((await stored(session.sessionId))?.outbox).toHaveLength(1);
      expect(published(session.sessionId)).toEqual([]);

      failing = false;
      // The redelivery: the outbox goes out first, the message itself was applied already.
      expect(await count(kept, messages[1]!)).toBe('duplicate');
      await eventually('the stored outbox published', () => published(session.sessionId).length === 1);
      expect((await stored(session.sessionId))?.state.count).toBe(2);
    });

    it('when emptying the outbox fails: the next change is a TransientError, and the session is loaded again with its outbox, published once', async () => {
      let failing = false;
      const { kept, events } = keeper({ failEmptying: () => failing });
      const session = newSession();
      await count(kept, cause(session.sessionId));
      failing = true;
      // Stored with its outbox and published: the change is done, only the emptying write fails.
      expect(await count(kept, cause(session.sessionId))).toBe('applied');
      await eventually('the pattern published', () => published(session.sessionId).length === 1);
      failing = false;
      const third = cause(session.sessionId);
      await expect(count(kept, third)).rejects.toBeInstanceOf(TransientError);
      expect(events.forgotten).toContain(session.sessionId);
      expect((await stored(session.sessionId))?.outbox).toHaveLength(1);
      // The redelivery loads the record, sends its outbox again (JetStream keeps one) and applies the message.
      expect(await count(kept, third)).toBe('applied');
      expect((await stored(session.sessionId))?.state.count).toBe(3);
      await eventually('the stored outbox published', async () => (await streamCount(session.sessionId)) === 1);
    });

    it('applies the declaration a message overtook before it, looked up once, and nothing stored after the message', async () => {
      const { kept } = keeper();
      const session = newSession();
      const started = await publishLifecycle(session.sessionId, 'session.started', EXAMPLE_PAYLOADS['session.started']);
      const action = cause(session.sessionId);
      const at = Date.now();
      // A phase change the agent made after the action: not the action's to see.
      await eventually('a later moment', () => Date.now() > at + 2);
      await publishLifecycle(session.sessionId, 'session.phase_changed', { phase: 'testing' });
      const missed = await kept.run(session, at, async (held) => {
        const found = await kept.missedLifecycle(held, action, at);
        await kept.commit(held, action, []);
        return found;
      });
      expect(missed.map((m) => m.message.id)).toEqual([started]);
      // Declared now: stored as such, never looked up again, and the declaration itself is recognised.
      expect((await stored(session.sessionId))?.declared).toBe(true);
      const later = cause(session.sessionId);
      expect(await keeper().kept.run(session, Date.now(), (held) => kept.missedLifecycle(held, later, Date.now()))).toEqual([]);
      expect((await stored(session.sessionId))?.applied).toEqual(expect.arrayContaining([started, action.id]));
    });

    it('asks a model that remembers the messages it applied, and stores no second list of their ids', async () => {
      /** A session that remembers what it applied in its own snapshot, as the breaker's ledger does. */
      interface Ledger extends Tally {
        seen: string[];
      }
      const ledgerModel: SessionModel<Ledger, Ledger> = {
        open: (address) => ({ agent: address.agentId, session: address.sessionId, count: 0, seen: [] }),
        restore: (stored) => ({ ...stored, seen: [...stored.seen] }),
        snapshot: (ledger) => ({ ...ledger, seen: [...ledger.seen] }),
        applied: (ledger, messageId) => ledger.seen.includes(messageId),
      };
      const records = new RecordStore<KeptSession<Ledger>>(bus.nc, PATTERN_SESSION_BUCKET);
      const ledgerKeeper = () =>
        new SessionKeeper<Ledger, Ledger>({ store: records, publish: (m) => publisher.publishMessage(m), model: ledgerModel, partitions: PARTITIONS, lifecycle: new SessionLifecycle(bus.jsm, PARTITIONS) });
      const apply = (kept: SessionKeeper<Ledger, Ledger>, message: AnyMessage) =>
        kept.run({ agentId: message.agent_id, sessionId: message.session_id }, Date.now(), async (held) => {
          if (kept.hasApplied(held, message.id)) return 'duplicate';
          for (const missed of await kept.missedLifecycle(held, message, Date.now())) held.session.seen.push(missed.message.id);
          held.session.count++;
          held.session.seen.push(message.id);
          await kept.commit(held, message, []);
          return 'applied';
        });
      const session = newSession();
      const started = await publishLifecycle(session.sessionId, 'session.started', EXAMPLE_PAYLOADS['session.started']);
      const messages = [cause(session.sessionId), cause(session.sessionId)];
      const kept = ledgerKeeper();
      expect(await apply(kept, messages[0]!)).toBe('applied');
      expect(await apply(kept, messages[1]!)).toBe('applied');
      expect(await apply(kept, messages[1]!)).toBe('duplicate');
      // The ids once, in the model's snapshot; the declaration it overtook applied through the model too.
      expect(await records.get(`session.agent-1.${session.sessionId}`)).toMatchObject({
        value: { state: { count: 2, seen: [started, messages[0]!.id, messages[1]!.id] }, outbox: [], applied: [], declared: true },
      });
      // Another replica recognises a redelivery from the model's snapshot.
      expect(await apply(ledgerKeeper(), messages[0]!)).toBe('duplicate');
      // A record of the version that kept both lists: the model's are the ones asked.
      const older = newSession();
      const old = cause(older.sessionId);
      await records.write(`session.agent-1.${older.sessionId}`, { state: { agent: 'agent-1', session: older.sessionId, count: 1, seen: [old.id] }, outbox: [], applied: [old.id], declared: true }, undefined);
      expect(await apply(ledgerKeeper(), old)).toBe('duplicate');
      expect(await apply(ledgerKeeper(), cause(older.sessionId))).toBe('applied');
      expect((await records.get(`session.agent-1.${older.sessionId}`))?.value.applied).toEqual([]);
    });

    it('looks up the declaration of a session that never declares once, and a declaration itself never', async () => {
      const { kept } = keeper();
      const session = newSession();
      const first = cause(session.sessionId);
      expect(await kept.run(session, Date.now(), (held) => kept.missedLifecycle(held, first, Date.now()))).toEqual([]);
      await publishLifecycle(session.sessionId, 'session.started', EXAMPLE_PAYLOADS['session.started']);
      // Looked up once already: the declaration arrives by its own stream.
      expect(await kept.run(session, Date.now(), (held) => kept.missedLifecycle(held, cause(session.sessionId), Date.now()))).toEqual([]);
      const other = newSession();
      const declaration = createMessage('session.started', { agent_id: 'agent-1', session_id: other.sessionId, payload: EXAMPLE_PAYLOADS['session.started'] }) as AnyMessage;
      expect(await kept.run(other, Date.now(), (held) => kept.missedLifecycle(held, declaration, Date.now()))).toEqual([]);
    });

    it('forgets a stale copy on a conflict, and the retry applies the message to the fresh record', async () => {
      const first = keeper();
      const second = keeper();
      const session = newSession();
      await count(first.kept, cause(session.sessionId));
      await count(second.kept, cause(session.sessionId));
      // `first` holds count 1, the record says 2.
      const late = cause(session.sessionId);
      await expect(count(first.kept, late)).rejects.toBeInstanceOf(RecordConflictError);
      expect(first.events.conflicts).toBe(1);
      expect(await count(first.kept, late)).toBe('applied');
      expect((await stored(session.sessionId))?.state.count).toBe(3);
    });

    it('holds at most its capacity, dropping the least recently used', async () => {
      const { kept, events } = keeper({ capacity: 2 });
      const sessions = [newSession(), newSession(), newSession()];
      for (const s of sessions) await count(kept, cause(s.sessionId));
      expect(kept.size).toBe(2);
      expect(events.forgotten).toEqual([sessions[0]!.sessionId]);
      // Dropped, not lost: it is loaded again.
      await count(kept, cause(sessions[0]!.sessionId));
      expect((await stored(sessions[0]!.sessionId))?.state.count).toBe(2);
    });

    it("forgets a released partition's sessions and lists the stored sessions of acquired ones", async () => {
      const { kept } = keeper();
      const sessions = Array.from({ length: 8 }, () => newSession());
      for (const s of sessions) await count(kept, cause(s.sessionId));
      const partition = partitionOf(sessions[0]!.sessionId, PARTITIONS);
      const inPartition = sessions.filter((s) => partitionOf(s.sessionId, PARTITIONS) === partition).map((s) => s.sessionId);
      kept.release(partition);
      expect(kept.heldSessions().map((h) => h.address.sessionId).sort()).toEqual(sessions.map((s) => s.sessionId).filter((id) => !inPartition.includes(id)).sort());
      const listed = (await kept.storedSessions(new Set([partition]))).map((a) => a.sessionId);
      expect(listed).toEqual(expect.arrayContaining(inPartition));
      expect(listed.every((id) => partitionOf(id, PARTITIONS) === partition)).toBe(true);
    });

    it('takes over the stored sessions of a partition it acquires, each in its lane', async () => {
      const sessions = Array.from({ length: 6 }, () => newSession());
      const writer = keeper().kept;
      for (const s of sessions) await count(writer, cause(s.sessionId));
      const taken: string[] = [];
      const successor = new SessionKeeper<Tally, Tally>({
        store: new RecordStore<KeptSession<Tally>>(bus.nc, PATTERN_SESSION_BUCKET),
        publish: (m) => publisher.publishMessage(m),
        model,
        partitions: PARTITIONS,
        takeOver: async (held) => void taken.push(held.address.sessionId),
      });
      const partition = partitionOf(sessions[0]!.sessionId, PARTITIONS);
      const listeners = new Map<string, (p: number) => void>();
      successor.follow({ on: (event, listener) => listeners.set(event, listener), ownedPartitions: () => [partition] });
      const expected = sessions.filter((s) => partitionOf(s.sessionId, PARTITIONS) === partition).map((s) => s.sessionId);
      await eventually('the sessions taken over', () => expected.every((id) => taken.includes(id)));
      expect(successor.owns(sessions[0]!)).toBe(true);
      listeners.get('partition.released')!(partition);
      expect(successor.owns(sessions[0]!)).toBe(false);
      successor.stop();
    });
  });

  describe('SessionKeeper storing a session\'s changes together', () => {
    /** A session that lists the messages applied to it, in order. */
    interface Trail {
      ids: string[];
    }
    const trailModel: SessionModel<Trail, Trail> = {
      open: () => ({ ids: [] }),
      restore: (stored) => ({ ids: [...stored.ids] }),
      snapshot: (trail) => ({ ids: [...trail.ids] }),
    };

    /** A keeper with batching; every write fails while `failWrites` says so, and every read while `failReads` does. */
    function batchingKeeper(batching: { messages: number; delayMs: number }, failWrites: () => boolean = () => false, failReads: () => boolean = () => false) {
      const records = new RecordStore<KeptSession<Trail>>(bus.nc, PATTERN_SESSION_BUCKET);
      let writes = 0;
      let failedReads = 0;
      const kept = new SessionKeeper<Trail, Trail>({
        store: {
          get: (key) => {
            if (!failReads()) return records.get(key);
            failedReads++;
            return Promise.reject(new TransientError('503 no responders available'));
          },
          keys: (filter) => records.keys(filter),
          write: (key, value, revision) => {
            if (failWrites()) return Promise.reject(new TransientError('503 no responders available'));
            writes++;
            return records.write(key, value, revision);
          },
        },
        publish: (m) => publisher.publishMessage(m),
        model: trailModel,
        partitions: PARTITIONS,
        batching,
      });
      return { kept, writes: () => writes, failedReads: () => failedReads };
    }

    const acked: string[] = [];
    const receipt = (message: AnyMessage) => () => ({ ack: () => void acked.push(message.id), working: () => undefined });
    /** Applies `message`: listed in the trail; `publishes` makes it lead to a report. */
    const apply = (kept: SessionKeeper<Trail, Trail>, message: AnyMessage, publishes = false) =>
      kept.apply({ agentId: message.agent_id, sessionId: message.session_id }, Date.now(), message, {
        ended: () => false,
        change: (held) => {
          held.session.ids.push(message.id);
          return publishes ? [report(message.session_id, held.session.ids.length)] : [];
        },
      }, receipt(message));
    const trail = async (sessionId: string) => (await new RecordStore<KeptSession<Trail>>(bus.nc, PATTERN_SESSION_BUCKET).get(`session.agent-1.${sessionId}`))?.value;
    const ids = (messages: AnyMessage[]) => messages.map((m) => m.id);

    it('acknowledges quiet messages only once a write stores them: the one that fills the batch', async () => {
      const { kept, writes } = batchingKeeper({ messages: 4, delayMs: 3_600_000 });
      const session = newSession();
      const messages = Array.from({ length: 4 }, () => cause(session.sessionId));
      for (const m of messages.slice(0, 3)) await apply(kept, m);
      expect(writes()).toBe(0);
      expect(await trail(session.sessionId)).toBeUndefined();
      expect(acked.filter((id) => ids(messages).includes(id))).toEqual([]);
      // The fourth fills the batch: stored with the three before it, which are acknowledged; the
      // transport acknowledges the fourth itself (its receipt was never taken).
      await apply(kept, messages[3]!);
      expect(writes()).toBe(1);
      expect((await trail(session.sessionId))?.state.ids).toEqual(ids(messages));
      expect(acked.filter((id) => ids(messages).includes(id))).toEqual(ids(messages.slice(0, 3)));
      await kept.stop();
    });

    it('stores what waits with the first message that has something to publish, and with the timer otherwise', async () => {
      const { kept } = batchingKeeper({ messages: 32, delayMs: 50 });
      const session = newSession();
      const quiet = [cause(session.sessionId), cause(session.sessionId)];
      const loud = cause(session.sessionId);
      for (const m of quiet) await apply(kept, m);
      await apply(kept, loud, true);
      expect((await trail(session.sessionId))?.state.ids).toEqual(ids([...quiet, loud]));
      expect(acked).toEqual(expect.arrayContaining(ids(quiet)));
      await eventually('the report published', () => published(session.sessionId).length === 1);
      const later = cause(session.sessionId);
      await apply(kept, later);
      await eventually('stored by the timer', () => acked.includes(later.id));
      expect((await trail(session.sessionId))?.state.ids).toEqual(ids([...quiet, loud, later]));
      await kept.stop();
    });

    it('stores a declaration applied with a later write as declared: it is never looked up again', async () => {
      const { kept } = batchingKeeper({ messages: 32, delayMs: 3_600_000 });
      const session = newSession();
      const started = createMessage('session.started', { agent_id: 'agent-1', session_id: session.sessionId, payload: EXAMPLE_PAYLOADS['session.started'] }) as AnyMessage;
      await apply(kept, started);
      expect(await trail(session.sessionId)).toBeUndefined();
      await kept.stop();
      expect(await trail(session.sessionId)).toMatchObject({ state: { ids: [started.id] }, declared: true });
      expect(acked).toContain(started.id);
    });

    it('after a failed write applies again, in order, what it had not stored, and stores it once the bus is back', async () => {
      let failing = false;
      const { kept } = batchingKeeper({ messages: 32, delayMs: 3_600_000 }, () => failing);
      const session = newSession();
      const quiet = [cause(session.sessionId), cause(session.sessionId)];
      for (const m of quiet) await apply(kept, m);
      failing = true;
      const loud = cause(session.sessionId);
      await expect(apply(kept, loud, true)).rejects.toBeInstanceOf(TransientError);
      expect(acked.filter((id) => ids(quiet).includes(id))).toEqual([]);
      failing = false;
      // The failed message is retried in its place: the two before it are applied again first.
      await apply(kept, loud, true);
      expect((await trail(session.sessionId))?.state.ids).toEqual(ids([...quiet, loud]));
      expect(acked.filter((id) => ids(quiet).includes(id))).toEqual(ids(quiet));
      await kept.stop();
    });

    it('stores what waits once the bus is back when the timer\'s write failed and so did the load that tried again, with no message after it', async () => {
      let busDown = false;
      const { kept, failedReads } = batchingKeeper({ messages: 32, delayMs: 20 }, () => busDown, () => busDown);
      const session = newSession();
      const quiet = [cause(session.sessionId), cause(session.sessionId)];
      for (const m of quiet) await apply(kept, m);
      // The timer's write fails and drops the session; the retry finds the bus still down when it loads it.
      busDown = true;
      await eventually('a retry that could not load the session', () => failedReads() >= 1);
      expect(acked.filter((id) => ids(quiet).includes(id))).toEqual([]);
      busDown = false;
      await eventually('what waited acknowledged, with nothing applied after it', () => ids(quiet).every((id) => acked.includes(id)), { timeoutMs: 15_000 });
      expect((await trail(session.sessionId))?.state.ids).toEqual(ids(quiet));
      await kept.stop();
    });

    it('holds a redelivery of what is not stored yet to the same write, stores what waits when it stops, and leaves a released partition to its next owner', async () => {
      const { kept } = batchingKeeper({ messages: 32, delayMs: 3_600_000 });
      const session = newSession();
      const first = cause(session.sessionId);
      await apply(kept, first);
      const before = acked.length;
      await apply(kept, first);
      expect(acked.length).toBe(before);
      expect((await trail(session.sessionId))).toBeUndefined();
      const released = newSession();
      const gone = cause(released.sessionId);
      await apply(kept, gone);
      kept.release(partitionOf(released.sessionId, PARTITIONS));
      await kept.stop();
      // Stored at the stop: both deliveries of the first acknowledged; the released one left unacknowledged, not stored.
      expect(acked.filter((id) => id === first.id)).toHaveLength(2);
      expect((await trail(session.sessionId))?.state.ids).toEqual([first.id]);
      expect(acked).not.toContain(gone.id);
      expect(await trail(released.sessionId)).toBeUndefined();
    });
  });

  describe('BucketMirror', () => {
    it('follows every key of a bucket, deletions too, and waits for a bucket that is not there yet', async () => {
      const bucket = `warden_kit_mirror_${process.pid}`;
      const seen = new Map<string, number | null>();
      const mirror = new BucketMirror<{ n: number }>(bus.nc, bucket, { entry: (key, value) => seen.set(key, value?.n ?? null) }, { parse: (bytes) => JSON.parse(new TextDecoder().decode(bytes)) as { n: number }, retryMs: 100 });
      await mirror.start();
      expect(mirror.watching).toBe(false);
      const kv = await new Kvm(bus.nc).create(bucket, { history: 1 });
      await kv.put('a', JSON.stringify({ n: 1 }));
      await eventually('the mirror watching', () => mirror.watching);
      await kv.put('b', JSON.stringify({ n: 2 }));
      await kv.delete('a');
      await eventually('both changes mirrored', () => seen.get('a') === null && seen.get('b') === 2);
      mirror.stop();
      await kv.destroy();
    });
  });
});
