import { partitionOf, type AnyMessage, type MessageOf } from '@warden/contracts';
import { SessionLanes } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import type { BufferEntry, StoredEntry, Verdict } from '../domain/buffer-entry.js';
import type { Resolution } from '../domain/decision-policy.js';
import { answerProblem } from '../domain/gate-request.js';
import {
  factsAfter,
  holdOf,
  onIdleUnpause,
  onInject,
  onPause,
  onResume,
  onRewrite,
  onTimeout,
  onVerdict,
  unpauseResolution,
  type CommandOutcome,
  type GateEffect,
  type ResumeHow,
} from '../domain/gate-session.js';
import { checkCommandMessage, type HitlCommand } from '../domain/hitl-command.js';
import type { HumanGate, SessionFacts } from '../domain/human-gates.js';
import { keyOf, type SessionRelayState } from '../domain/relay-state.js';
import { DecisionSender } from './decision-sender.js';
import { GateFlush } from './gate-flush.js';
import type { GateMetrics } from './gate-metrics.js';
import { GateTimers } from './gate-timers.js';
import type { GateStores } from './relay-stores.js';

export type { CommandOutcome } from '../domain/gate-session.js';
export { TIMEOUT_REJECTION_PROMPT } from '../domain/gate-session.js';

export interface RelayOptions {
  stores: GateStores;
  publish(message: AnyMessage): Promise<unknown>;
  gates(): readonly HumanGate[];
  metrics: GateMetrics;
  log: Logger;
  partitions: number;
  /** True while this replica owns the partition (timers fire only at the owner). */
  owns(partition: number): boolean;
  /** A require_approval may go to the agent's own user when the proposal asks so (else operators answer all). */
  agentUserApprovals: boolean;
  /** Refuses a proposal, with the reason, to the agent (a dead letter of its verdict): a different action under an id already decided. */
  refuse(verdict: Verdict, reason: string): Promise<unknown>;
  /** Test-only fault injection: called after each message a flush published. */
  afterFlushed?(published: number): void;
  now?: () => Date;
}

interface IndexEntry {
  seq: number;
  kind: BufferEntry['kind'];
  trace_id: string;
  source_id: string;
}

/** A session as this replica holds it: the stored relay state (none while Normal) and its buffer's index. */
interface SessionRecord {
  agentId: string;
  sessionId: string;
  state: SessionRelayState | undefined;
  revision: number | undefined;
  /** The buffered entries of the open window (loaded with the state). */
  index: IndexEntry[];
}

const MAX_CACHED_SESSIONS = 100_000;

/**
 * The HITL relay (FRD-011) of the sessions whose partitions this replica owns: the shell of the gate's
 * aggregate (domain/gate-session.ts). Each message is handled in its session's lane: the shell loads
 * what the aggregate needs (the session's state, facts, buffer), asks it, and runs the effects it
 * returns in order — every change written to JetStream (KV with compare-and-set, and the buffer stream)
 * before it is acted on. The in-memory records are a cache of what is stored, loaded on first use and
 * dropped when the partition moves away or anything fails. A normal session is not stored at all.
 */
export class HitlRelay {
  private readonly lanes = new SessionLanes();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly facts = new Map<string, SessionFacts | null>();
  private readonly timers: GateTimers;
  private readonly now: () => Date;
  private readonly decisions: DecisionSender;
  private readonly flusher: GateFlush;

  constructor(private readonly options: RelayOptions) {
    this.now = options.now ?? (() => new Date());
    this.decisions = new DecisionSender({ decisions: options.stores.decisions, publish: options.publish, refuse: options.refuse, agentUserApprovals: options.agentUserApprovals });
    this.timers = new GateTimers((agentId, sessionId, requestId) => void this.onTimeout(agentId, sessionId, requestId), this.now);
    this.flusher = new GateFlush({
      stores: options.stores,
      decisions: this.decisions,
      publish: options.publish,
      metrics: options.metrics,
      log: options.log,
      now: this.now,
      facts: { get: (agentId, sessionId) => this.sessionFacts(agentId, sessionId), put: (agentId, sessionId, facts) => this.putFacts(agentId, sessionId, facts) },
      ...(options.afterFlushed ? { afterFlushed: options.afterFlushed } : {}),
    });
  }

  private get stores(): GateStores {
    return this.options.stores;
  }

  // ---------------------------------------------------------------- messages from the bus

