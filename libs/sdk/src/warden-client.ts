import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  createMessage,
  deadLetterSubscription,
  derivedMessageId,
  parseMessage,
  publishSubject,
  sessionSubscription,
  validateMessage,
  definitionOf,
  type AnyMessage,
  type MessageOf,
  type SessionChannelId,
} from '@warden/contracts';
import { AgentSession } from './agent-session.js';
import { CheckpointStore } from './checkpoint-store.js';
import type { ActionDecision, TimeoutPolicy } from './decision.js';
import { InvalidMessageError } from './errors.js';

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
}

interface Pending {
  settle(decision: Omit<ActionDecision, 'latencyMs'>): void;
  actionId: string;
  messageId: string;
  promise: Promise<ActionDecision>;
}

const encoder = new TextEncoder();
const key = (sessionId: string, actionId: string) => `${sessionId}\u0000${actionId}`;

/**
 * An agent's connection to Warden. One client per agent process; `session(id)` gives the object to
 * work with for each session. Decisions, control messages and rejections for this agent arrive on one
 * subscription each, and are routed to the session and action they belong to.
 */
export class WardenClient {
  private readonly pending = new Map<string, Pending>();
  private readonly sessions = new Map<string, AgentSession>();
  private readonly subscriptions: Subscription[] = [];
  private readonly stores = new Map<string, CheckpointStore>();
  readonly decisionTimeoutMs: number;
  readonly onTimeout: TimeoutPolicy;
  readonly validate: boolean;
  readonly applyControl: boolean;
  readonly checkpointRoot: string;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly agentId: string,
    options: WardenClientOptions,
  ) {
    this.decisionTimeoutMs = options.decisionTimeoutMs ?? 15_000;
    this.onTimeout = options.onTimeout ?? 'deny';
    this.validate = options.validate ?? true;
    this.applyControl = options.applyControl ?? true;
    this.checkpointRoot = options.checkpointRoot ?? process.cwd();
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
    const client = new WardenClient(nc, jetstream(nc), options.agentId, options);
    client.listen(sessionSubscription('decision', options.agentId, '*'), (msg) => client.onDecision(msg));
    client.listen(sessionSubscription('control', options.agentId, '*'), (msg) => client.onControl(msg));
    client.listen(deadLetterSubscription(options.agentId, '*'), (msg) => client.onDeadLetter(msg));
    await nc.flush();
    return client;
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

  /** Publishes a message durably; resolves when JetStream has stored it. */
  async publish(message: AnyMessage, timeoutMs = 5_000): Promise<void> {
    this.check(message);
    await this.send(message, timeoutMs);
  }

  private async send(message: AnyMessage, timeoutMs: number): Promise<void> {
    const channel = definitionOf(message.type)!.channel as SessionChannelId;
    await this.js.publish(publishSubject(channel, message.agent_id, message.session_id), encoder.encode(JSON.stringify(message)), {
      msgID: message.id,
      timeout: timeoutMs,
    });
  }

  /**
   * Publishes a proposed action and resolves with its decision. Proposing the same action id again
   * while it is pending returns the same decision (and JetStream stores the action once).
   */
  async propose(message: MessageOf<'action.proposed'>, timeoutMs: number): Promise<ActionDecision> {
    const id = key(message.session_id, message.payload.action_id);
    const existing = this.pending.get(id);
    if (existing) return existing.promise;
    this.check(message);
    const started = performance.now();
    let settle!: Pending['settle'];
    const promise = new Promise<ActionDecision>((resolve) => {
      const timer = setTimeout(() => {
        settle(this.fallback(message.payload.action_id, `no decision within ${timeoutMs} ms`));
      }, timeoutMs);
      settle = (decision) => {
        if (!this.pending.has(id)) return;
        clearTimeout(timer);
        this.pending.delete(id);
        resolve({ ...decision, latencyMs: performance.now() - started });
      };
    });
    this.pending.set(id, { settle, actionId: message.payload.action_id, messageId: message.id, promise });
    this.send(message, Math.min(timeoutMs, 5_000)).catch((error: Error) => {
      settle(this.fallback(message.payload.action_id, `could not reach Warden: ${error.message}`));
    });
    return promise;
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
    if (!parsed.ok || parsed.message.type !== 'decision.made') return;
    const message = parsed.message;
    const payload = message.payload;
    this.pending.get(key(message.session_id, payload.action_id))?.settle({
      actionId: payload.action_id,
      allowed: payload.decision === 'allow',
      verdict: payload.verdict,
      reason: payload.reason,
      reasons: payload.reasons,
      ...(payload.updated_input ? { updatedInput: payload.updated_input } : {}),
      decidedBy: payload.decided_by,
      message,
    });
  }

  private onDeadLetter(msg: Msg): void {
    const parsed = parseMessage(msg.data);
    if (!parsed.ok || parsed.message.type !== 'deadletter.recorded') return;
    const letter = parsed.message.payload;
    for (const pending of this.pending.values()) {
      if (pending.messageId !== letter.original_message_id) continue;
      const reason = `Warden rejected the action (${letter.reason}): ${letter.detail}`;
      pending.settle({ actionId: pending.actionId, allowed: false, verdict: null, reason, reasons: [reason], decidedBy: 'rejected' });
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
