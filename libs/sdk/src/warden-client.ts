import { jetstream, type JetStreamClient, type PubAck } from '@nats-io/jetstream';
import { connect, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  actionDigest,
  createMessage,
  decisionRecordSubject,
  deadLetterSubscription,
  derivedMessageId,
  parseMessage,
  publishSubject,
  reusedActionIdDetail,
  SEAL_PUBLIC_KEY_SUBJECT,
  sessionSubscription,
  validateMessage,
  definitionOf,
  type AnyMessage,
  type DecisionRecord,
  type MessageOf,
  type PayloadOf,
  type SessionChannelId,
} from '@warden/contracts';
import { redactValue, sealSecrets } from '@warden/secrets';
import { createMessageTracer, type MessageTracer } from '@warden/tracing';
import { AgentSession } from './agent-session.js';
import { CheckpointStore } from './checkpoint-store.js';
import type { ActionDecision, TimeoutPolicy } from './decision.js';
import { InvalidMessageError } from './errors.js';
import { readStoredControls, type StoredControls } from './stored-controls.js';

export interface WardenClientOptions {
  /** NATS server URL(s), comma-separated. */
  servers: string;
  /** This agent's id; also its NATS user name unless `user` is given. */
  agentId: string;
  user?: string;
  password?: string;
  /** How long `propose` waits for a decision. Default 15 s. */
  decisionTimeoutMs?: number;
  /** What `propose` answers when no decision arrives in time or Warden cannot be reached. Default deny. */
  onTimeout?: TimeoutPolicy;
  /**
   * Check every outgoing message against its contract before sending it (default true). Turning it off
   * lets Warden's services do the rejecting, e.g. to test them.
   */
  validate?: boolean;
  name?: string;
  /** Relative checkpoint paths are resolved against this directory. Default: the working directory. */
  checkpointRoot?: string;
  /**
   * Apply rollbacks and emergency stops as they arrive (default true); false leaves them to the
   * agent's `onControl` listeners and its own `acknowledge`.
   */
  applyControl?: boolean;
  /**
   * Spans of what this agent proposes and publishes. Default: from the standard OpenTelemetry
   * environment (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME [warden-agent], ...), and none without it.
   */
  tracer?: MessageTracer;
  /**
   * Record each answer the client gives without Warden's decision (`action.fallback`, as `sdk`), sent
   * once Warden can be reached (default true). A hook that answers by its own deadline turns it off and
   * records its own answers.
   */
  recordFallbacks?: boolean;
}

/** An answer given without Warden's decision, as it is recorded. */
export type FallbackRecord = PayloadOf<'action.fallback'> & { sessionId: string };

interface Pending {
  settle(decision: Omit<ActionDecision, 'latencyMs'>): void;
  actionId: string;
  sessionId: string;
  messageId: string;
  digest: string;
  promise: Promise<ActionDecision>;
  /** What JetStream said of the proposal: stored (`new`), or dropped as a repeat of a stored one (`duplicate`). */
  stored: 'waiting' | 'new' | 'duplicate';
  /** A decision that arrived before JetStream's answer. */
  early?: MessageOf<'decision.made'>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const key = (sessionId: string, actionId: string) => `${sessionId}\u0000${actionId}`;
/** Decisions this client remembers, so that its own repeats need no lookup. */
const DECIDED_KEPT = 10_000;
/** How long a client that found no seal key (an older deployment) seals nothing before it looks again. */
const SEAL_KEY_RETRY_MS = 60_000;

/**
 * An agent's connection to Warden. One client per agent process; `session(id)` gives the object to
 * work with for each session. Decisions, control messages and rejections for this agent arrive on one
 * subscription each, and are routed to the session and action they belong to.
 */
export class WardenClient {
  private readonly pending = new Map<string, Pending>();
  private readonly decided = new Map<string, { digest: string; decision: Omit<ActionDecision, 'latencyMs'> }>();
  private readonly sessions = new Map<string, AgentSession>();
  private readonly subscriptions: Subscription[] = [];
  private readonly stores = new Map<string, CheckpointStore>();
  readonly decisionTimeoutMs: number;
  readonly onTimeout: TimeoutPolicy;
  readonly validate: boolean;
  readonly applyControl: boolean;
  readonly checkpointRoot: string;
  private readonly recordFallbacks: boolean;
  /** Fallback records not sent yet (Warden could not be reached): sent on the next reconnect or record. */
  private readonly unsentFallbacks: FallbackRecord[] = [];
  /** The public seal key as last read (null: none readable), and when. */
  private sealKey: { key: string | null; at: number } | undefined;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly agentId: string,
    options: WardenClientOptions,
    private readonly tracer: MessageTracer,
    /** The tracer was made here (from the environment), so closing the client shuts it down. */
    private readonly ownTracer: boolean,
  ) {
    this.decisionTimeoutMs = options.decisionTimeoutMs ?? 15_000;
    this.onTimeout = options.onTimeout ?? 'deny';
    this.validate = options.validate ?? true;
    this.applyControl = options.applyControl ?? true;
    this.checkpointRoot = options.checkpointRoot ?? process.cwd();
    this.recordFallbacks = options.recordFallbacks ?? true;
  }