  /** A reviewer verdict: forwarded as the decision, or held when the session is (or now gets) paused. */
  onVerdict(verdict: Verdict): Promise<void> {
    return this.inLane(verdict.agent_id, verdict.session_id, async () => {
      const record = await this.record(verdict.agent_id, verdict.session_id);
      const facts = await this.sessionFacts(verdict.agent_id, verdict.session_id);
      const delegated = this.decisions.delegated(verdict);
      const step = onVerdict(record, verdict, holdOf(verdict, facts, this.options.gates(), delegated), this.now(), delegated);
      // An action id already decided is answered from its record, never held and decided again.
      if (!step.pass && (await this.decisions.answerIfDecided(verdict))) return;
      await this.run(record, step.effects);
    });
  }

  /** Session lifecycle: the phase and environment human gates look at. */
  onSessionEvent(message: MessageOf<'session.started'> | MessageOf<'session.phase_changed'> | MessageOf<'session.ended'>): Promise<void> {
    const { agent_id: agentId, session_id: sessionId } = message;
    return this.inLane(agentId, sessionId, async () => {
      const facts = factsAfter(message, message.type === 'session.ended' ? undefined : await this.sessionFacts(agentId, sessionId));
      if (facts) return this.putFacts(agentId, sessionId, facts);
      this.facts.delete(keyOf(agentId, sessionId));
      await this.stores.facts.remove(agentId, sessionId);
    });
  }

  /**
   * A HITL command (FR-11.4) for a session this replica owns. Business refusals (an unknown trace id,
   * a stale request) are outcomes, not failures: the message is handled and the issuer told why.
   */
  onCommand(message: MessageOf<'gate.command'>, progress?: () => void): Promise<CommandOutcome> {
    const check = checkCommandMessage(message);
    if (!check.ok) {
      this.options.metrics.commands.inc({ command: message.payload.command_type, result: 'invalid' });
      return Promise.resolve({ status: 'error', code: 422, reason: check.reason });
    }
    const command = check.command;
    return this.inLane(command.agent_id, command.session_id, async () => {
      const outcome = await this.apply(command, message, progress);
      this.options.metrics.commands.inc({ command: command.type, result: outcome.status === 'ok' ? 'ok' : outcome.reason.split(':')[0]! });
      return outcome;
    });
  }

  // ---------------------------------------------------------------- partitions and timers

  /** Loads the stored sessions of a partition this replica now owns: resumes interrupted flushes, arms gate timeouts. */
  async onPartitionAcquired(partition: number): Promise<void> {
    const sessions = (await this.stores.states.list()).filter((s) => partitionOf(s.sessionId, this.options.partitions) === partition);
    await Promise.all(
      sessions.map(({ agentId, sessionId }) =>
        this.inLane(agentId, sessionId, () => this.record(agentId, sessionId)).catch((error: Error) =>
          this.options.log.error({ err: error, session_id: sessionId, agent_id: agentId }, 'could not resume a paused session; it resumes with its next message'),
        ),
      ),
    );
  }

  /** Forgets the sessions of a partition another replica owns now. */
  onPartitionReleased(partition: number): void {
    for (const [key, record] of this.sessions) {
      if (partitionOf(record.sessionId, this.options.partitions) === partition) this.forget(key, record);
    }
    for (const key of this.facts.keys()) {
      const sessionId = key.slice(key.indexOf('.') + 1);
      if (partitionOf(sessionId, this.options.partitions) === partition) this.facts.delete(key);
    }
  }

  stop(): void {
    this.timers.stop();
  }

  // ---------------------------------------------------------------- commands

  private async apply(command: HitlCommand, message: MessageOf<'gate.command'>, progress?: () => void): Promise<CommandOutcome> {
    const record = await this.record(command.agent_id, command.session_id);
    switch (command.type) {
      case 'hitl_pause': {
        const { outcome, effects } = onPause(record, command, message.id, this.now());
        await this.run(record, effects);
        return outcome;
      }
      case 'hitl_rewrite':
        return this.rewrite(record, command, message.id);
      case 'hitl_inject':
        await this.run(record, onInject(record, command, message, this.now()));
        return { status: 'ok' };
      case 'hitl_unpause':
        return this.unpause(record, command, message.id, progress);
    }
  }

