import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
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
import { onTheBus, readSubject, RecordConflictError, RecordStore, type BusConnection } from '@warden/messaging';
import type { BufferEntry, GateRequestRecord, SessionFacts, SessionRelayState, StoredEntry } from '@warden/gate';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The gate's buckets and buffer stream, on the messaging library's record store: a record not stored
 * is `undefined`, a compare-and-set conflict is a RecordConflictError, and every failure of the bus
 * (a bucket's leader election, the server away) a TransientError, retried for as long as it takes.
 */
export class GateStores {
  private constructor(
    readonly states: RelayStateStore,
    readonly buffer: BufferStore,
    readonly facts: SessionFactsStore,
    readonly requests: RequestStore,
    readonly decisions: DecisionRecordStore,
  ) {}

  static async open(bus: BusConnection): Promise<GateStores> {
    const sessions = new RecordStore<unknown>(bus.nc, GATE_SESSION_BUCKET);
    const contexts = new RecordStore<SessionFacts>(bus.nc, GATE_CONTEXT_BUCKET);
    const requests = new RecordStore<GateRequestRecord>(bus.nc, GATE_REQUEST_BUCKET);
    const decisions = new RecordStore<DecisionRecord>(bus.nc, DECISION_RECORD_BUCKET);
    // Fail at start, with the fix, rather than on the first pause.
    try {
      await Promise.all([sessions.open(), contexts.open(), requests.open(), decisions.open(), bus.jsm.streams.info(GATE_BUFFER_STREAM)]);
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
  state: SessionRelayState | undefined;
  /** KV revision to update with compare-and-set; undefined when there is no record (create). */
  revision: number | undefined;
}

/** Relay state per paused session, written with compare-and-set by the partition's owner only. */
export class RelayStateStore {
  constructor(private readonly records: RecordStore<unknown>) {}

  async load(agentId: string, sessionId: string): Promise<LoadedState> {
    const stored = await this.records.get(stateKey(agentId, sessionId));
    return { state: stored?.value as SessionRelayState | undefined, revision: stored?.revision };
  }

  /** Creates (no revision) or updates the record; a RecordConflictError when someone else changed it meanwhile. */
  save(state: SessionRelayState, revision: number | undefined): Promise<number> {
    return this.records.write(stateKey(state.agent_id, state.session_id), state, revision);
  }

  remove(agentId: string, sessionId: string, revision: number | undefined): Promise<void> {
    return this.records.delete(stateKey(agentId, sessionId), revision);
  }

  /** Messages of the flush already published (0 when none, or when the cursor belongs to another window). */
  async cursor(agentId: string, sessionId: string, windowId: string): Promise<number> {
    const cursor = (await this.records.get(cursorKey(agentId, sessionId)))?.value as { window_id: string; published: number } | undefined;
    return cursor?.window_id === windowId ? cursor.published : 0;
  }

  async putCursor(agentId: string, sessionId: string, windowId: string, published: number): Promise<void> {
    await this.records.put(cursorKey(agentId, sessionId), { window_id: windowId, published });
  }

  removeCursor(agentId: string, sessionId: string): Promise<void> {
    return this.records.delete(cursorKey(agentId, sessionId));
  }

  /** Every stored (paused or flushing) session. */
  async list(): Promise<{ agentId: string; sessionId: string }[]> {
    const sessions: { agentId: string; sessionId: string }[] = [];
    for (const key of await this.records.keys('state.>')) {
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
    const ack = await onTheBus('appending to the gate buffer', () =>
      this.js.publish(gateBufferSubject(agentId, sessionId), encoder.encode(JSON.stringify(entry)), {
        msgID: derivedMessageId('gate.buffer', `${entry.kind}:${entry.source_id}`),
      }),
    );
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  /** Every entry of a session's buffer, in arrival order. */
  read(agentId: string, sessionId: string): Promise<StoredEntry[]> {
    return onTheBus('reading the gate buffer', () => this.readAll(agentId, sessionId));
  }

  private async readAll(agentId: string, sessionId: string): Promise<StoredEntry[]> {
    const stored = await readSubject(this.js, this.jsm, GATE_BUFFER_STREAM, gateBufferSubject(agentId, sessionId));
    return stored.map(({ seq, data }) => ({ seq, entry: JSON.parse(decoder.decode(data)) as BufferEntry }));
  }

  async get(seq: number): Promise<BufferEntry> {
    const message = await onTheBus('reading the gate buffer', () => this.jsm.streams.getMessage(GATE_BUFFER_STREAM, { seq }));
    if (!message) throw new Error(`buffer entry ${seq} is gone`);
    return JSON.parse(decoder.decode(message.data)) as BufferEntry;
  }

  async purge(agentId: string, sessionId: string): Promise<void> {
    await onTheBus('purging the gate buffer', () => this.jsm.streams.purge(GATE_BUFFER_STREAM, { filter: gateBufferSubject(agentId, sessionId) }));
  }

  /** Buffered entries per `<agent>.<session>`. */
  async counts(): Promise<Map<string, number>> {
    const info = await onTheBus('counting the gate buffers', () => this.jsm.streams.info(GATE_BUFFER_STREAM, { subjects_filter: '>' }));
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
  constructor(private readonly records: RecordStore<SessionFacts>) {}

  async get(agentId: string, sessionId: string): Promise<SessionFacts | undefined> {
    return (await this.records.get(`${agentId}.${sessionId}`))?.value;
  }

  async put(agentId: string, sessionId: string, facts: SessionFacts): Promise<void> {
    await this.records.put(`${agentId}.${sessionId}`, facts);
  }

  remove(agentId: string, sessionId: string): Promise<void> {
    return this.records.delete(`${agentId}.${sessionId}`);
  }
}

/** Gate requests by id: written by the owner of the session, read by any replica's HTTP API. */
export class RequestStore {
  constructor(private readonly records: RecordStore<GateRequestRecord>) {}

  async get(requestId: string): Promise<GateRequestRecord | undefined> {
    return (await this.records.get(requestId))?.value;
  }

  async put(record: GateRequestRecord): Promise<void> {
    await this.records.put(record.request_id, record);
  }

  async list(): Promise<GateRequestRecord[]> {
    const records: GateRequestRecord[] = [];
    for (const key of await this.records.keys()) {
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
  constructor(private readonly records: RecordStore<DecisionRecord>) {}

  /** Stores the record unless the action id has one: then that one is returned, and nothing changes. */
  async claim(record: DecisionRecord): Promise<DecisionRecord | undefined> {
    const { agent_id: agentId, session_id: sessionId, payload } = record.decision;
    try {
      await this.records.write(decisionRecordKey(agentId, sessionId, payload.action_id), record, undefined);
      return undefined;
    } catch (error) {
      if (!(error instanceof RecordConflictError)) throw error;
      const existing = await this.get(agentId, sessionId, payload.action_id);
      if (!existing) throw error;
      return existing;
    }
  }

  async get(agentId: string, sessionId: string, actionId: string): Promise<DecisionRecord | undefined> {
    return (await this.records.get(decisionRecordKey(agentId, sessionId, actionId)))?.value;
  }
}
