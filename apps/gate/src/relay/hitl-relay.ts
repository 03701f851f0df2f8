import { partitionOf, type AnyMessage, type MessageOf } from '@warden/contracts';
import { SessionHolder, type PartitionSource, type SessionAddress } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import {
  answerProblem,
  checkCommandMessage,
  digestProblem,
  rewrittenRequest,
  type GateRequestRecord,
  factsAfter,
  holdOf,
  onIdleUnpause,
  onInject,
  onPause,
  onDeadline,
  onResume,
  onRewrite,
  onVerdict,
  unpauseResolution,
  withEscalation,
  type BufferEntry,
  type CommandOutcome,
  type DeadlineSettings,
  type GateEffect,
  type HitlCommand,
  type HumanGate,
  type Resolution,
  type ResumeHow,
  type SessionFacts,
  type StoredEntry,
  type Verdict,
} from '@warden/gate';
import type { GateMetrics } from '../core/gate-metrics.js';
import type { GateStores } from '../core/gate-stores.js';
import { DecisionSender } from './decision-sender.js';
import { GateFlush, type Flushing } from './gate-flush.js';
import { GateTimers } from './gate-timers.js';

export interface RelayOptions {
  stores: GateStores;
  publish(message: AnyMessage): Promise<unknown>;
  gates(): readonly HumanGate[];
  metrics: GateMetrics;
  log: Logger;
  partitions: number;
  /** A require_approval may go to the agent's own user when the proposal asks so (else operators answer all). */
  agentUserApprovals: boolean;
  /** Refuses a proposal, with the reason, to the agent (a dead letter of its verdict): a different action under an id already decided. */
  refuse(verdict: Verdict, reason: string): Promise<unknown>;
  /** Told after each message a flush published, with the count so far (a test stops the process there). */
  afterFlushed?(published: number): void;
  now?: () => Date;
  /**
   * The approval channels (Slack, webhooks), told of each request stored, changed (a rewrite),
   * escalated and answered. They queue what they send in their outbox and return: never in the way of
   * a decision.
   */
  approvals?: ApprovalNotices;
  /** Escalation steps and per-agent deadlines of the requests (none: each gate's own deadline). */
  deadlines?: DeadlineSettings;
}

/** What the approval channels are told by the owner of the session: the channels the request names have asked. */
export interface ApprovalNotices {
  requested(record: GateRequestRecord): Promise<void>;
  changed(record: GateRequestRecord): Promise<void>;
  /** An escalation step asks `channels` too (each at most once per request). */
  escalated(record: GateRequestRecord, channels: readonly string[]): Promise<void>;
  answered(record: GateRequestRecord): Promise<void>;
}

interface IndexEntry {
  seq: number;
  kind: BufferEntry['kind'];
  trace_id: string;
  source_id: string;
}

/** A session as this replica holds it: the stored relay state (none while Normal), its buffer's index, its facts. */
interface SessionRecord extends Flushing {
  /** The buffered entries of the open window (loaded with the state). */
  index: IndexEntry[];
  /** Phase, environment and approvals, read on first use (null: none stored). */
  facts?: SessionFacts | null;
}

const MAX_CACHED_SESSIONS = 100_000;

/**
 * The HITL relay (FRD-011) of the sessions whose partitions this replica owns: the shell of the gate's
 * aggregate (@warden/gate's gate-session). Each message is handled in its session's lane: the shell loads
 * what the aggregate needs (the session's state, facts, buffer), asks it, and runs the effects it
 * returns in order — every change written to JetStream (KV with compare-and-set, and the buffer stream)
 * before it is acted on. The sessions are held by the messaging library's SessionHolder: a cache of
 * what is stored, loaded on first use, dropped when the partition moves away or anything fails, paused
 * ones never evicted. A normal session is not stored at all.
 */
export class HitlRelay {
  private readonly sessions: SessionHolder<SessionRecord>;
  private readonly timers: GateTimers;
  private readonly now: () => Date;
  private readonly decisions: DecisionSender;
  private readonly flusher: GateFlush<SessionRecord>;

  constructor(private readonly options: RelayOptions) {
    this.now = options.now ?? (() => new Date());
    this.decisions = new DecisionSender({ decisions: options.stores.decisions, publish: options.publish, refuse: options.refuse, agentUserApprovals: options.agentUserApprovals });
    this.timers = new GateTimers((agentId, sessionId, requestId) => void this.onDeadline(agentId, sessionId, requestId), this.now);
    // Every gate's outcomes are series from the start: an alert on their increase sees the first one.
    for (const gate of options.gates()) {
      for (const outcome of ['requested', 'escalated', 'approved', 'approved_with_conditions', 'rejected', 'timed_out']) options.metrics.requests.inc({ gate: gate.id, outcome }, 0);
    }
    this.flusher = new GateFlush<SessionRecord>({
      stores: options.stores,
      decisions: this.decisions,
      publish: options.publish,
      metrics: options.metrics,
      log: options.log,
      now: this.now,
      facts: { get: (record) => this.factsOf(record), put: (record, facts) => this.putFacts(record, facts) },
      answered: (request) => this.notify('answered', request),
      ...(options.afterFlushed ? { afterFlushed: options.afterFlushed } : {}),
    });
    this.sessions = new SessionHolder<SessionRecord>({
      load: (address) => this.load(address),
      partitions: options.partitions,
      capacity: MAX_CACHED_SESSIONS,
      // A paused session stays: its gate timers live with it.
      pinned: (record) => record.state !== undefined,
      // Loading a stored session is taking it over (see `load`).
      stored: async (partitions) => (await this.stores.states.list()).filter((s) => partitions.has(partitionOf(s.sessionId, options.partitions))),
      events: {
        forgotten: (_, record) => this.forgotten(record),
        takeoverFailed: (partitions, error) => options.log.error({ partitions, err: error }, 'could not resume the paused sessions of acquired partitions; retrying'),
      },
    });
  }