  private async rewrite(record: SessionRecord, command: HitlCommand, commandId: string): Promise<CommandOutcome> {
    const indexed = record.state ? record.index.find((e) => e.trace_id === command.original_trace_id) : undefined;
    const entry = indexed ? await this.stores.buffer.get(indexed.seq) : undefined;
    const { outcome, effects } = onRewrite(record, command, commandId, entry, this.now());
    await this.run(record, effects);
    return outcome;
  }

  private async unpause(record: SessionRecord, command: HitlCommand, commandId: string, progress?: () => void): Promise<CommandOutcome> {
    if (command.request_id && !record.state?.requests.some((r) => r.request_id === command.request_id)) {
      const problem = answerProblem(await this.stores.requests.get(command.request_id));
      return { status: 'error', ...(problem ?? { code: 409, reason: 'request_already_answered' }) };
    }
    if (!record.state) {
      await this.run(record, onIdleUnpause(record, command, commandId, this.now()));
      return { status: 'ok', note: 'not_paused' };
    }
    if (command.original_trace_id) {
      // Rewrite-and-approve (FR-11.10): the rewrite must apply, or nothing happens.
      const rewritten = await this.rewrite(record, command, commandId);
      if (rewritten.status !== 'ok') return rewritten;
    }
    const { resolution, how } = unpauseResolution(command, commandId);
    await this.resume(record, resolution, how, progress);
    return { status: 'ok' };
  }

  /** Unpause: store the flush with everything needed to finish it, then flush (FR-11.3). */
  private async resume(record: SessionRecord, resolution: Resolution, how: ResumeHow, progress?: () => void): Promise<void> {
    const entries = (await this.stores.buffer.read(record.agentId, record.sessionId)).filter((e) => e.entry.window_id === record.state!.window.id);
    const { plan, effects } = onResume(record, entries, resolution, how, this.now());
    await this.run(record, effects);
    await this.flush(record, entries, plan, progress);
  }

  private async flush(record: SessionRecord, entries?: StoredEntry[], plan?: Parameters<GateFlush['run']>[2], progress?: () => void): Promise<void> {
    await this.flusher.run(record, entries, plan, progress);
    this.timers.disarm(record.state?.requests ?? []);
    this.options.metrics.buffered.dec(record.index.length);
    record.state = undefined;
    record.revision = undefined;
    record.index = [];
  }

  /** A gate's timeout (seed 002 §6.2): escalate, then resolve the session by the gate's on-timeout policy. */
  private onTimeout(agentId: string, sessionId: string, requestId: string): Promise<void> {
    return this.inLane(agentId, sessionId, async () => {
      this.timers.fired(requestId);
      if (this.timers.isStopped || !this.options.owns(partitionOf(sessionId, this.options.partitions))) return;
      const record = await this.record(agentId, sessionId);
      const timeout = onTimeout(record, requestId);
      if (!timeout) return;
      const { pending } = timeout;
      await this.options.publish(timeout.escalation);
      const stored = await this.stores.requests.get(requestId);
      if (stored && !stored.escalated_at) await this.stores.requests.put({ ...stored, escalated_at: this.now().toISOString() });
      this.options.metrics.requests.inc({ gate: pending.gate_id, outcome: 'escalated' });
      this.options.log.warn(
        { session_id: sessionId, agent_id: agentId, request_id: requestId, gate_id: pending.gate_id, escalation: pending.escalation, resolution: timeout.resolution.resolution },
        'gate request timed out; escalated',
      );
      await this.resume(record, timeout.resolution, timeout.how);
    }).catch((error: Error) => {
      this.options.log.error({ err: error, session_id: sessionId, request_id: requestId }, 'gate timeout failed; retrying');
      this.timers.retry(agentId, sessionId, requestId);
    });
  }

  // ---------------------------------------------------------------- effects

