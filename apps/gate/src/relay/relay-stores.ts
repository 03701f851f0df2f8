import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import {
  decisionRecordKey,
  derivedMessageId,
  DECISION_RECORD_BUCKET,
  GATE_BUFFER_STREAM,
  type DecisionRecord,
  GATE_CONTEXT_BUCKET,
  GATE_REQUEST_BUCKET,
  GATE_SESSION_BUCKET,
  gateBufferSubject,
} from '@warden/contracts';
import type { BusConnection } from '@warden/messaging';
import type { BufferEntry, StoredEntry } from '../domain/buffer-entry.js';
import type { GateRequestRecord } from '../domain/gate-request.js';
import type { SessionFacts } from '../domain/human-gates.js';
import type { SessionRelayState } from '../domain/relay-state.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The gate's buckets and buffer stream, opened once per process. */
export class GateStores {
  private constructor(
    readonly states: RelayStateStore,
    readonly buffer: BufferStore,
    readonly facts: SessionFactsStore,
    readonly requests: RequestStore,
    readonly decisions: DecisionRecordStore,
  ) {}

  static async open(bus: BusConnection): Promise<GateStores> {
    const kvm = new Kvm(bus.nc);
    const [sessions, contexts, requests, decisions] = await Promise.all([
      kvm.open(GATE_SESSION_BUCKET),
      kvm.open(GATE_CONTEXT_BUCKET),
      kvm.open(GATE_REQUEST_BUCKET),
      kvm.open(DECISION_RECORD_BUCKET),
    ]);
    // Opening a bucket does not check it exists; fail at start, with the fix, rather than on the first pause.
    try {
      await Promise.all([sessions.status(), contexts.status(), requests.status(), decisions.status(), bus.jsm.streams.info(GATE_BUFFER_STREAM)]);
    } catch (error) {
      throw new Error(
        `the gate's buffer stream ${GATE_BUFFER_STREAM} or buckets ${GATE_SESSION_BUCKET}, ${GATE_CONTEXT_BUCKET}, ${GATE_REQUEST_BUCKET}, ${DECISION_RECORD_BUCKET} are missing: run \`warden provision\` first (${(error as Error).message})`,
        { cause: error },
      );
    }
    return new GateStores(
      new RelayStateStore(sessions),
      new BufferStore(bus.js, bus.jsm),
      new SessionFactsStore(contexts),
      new RequestStore(requests),
      new DecisionRecordStore(decisions),
    );
  }
}

export interface LoadedState {
  state: SessionRelayState | null;
  /** KV revision to update with compare-and-set; null when there is no record (create). */
  revision: number | null;
}

/** Relay state per paused session, written with compare-and-set by the partition's owner only. */
export class RelayStateStore {
  constructor(private readonly kv: KV) {}

  async load(agentId: string, sessionId: string): Promise<LoadedState> {
    const entry = await this.kv.get(stateKey(agentId, sessionId));
    if (!entry || entry.operation !== 'PUT') return { state: null, revision: null };
    return { state: entry.json<SessionRelayState>(), revision: entry.revision };
  }

  /** Creates (revision null) or updates the record; fails when someone else changed it meanwhile. */
  async save(state: SessionRelayState, revision: number | null): Promise<number> {
    const key = stateKey(state.agent_id, state.session_id);
    const data = encoder.encode(JSON.stringify(state));
    return revision === null ? this.kv.create(key, data) : this.kv.update(key, data, revision);
  }

  async remove(agentId: string, sessionId: string, revision: number | null): Promise<void> {
    await this.kv.delete(stateKey(agentId, sessionId), revision === null ? {} : { previousSeq: revision });
  }

  /** Messages of the flush already published (0 when none, or when the cursor belongs to another window). */
  async cursor(agentId: string, sessionId: string, windowId: string): Promise<number> {
    const entry = await this.kv.get(cursorKey(agentId, sessionId));
    if (!entry || entry.operation !== 'PUT') return 0;
    const cursor = entry.json<{ window_id: string; published: number }>();
    return cursor.window_id === windowId ? cursor.published : 0;
  }

  async putCursor(agentId: string, sessionId: string, windowId: string, published: number): Promise<void> {
    await this.kv.put(cursorKey(agentId, sessionId), encoder.encode(JSON.stringify({ window_id: windowId, published })));
  }

  async removeCursor(agentId: string, sessionId: string): Promise<void> {
    await this.kv.delete(cursorKey(agentId, sessionId));
  }

  /** Every stored (paused or flushing) session. */
  async list(): Promise<{ agentId: string; sessionId: string }[]> {
    const sessions: { agentId: string; sessionId: string }[] = [];
    for await (const key of await this.kv.keys('state.>')) {
      const [, agentId, sessionId] = key.split('.');
      if (agentId && sessionId) sessions.push({ agentId, sessionId });
    }
    return sessions;
  }
}

function stateKey(agentId: string, sessionId: string): string {
  return `state.${agentId}.${sessionId}`;
}

function cursorKey(agentId: string, sessionId: string): string {
  return `cursor.${agentId}.${sessionId}`;
}