  private get stores(): GateStores {
    return this.options.stores;
  }

  // ---------------------------------------------------------------- messages from the bus

  /** A reviewer verdict: forwarded as the decision, or held when the session is (or now gets) paused. */
  onVerdict(verdict: Verdict): Promise<void> {
    return this.inLane(verdict.agent_id, verdict.session_id, async (record) => {
      const facts = await this.factsOf(record);
      const delegated = this.decisions.delegated(verdict);
      const step = onVerdict(record, verdict, holdOf(verdict, facts, this.options.gates(), delegated), this.now(), delegated, this.options.deadlines);
      // An action id already decided is answered from its record, never held and decided again.
      if (!step.pass && (await this.decisions.answerIfDecided(verdict))) return;
      await this.run(record, step.effects);
    });
  }

  /** Session lifecycle: the phase and environment human gates look at. */
  onSessionEvent(message: MessageOf<'session.started'> | MessageOf<'session.phase_changed'> | MessageOf<'session.ended'>): Promise<void> {
    return this.inLane(message.agent_id, message.session_id, async (record) => {
      const facts = factsAfter(message, message.type === 'session.ended' ? undefined : await this.factsOf(record));
      if (facts) return this.putFacts(record, facts);
      record.facts = null;
      await this.stores.facts.remove(record.agentId, record.sessionId);
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
    return this.inLane(command.agent_id, command.session_id, async (record) => {
      const outcome = await this.apply(record, command, message, progress);
      this.options.metrics.commands.inc({ command: command.type, result: outcome.status === 'ok' ? 'ok' : outcome.reason.split(':')[0]! });
      return outcome;
    });
  }

  // ---------------------------------------------------------------- partitions and timers

  /**
   * Follows the partitions this replica owns: a released one's sessions are forgotten (their timers
   * disarmed), an acquired one's stored sessions loaded (interrupted flushes finished, timers armed).
   */
  follow(source: PartitionSource): void {
    this.sessions.follow(source);
  }

  stop(): void {
    this.timers.stop();
    this.sessions.stop();
  }

  // ---------------------------------------------------------------- commands

  private async apply(record: SessionRecord, command: HitlCommand, message: MessageOf<'gate.command'>, progress?: () => void): Promise<CommandOutcome> {
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
    if (outcome.status === 'ok') await this.rewriteRequests(record, command);
    return outcome;
  }

  /** A rewritten action is a new content to approve: its requests show the new input, with a new digest. */
  private async rewriteRequests(record: SessionRecord, command: HitlCommand): Promise<void> {
    let input: unknown;
    try {
      input = JSON.parse(command.new_content!);
    } catch {
      return;
    }
    for (const pending of record.state?.requests ?? []) {
      if (pending.trace_id !== command.original_trace_id) continue;
      const stored = await this.stores.requests.get(pending.request_id);
      if (!stored || stored.status !== 'pending') continue;
      const next = rewrittenRequest(stored, input);
      await this.stores.requests.put(next);
      await this.notify('changed', next);
    }
  }

  /** Tells the approval channels; a failure there is theirs to report, never the decision's. */
  private async notify(what: 'requested' | 'changed' | 'answered', request: GateRequestRecord): Promise<void> {
    if (!this.options.approvals) return;
    try {
      await this.options.approvals[what](request);
    } catch (error) {
      this.options.log.error({ err: error, request_id: request.request_id, what }, 'could not queue the approval channels');
    }
  }

  private async unpause(record: SessionRecord, command: HitlCommand, commandId: string, progress?: () => void): Promise<CommandOutcome> {
    if (command.request_id && !record.state?.requests.some((r) => r.request_id === command.request_id)) {
      const problem = answerProblem(await this.stores.requests.get(command.request_id));
      return { status: 'error', ...(problem ?? { code: 409, reason: 'request_already_answered' }) };
    }
    if (command.request_id && command.digest) {
      // The approval approves exactly what was shown: checked here, in the session's lane, in order with rewrites.
      const stored = await this.stores.requests.get(command.request_id);
      const problem = stored ? digestProblem(stored, command.digest) : null;
      if (problem) return { status: 'error', code: 409, reason: problem };
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

  private async flush(record: SessionRecord, entries?: StoredEntry[], plan?: Parameters<GateFlush<SessionRecord>['run']>[2], progress?: () => void): Promise<void> {
    await this.flusher.run(record, entries, plan, progress);
    this.timers.disarm(record.state?.requests ?? []);
    this.options.metrics.buffered.dec(record.index.length);
    record.state = undefined;
    record.revision = undefined;
    record.index = [];
  }

  /**
   * A request's deadline timer (seed 002 §6.2): an escalation step asks more channels and the timer is
   * armed for the next deadline; at the final deadline the session resumes with a denial.
   */
  private onDeadline(agentId: string, sessionId: string, requestId: string): Promise<void> {
    return this.inLane(agentId, sessionId, async (record) => {
      this.timers.fired(requestId);
      if (this.timers.isStopped) return;
      // The partition moved while this waited: the session is its new owner's, timers included.
      if (!this.sessions.owns(record)) return this.sessions.forget(record);
      const due = onDeadline(record, requestId, this.now());
      if (!due) return;
      if (due.kind === 'wait') return this.timers.arm(agentId, sessionId, due.pending);
      const { pending } = due;
      if (due.kind === 'escalate') {
        await this.run(record, due.effects);
        this.options.log.warn(
          { session_id: sessionId, agent_id: agentId, request_id: requestId, gate_id: pending.gate_id, escalation: pending.escalation, step: due.run.step, channels: due.run.channels },
          'gate request unanswered; escalated',
        );
        return this.timers.arm(agentId, sessionId, pending);
      }
      await this.options.publish(due.escalation);
      const stored = await this.stores.requests.get(requestId);
      if (stored && !stored.escalated_at) await this.stores.requests.put({ ...stored, escalated_at: this.now().toISOString() });
      this.options.metrics.requests.inc({ gate: pending.gate_id, outcome: 'escalated' });
      this.options.log.warn(
        { session_id: sessionId, agent_id: agentId, request_id: requestId, gate_id: pending.gate_id, escalation: pending.escalation, asked: pending.asked ?? [] },
        'gate request unanswered at its final deadline; denied',
      );
      await this.resume(record, due.resolution, due.how);
    }).catch((error: Error) => {
      this.options.log.error({ err: error, session_id: sessionId, request_id: requestId }, 'gate deadline failed; retrying');
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
          await this.notify('requested', stored ?? effect.record);
          if (!stored) this.options.metrics.requests.inc({ gate: effect.pending.gate_id, outcome: 'requested' });
          this.timers.arm(record.agentId, record.sessionId, effect.pending);
          break;
        }
        case 'escalate': {
          // Each at most once, so that a step run again after a crash repeats nothing: the record keeps
          // the steps that ran, the outbox creates one entry per channel and request, the message id is the step's.
          const stored = await this.stores.requests.get(effect.pending.request_id);
          const record = stored ? withEscalation(stored, effect.run) : undefined;
          if (record && record !== stored) await this.stores.requests.put(record);
          // Unlike the other notices, a failure here is retried: asking these channels is the step.
          if (record && this.options.approvals) await this.options.approvals.escalated(record, effect.run.channels);
          await this.options.publish(effect.message);
          if (record !== stored) this.options.metrics.requests.inc({ gate: effect.pending.gate_id, outcome: 'escalated' });
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

  private inLane<T>(agentId: string, sessionId: string, work: (record: SessionRecord) => Promise<T>): Promise<T> {
    return this.sessions.run({ agentId, sessionId }, Date.now(), work);
  }

  /**
   * A session not held yet, as stored: nothing while Normal; else its state and buffer index, a flush
   * a crash interrupted finished first, the gate timeouts of a paused one armed.
   */
  private async load({ agentId, sessionId }: SessionAddress): Promise<SessionRecord> {
    const { state, revision } = await this.stores.states.load(agentId, sessionId);
    const record: SessionRecord = { agentId, sessionId, state, revision, index: [] };
    if (!state) return record;
    const entries = await this.stores.buffer.read(agentId, sessionId);
    if (state.status === 'flushing') {
      this.options.log.error({ session_id: sessionId, agent_id: agentId }, 'found an interrupted flush; finishing it');
      await this.flush(record, entries);
      return record;
    }
    record.index = entries
      .filter((e) => e.entry.window_id === state.window.id)
      .map((e) => ({ seq: e.seq, kind: e.entry.kind, trace_id: e.entry.trace_id, source_id: e.entry.source_id }));
    this.options.metrics.buffered.inc(record.index.length);
    for (const pending of state.requests) this.timers.arm(agentId, sessionId, pending);
    return record;
  }

  /** A session dropped from memory takes its timers and its buffered count along. */
  private forgotten(record: SessionRecord): void {
    this.timers.disarm(record.state?.requests ?? []);
    if (record.state) this.options.metrics.buffered.dec(record.index.length);
  }

  private async factsOf(record: SessionRecord): Promise<SessionFacts | undefined> {
    if (record.facts === undefined) record.facts = (await this.stores.facts.get(record.agentId, record.sessionId)) ?? null;
    return record.facts ?? undefined;
  }

  private async putFacts(record: SessionRecord, facts: SessionFacts): Promise<void> {
    await this.stores.facts.put(record.agentId, record.sessionId, facts);
    record.facts = facts;
  }
}