  /** Runs the aggregate's effects in order, each stored or acknowledged before the next. */
  private async run(record: SessionRecord, effects: readonly GateEffect[]): Promise<void> {
    for (const effect of effects) {
      switch (effect.kind) {
        case 'save':
          record.revision = await this.stores.states.save(effect.state, record.revision);
          // A new window holds nothing yet.
          if (record.state?.window.id !== effect.state.window.id) record.index = [];
          record.state = effect.state;
          break;
        case 'publish':
          await this.options.publish(effect.message);
          break;
        case 'decide':
          if (await this.decisions.send(effect.message, effect.verdict)) this.options.metrics.decisions.inc({ decision: effect.message.payload.decision, verdict: effect.message.payload.verdict });
          break;
        case 'buffer':
          await this.append(record, effect.entry);
          break;
        case 'request': {
          // Stored for the API, told to the suite, and waited for.
          const stored = await this.stores.requests.get(effect.pending.request_id);
          if (!stored) await this.stores.requests.put(effect.record);
          await this.options.publish(effect.message);
          if (!stored) this.options.metrics.requests.inc({ gate: effect.pending.gate_id, outcome: 'requested' });
          this.timers.arm(record.agentId, record.sessionId, effect.pending);
          break;
        }
        case 'paused':
          this.options.metrics.pauses.inc({ trigger: effect.trigger });
          break;
      }
    }
  }

  private async append(record: SessionRecord, entry: BufferEntry): Promise<void> {
    if (record.index.some((e) => e.source_id === entry.source_id && e.kind === entry.kind)) return;
    const { seq } = await this.stores.buffer.append(record.agentId, record.sessionId, entry);
    if (record.index.some((e) => e.seq === seq)) return;
    record.index.push({ seq, kind: entry.kind, trace_id: entry.trace_id, source_id: entry.source_id });
    this.options.metrics.buffered.inc();
    this.options.metrics.bufferedTotal.inc({ kind: entry.kind });
  }

  // ---------------------------------------------------------------- state access

  private inLane<T>(agentId: string, sessionId: string, work: () => Promise<T>): Promise<T> {
    const key = keyOf(agentId, sessionId);
    return this.lanes.run(key, async () => {
      try {
        return await work();
      } catch (error) {
        // What is in memory may be ahead of what was stored: read it again next time.
        const record = this.sessions.get(key);
        if (record) this.forget(key, record);
        throw error;
      }
    });
  }

  private forget(key: string, record: SessionRecord): void {
    this.timers.disarm(record.state?.requests ?? []);
    if (record.state) this.options.metrics.buffered.dec(record.index.length);
    this.sessions.delete(key);
  }

  /** The session's record: cached, or loaded (finishing a flush a crash interrupted, re-arming its gate timeouts). */
  private async record(agentId: string, sessionId: string): Promise<SessionRecord> {
    const key = keyOf(agentId, sessionId);
    const cached = this.sessions.get(key);
    if (cached) return cached;
    const loaded = await this.stores.states.load(agentId, sessionId);
    const record: SessionRecord = { agentId, sessionId, state: loaded.state, revision: loaded.revision, index: [] };
    this.remember(key, record);
    if (!record.state) return record;
    const entries = await this.stores.buffer.read(agentId, sessionId);
    record.index = entries
      .filter((e) => e.entry.window_id === record.state!.window.id)
      .map((e) => ({ seq: e.seq, kind: e.entry.kind, trace_id: e.entry.trace_id, source_id: e.entry.source_id }));
    this.options.metrics.buffered.inc(record.index.length);
    if (record.state.status === 'flushing') {
      this.options.log.error({ session_id: sessionId, agent_id: agentId }, 'found an interrupted flush; finishing it');
      await this.flush(record, entries);
    } else {
      for (const pending of record.state.requests) this.timers.arm(agentId, sessionId, pending);
    }
    return record;
  }

  private remember(key: string, record: SessionRecord): void {
    if (this.sessions.size >= MAX_CACHED_SESSIONS) {
      // Forget the oldest normal sessions; paused ones stay (their timers live with them).
      for (const [oldKey, old] of this.sessions) {
        if (this.sessions.size < MAX_CACHED_SESSIONS * 0.9) break;
        if (!old.state) this.sessions.delete(oldKey);
      }
    }
    this.sessions.set(key, record);
  }

  private async sessionFacts(agentId: string, sessionId: string): Promise<SessionFacts | undefined> {
    const key = keyOf(agentId, sessionId);
    const cached = this.facts.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const facts = await this.stores.facts.get(agentId, sessionId);
    if (this.facts.size >= MAX_CACHED_SESSIONS) this.facts.delete(this.facts.keys().next().value!);
    this.facts.set(key, facts ?? null);
    return facts;
  }

  private async putFacts(agentId: string, sessionId: string, facts: SessionFacts): Promise<void> {
    await this.stores.facts.put(agentId, sessionId, facts);
    this.facts.set(keyOf(agentId, sessionId), facts);
  }
}