/** The buffer of paused sessions: one subject per agent and session in a stream kept until flushed. */
export class BufferStore {
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
  ) {}

  /** Appends an entry; the id derived from its source makes a second append of the same source a duplicate. */
  async append(agentId: string, sessionId: string, entry: BufferEntry): Promise<{ seq: number; duplicate: boolean }> {
    const ack = await this.js.publish(gateBufferSubject(agentId, sessionId), encoder.encode(JSON.stringify(entry)), {
      msgID: derivedMessageId('gate.buffer', `${entry.kind}:${entry.source_id}`),
    });
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  /** Every entry of a session's buffer, in arrival order. */
  async read(agentId: string, sessionId: string): Promise<StoredEntry[]> {
    const subject = gateBufferSubject(agentId, sessionId);
    const lastMessage = await this.jsm.streams.getMessage(GATE_BUFFER_STREAM, { last_by_subj: subject });
    if (!lastMessage) return [];
    const last = lastMessage.seq;
    const entries: StoredEntry[] = [];
    const consumer = await this.js.consumers.get(GATE_BUFFER_STREAM, { filter_subjects: subject });
    const messages = await consumer.consume({ max_messages: 1000 });
    for await (const message of messages) {
      entries.push({ seq: message.seq, entry: JSON.parse(decoder.decode(message.data)) as BufferEntry });
      if (message.seq >= last) break;
    }
    await consumer.delete().catch(() => undefined);
    return entries;
  }

  async get(seq: number): Promise<BufferEntry> {
    const message = await this.jsm.streams.getMessage(GATE_BUFFER_STREAM, { seq });
    if (!message) throw new Error(`buffer entry ${seq} is gone`);
    return JSON.parse(decoder.decode(message.data)) as BufferEntry;
  }

  async purge(agentId: string, sessionId: string): Promise<void> {
    await this.jsm.streams.purge(GATE_BUFFER_STREAM, { filter: gateBufferSubject(agentId, sessionId) });
  }

  /** Buffered entries per `<agent>.<session>`. */
  async counts(): Promise<Map<string, number>> {
    const info = await this.jsm.streams.info(GATE_BUFFER_STREAM, { subjects_filter: '>' });
    const counts = new Map<string, number>();
    for (const [subject, count] of Object.entries(info.state.subjects ?? {})) {
      const [, , agentId, sessionId] = subject.split('.');
      counts.set(`${agentId}.${sessionId}`, count);
    }
    return counts;
  }
}

/** Phase, environment and standing approvals of each session. */
export class SessionFactsStore {
  constructor(private readonly kv: KV) {}

  async get(agentId: string, sessionId: string): Promise<SessionFacts | undefined> {
    const entry = await this.kv.get(`${agentId}.${sessionId}`);
    return entry && entry.operation === 'PUT' ? entry.json<SessionFacts>() : undefined;
  }

  async put(agentId: string, sessionId: string, facts: SessionFacts): Promise<void> {
    await this.kv.put(`${agentId}.${sessionId}`, encoder.encode(JSON.stringify(facts)));
  }

  async remove(agentId: string, sessionId: string): Promise<void> {
    await this.kv.delete(`${agentId}.${sessionId}`);
  }
}

/** Gate requests by id: written by the owner of the session, read by any replica's HTTP API. */
export class RequestStore {
  constructor(private readonly kv: KV) {}

  async get(requestId: string): Promise<GateRequestRecord | null> {
    const entry = await this.kv.get(requestId);
    return entry && entry.operation === 'PUT' ? entry.json<GateRequestRecord>() : null;
  }

  async put(record: GateRequestRecord): Promise<void> {
    await this.kv.put(record.request_id, encoder.encode(JSON.stringify(record)));
  }

  async list(): Promise<GateRequestRecord[]> {
    const records: GateRequestRecord[] = [];
    for await (const key of await this.kv.keys()) {
      const record = await this.get(key);
      if (record) records.push(record);
    }
    return records;
  }
}

/**
 * One record per decided action id (the decision and the digest of the action), stored before the
 * decision is sent: agents answer a repeated action id from it, and the gate never decides an id twice.
 */
export class DecisionRecordStore {
  constructor(private readonly kv: KV) {}

  /** Stores the record unless the action id has one: then that one is returned, and nothing changes. */
  async claim(record: DecisionRecord): Promise<DecisionRecord | null> {
    const { agent_id: agentId, session_id: sessionId, payload } = record.decision;
    const key = decisionRecordKey(agentId, sessionId, payload.action_id);
    try {
      await this.kv.create(key, encoder.encode(JSON.stringify(record)));
      return null;
    } catch (error) {
      const existing = await this.get(agentId, sessionId, payload.action_id);
      if (!existing) throw error;
      return existing;
    }
  }

  async get(agentId: string, sessionId: string, actionId: string): Promise<DecisionRecord | null> {
    const entry = await this.kv.get(decisionRecordKey(agentId, sessionId, actionId));
    return entry && entry.operation === 'PUT' ? entry.json<DecisionRecord>() : null;
  }
}