  /** The checkpoint store of a bucket (this agent's own: `checkpointBucket(agentId)`). */
  checkpoints(bucket: string): CheckpointStore {
    let store = this.stores.get(bucket);
    if (!store) {
      store = new CheckpointStore(this.js, bucket, this.checkpointRoot);
      this.stores.set(bucket, store);
    }
    return store;
  }

  static async connect(options: WardenClientOptions): Promise<WardenClient> {
    const tracer = options.tracer ?? (await createMessageTracer({ service: 'agent', instance: options.agentId }));
    const nc = await connect({
      servers: options.servers.split(',').map((s) => s.trim()),
      user: options.user ?? options.agentId,
      pass: options.password,
      name: options.name ?? `warden-agent-${options.agentId}`,
      // Replies to this agent go to an inbox only it may read.
      inboxPrefix: `_INBOX_${options.agentId}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      // Stack traces for every request cost more than the rest of a proposal's client-side work.
      noAsyncTraces: true,
    });
    try {
      const client = new WardenClient(nc, jetstream(nc), options.agentId, options, tracer, !options.tracer);
      client.listen(sessionSubscription('decision', options.agentId, '*'), (msg) => client.onDecision(msg));
      client.listen(sessionSubscription('control', options.agentId, '*'), (msg) => client.onControl(msg));
      client.listen(deadLetterSubscription(options.agentId, '*'), (msg) => client.onDeadLetter(msg));
      void client.sendFallbacksOnReconnect();
      await nc.flush();
      return client;
    } catch (error) {
      // A connection NATS refused after all (credentials, permissions) is not left reconnecting forever.
      await nc.close().catch(() => undefined);
      throw error;
    }
  }

  /** The session object for a session id (the same object for the same id). */
  session(sessionId: string): AgentSession {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = new AgentSession(this, sessionId);
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  /**
   * Publishes a message durably; resolves when JetStream has stored it. Its secrets are stored redacted
   * (an action's sealed for the reviewer, see `storedForm`).
   */
  async publish(message: AnyMessage, timeoutMs = 5_000): Promise<void> {
    this.check(message);
    const stored = await this.storedForm(message);
    if (stored !== message) this.check(stored);
    const { channel, subject } = placeOf(stored);
    await this.tracer.publish(stored, { channel, subject }, () => this.send(stored, timeoutMs));
  }

  /**
   * What JetStream stores of a message: its payload with every secret as `[REDACTED:<kind>]`, as in
   * whatever Warden stores; a proposed action also carries what the markers stand for, sealed with
   * Warden's public key, which only the reviewer can open (it judges the action as sent). Without a
   * readable key (a deployment provisioned before there was one) the action is redacted all the same.
   */
  private async storedForm<M extends AnyMessage>(message: M): Promise<M> {
    const redacted = redactValue(message.payload).value;
    if (redacted === message.payload) return message;
    if (message.type !== 'action.proposed') return { ...message, payload: redacted };
    const { value, sealed } = sealSecrets(message.payload, await this.publicSealKey());
    return { ...message, payload: { ...value, ...(sealed ? { sealed } : {}) } };
  }

  private async publicSealKey(): Promise<string | null> {
    const known = this.sealKey;
    if (known && (known.key !== null || performance.now() - known.at < SEAL_KEY_RETRY_MS)) return known.key;
    let key: string | null = null;
    try {
      const reply = await this.nc.request(SEAL_PUBLIC_KEY_SUBJECT, undefined, { timeout: 2_000 });
      if (!reply.headers?.hasError && reply.data.length) key = decoder.decode(reply.data);
    } catch {
      // Not readable (permissions of an older configuration, or NATS away): redacted without a seal.
    }
    this.sealKey = { key, at: performance.now() };
    return key;
  }

  private send(message: AnyMessage, timeoutMs: number): Promise<PubAck> {
    return this.js.publish(placeOf(message).subject, encoder.encode(JSON.stringify(message)), {
      msgID: message.id,
      timeout: timeoutMs,
    });
  }

  /**
   * Publishes a proposed action and resolves with its decision. One decision per action id: the same
   * action proposed again (while pending, or after Warden decided it) gets the same decision, at once
   * once decided, and JetStream stores the action once; a different action under an id already used is
   * refused with the reason.
   */
  async propose(proposed: MessageOf<'action.proposed'>, timeoutMs: number): Promise<ActionDecision> {
    this.check(proposed);
    // Warden sees the stored form only (the gate's digest is of the action as stored): the same here.
    const message = await this.storedForm(proposed);
    if (message !== proposed) this.check(message);
    const id = key(message.session_id, message.payload.action_id);
    const digest = actionDigest(message.payload);
    const known = this.decided.get(id);
    if (known) return { ...(known.digest === digest ? known.decision : this.reused(message.payload.action_id, message.session_id)), latencyMs: 0 };
    const existing = this.pending.get(id);
    if (existing) return existing.digest === digest ? existing.promise : { ...this.reused(message.payload.action_id, message.session_id), latencyMs: 0 };
    const started = performance.now();
    // The proposal's span lasts until its decision: its children are Warden's review, gate and decision.
    const endSpan = this.tracer.begin(message, placeOf(message));
    let settle!: Pending['settle'];
    const promise = new Promise<ActionDecision>((resolve) => {
      const timer = setTimeout(() => {
        settle(this.fallback(message.payload.action_id, `no decision within ${timeoutMs} ms`));
      }, timeoutMs);
      settle = (decision) => {
        if (this.pending.get(id) !== pending) return;
        clearTimeout(timer);
        this.pending.delete(id);
        if (decision.decidedBy !== 'fallback') this.remember(id, digest, decision);
        else if (this.recordFallbacks) void this.recordFallback({ ...fallbackOf(message, decision), answered_by: 'sdk' });
        endSpan({
          attributes: { 'warden.decision': decision.allowed ? 'allow' : 'deny', 'warden.decided_by': decision.decidedBy },
          ...(decision.decidedBy === 'fallback' ? { error: decision.reason } : {}),
        });
        resolve({ ...decision, latencyMs: performance.now() - started });
      };
    });
    const pending: Pending = { settle, actionId: message.payload.action_id, sessionId: message.session_id, messageId: message.id, digest, promise, stored: 'waiting' };
    this.pending.set(id, pending);
    this.send(message, Math.min(timeoutMs, 5_000)).then(
      (ack) => {
        pending.stored = ack.duplicate ? 'duplicate' : 'new';
        if (ack.duplicate) void this.answerRepeat(pending);
        else if (pending.early) this.onDecisionMessage(pending.early);
      },
      (error: Error) => settle(this.fallback(message.payload.action_id, `could not reach Warden: ${error.message}`)),
    );
    return promise;
  }

  /**
   * A proposal JetStream dropped as a repeat: answered from the decision Warden stored for the action
   * id, when there is one; otherwise the first proposal is still being decided and its decision comes.
   */
  private async answerRepeat(pending: Pending): Promise<void> {
    let record: DecisionRecord | null;
    try {
      record = await this.storedDecision(pending.sessionId, pending.actionId);
    } catch (error) {
      pending.settle(this.fallback(pending.actionId, `the stored decision of this repeated action id could not be read: ${(error as Error).message}`));
      return;
    }
    if (record) pending.settle(this.fromRecord(pending, record));
    // Decided meanwhile, yet not stored: not the gate's order (it stores first), so the decision stands.
    else if (pending.early) pending.settle(decisionOf(pending.early));
  }

  private fromRecord(pending: Pending, record: DecisionRecord): Omit<ActionDecision, 'latencyMs'> {
    return record.action_digest === pending.digest ? decisionOf(record.decision) : this.reused(pending.actionId, pending.sessionId);
  }

  /** The decision Warden stored for one of this agent's action ids (a direct get of its own record), or null. */
  async storedDecision(sessionId: string, actionId: string, timeoutMs = 2_000): Promise<DecisionRecord | null> {
    const reply = await this.nc.request(decisionRecordSubject(this.agentId, sessionId, actionId), undefined, { timeout: timeoutMs });
    if (reply.headers?.code === 404 || !reply.data.length) return null;
    if (reply.headers?.hasError) throw new Error(`${reply.headers.code} ${reply.headers.description}`);
    return JSON.parse(decoder.decode(reply.data)) as DecisionRecord;
  }

  /** A different action under an id already decided: the gate's words, since which of the two sees it first is timing. */
  /**
   * Records an answer given to this agent without Warden's decision (`action.fallback`): sent now, or,
   * while Warden cannot be reached, kept and sent on the next reconnect (or with the next record). Never
   * throws; resolves true once sent.
   */
  async recordFallback(record: FallbackRecord): Promise<boolean> {
    this.unsentFallbacks.push(record);
    return this.flushFallbacks();
  }

  /** Fallback records kept because Warden could not be reached (for a process that must hand them on before it ends). */
  get unsent(): readonly FallbackRecord[] {
    return this.unsentFallbacks;
  }

  /** Sends the fallback records not sent yet; resolves true when none is left. */
  async flushFallbacks(): Promise<boolean> {
    while (this.unsentFallbacks.length) {
      const { sessionId, ...payload } = this.unsentFallbacks[0]!;
      try {
        await this.publish(
          this.message('action.fallback', sessionId, {
            id: derivedMessageId('action.fallback', `${this.agentId}:${sessionId}:${payload.action_id}:${payload.answered_at}`),
            payload,
          }),
          2_000,
        );
      } catch {
        return false;
      }
      this.unsentFallbacks.shift();
    }
    return true;
  }

  private async sendFallbacksOnReconnect(): Promise<void> {
    for await (const status of this.nc.status()) if (status.type === 'reconnect') await this.flushFallbacks();
  }

  /**
   * The control messages Warden stored for one of this agent's sessions after the stream sequence
   * `afterSequence` (0: all), for a process that was not listening when they were sent (each run of a
   * command hook): with the highest sequence read, the cursor of the next call. Never throws: when they
   * cannot be read, `unavailable` says why.
   */
  storedControls(sessionId: string, afterSequence: number, waitMs: number): Promise<StoredControls> {
    return readStoredControls(this.nc, this.agentId, sessionId, afterSequence, waitMs);
  }

  private reused(actionId: string, sessionId: string): Omit<ActionDecision, 'latencyMs'> {
    return rejection(actionId, 'rejected', reusedActionIdDetail(actionId, sessionId));
  }

  private remember(id: string, digest: string, decision: Omit<ActionDecision, 'latencyMs'>): void {
    if (this.decided.size >= DECIDED_KEPT) this.decided.delete(this.decided.keys().next().value!);
    this.decided.set(id, { digest, decision });
  }

  private check(message: AnyMessage): void {
    if (!this.validate) return;
    const result = validateMessage(message);
    if (!result.ok) throw new InvalidMessageError(message.type, result.detail);
  }

  /** Id of an action message: the same action id always gives the same message id. */
  actionMessageId(sessionId: string, actionId: string): string {
    return derivedMessageId('action.proposed', `${this.agentId}:${sessionId}:${actionId}`);
  }

  async close(): Promise<void> {
    for (const pending of this.pending.values()) pending.settle(this.fallback(pending.actionId, 'the client closed'));
    for (const sub of this.subscriptions) sub.unsubscribe();
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
    if (this.ownTracer) await this.tracer.shutdown();
  }

  private fallback(actionId: string, why: string): Omit<ActionDecision, 'latencyMs'> {
    const allowed = this.onTimeout === 'allow';
    const reason = `${why}; ${allowed ? 'allowed by the fail-open policy' : 'denied: Warden fails closed'}`;
    return { actionId, allowed, verdict: null, reason, reasons: [reason], decidedBy: 'fallback' };
  }

  private listen(subject: string, handle: (msg: Msg) => void): void {
    const sub = this.nc.subscribe(subject, {
      callback: (error, msg) => {
        if (!error) handle(msg);
      },
    });
    this.subscriptions.push(sub);
  }

  private onDecision(msg: Msg): void {
    const parsed = parseMessage(msg.data);
    if (parsed.ok && parsed.message.type === 'decision.made') this.onDecisionMessage(parsed.message);
  }

  private onDecisionMessage(message: MessageOf<'decision.made'>): void {
    const pending = this.pending.get(key(message.session_id, message.payload.action_id));
    if (!pending) return;
    // Until JetStream says whether the proposal was stored or a repeat, a decision may be an earlier proposal's.
    if (pending.stored === 'waiting') pending.early = message;
    else if (pending.stored === 'duplicate') void this.answerRepeat(pending);
    else pending.settle(decisionOf(message));
  }

  private onDeadLetter(msg: Msg): void {
    const parsed = parseMessage(msg.data);
    if (!parsed.ok || parsed.message.type !== 'deadletter.recorded') return;
    const letter = parsed.message.payload;
    for (const pending of this.pending.values()) {
      if (pending.messageId !== letter.original_message_id) continue;
      pending.settle(rejection(pending.actionId, letter.reason, letter.detail));
    }
  }

  private onControl(msg: Msg): void {
    const parsed = parseMessage(msg.data);
    if (!parsed.ok || parsed.message.type !== 'control.issued') return;
    this.sessions.get(parsed.message.session_id)?.deliverControl(parsed.message);
  }

  /** Builds a message of this agent for a session. */
  message<T extends Parameters<typeof createMessage>[0]>(
    type: T,
    sessionId: string,
    init: Omit<Parameters<typeof createMessage<T>>[1], 'session_id' | 'agent_id'>,
  ) {
    return createMessage(type, { ...init, session_id: sessionId, agent_id: this.agentId });
  }
}

/** The record of an answer given without Warden's decision. */
function fallbackOf(message: MessageOf<'action.proposed'>, decision: Omit<ActionDecision, 'latencyMs'>): Omit<FallbackRecord, 'answered_by'> {
  return {
    sessionId: message.session_id,
    action_id: message.payload.action_id,
    tool: message.payload.tool.slice(0, 256),
    decision: decision.allowed ? 'allow' : 'deny',
    reason: decision.reason.slice(0, 4000),
    answered_at: new Date().toISOString(),
  };
}

/** An action Warden refused to decide (a dead letter's reason and detail). */
function rejection(actionId: string, reason: string, detail: string): Omit<ActionDecision, 'latencyMs'> {
  const text = `Warden rejected the action (${reason}): ${detail}`;
  return { actionId, allowed: false, verdict: null, reason: text, reasons: [text], decidedBy: 'rejected' };
}

/** The channel and subject a message of this agent is published on. */
function placeOf(message: AnyMessage): { channel: SessionChannelId; subject: string } {
  const channel = definitionOf(message.type)!.channel as SessionChannelId;
  return { channel, subject: publishSubject(channel, message.agent_id, message.session_id) };
}

/** An agent's view of a decision message. */
function decisionOf(message: MessageOf<'decision.made'>): Omit<ActionDecision, 'latencyMs'> {
  const payload = message.payload;
  return {
    actionId: payload.action_id,
    allowed: payload.decision === 'allow',
    verdict: payload.verdict,
    reason: payload.reason,
    reasons: payload.reasons,
    ...(payload.updated_input ? { updatedInput: payload.updated_input } : {}),
    ...(payload.ask_user ? { askUser: true } : {}),
    decidedBy: payload.decided_by,
    message,
  };
}
