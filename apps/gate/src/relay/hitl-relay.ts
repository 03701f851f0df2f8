import { performance } from 'node:perf_hooks';
import {
  createMessage,
  derivedMessageId,
  OPERATOR_REJECTION_PROMPT,
  partitionOf,
  type AnyMessage,
  type HitlCommandType,
  type MessageOf,
} from '@warden/contracts';
import { SessionLanes } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import { entryContent, rewriteProblem, type BufferEntry, type DecisionEntry, type InjectEntry, type PauseTrigger, type StoredEntry, type Verdict } from '../domain/buffer-entry.js';
import { stateHash } from '../domain/canonical-hash.js';
import { decisionFromVerdict, type Resolution } from '../domain/decision-policy.js';
import { injectedControl, planFlush, decisionId, resumeControl, rejectionAlreadyInjected, stopControl, STOPPING_PARTICIPANT, type OutgoingMessage } from '../domain/flush-plan.js';
import { answerProblem, outcomeOf, type GateRequestRecord } from '../domain/gate-request.js';
import { checkHitlCommand, type HitlCommand } from '../domain/hitl-command.js';
import { approvalKey, detailsOf, gateContext, summaryOf, triggeredGates, type GateContext, type HumanGate, type SessionFacts } from '../domain/human-gates.js';
import {
  keyOf,
  openWindow,
  startFlush,
  withRequest,
  withReversible,
  withRewrite,
  type FlushState,
  type InterventionRecord,
  type PendingRequest,
  type SessionRelayState,
} from '../domain/relay-state.js';
import { DecisionSender } from './decision-sender.js';
import type { GateMetrics } from './gate-metrics.js';
import type { GateStores } from './relay-stores.js';

/** The answer to a command, sent back to whoever issued it (HTTP status and FR-11.5 body). */
export type CommandOutcome = { status: 'ok'; note?: string } | { status: 'error'; code: 404 | 409 | 422; reason: string };

/** What the agent is told when nobody answered a gate in time and the policy denies. */
export const TIMEOUT_REJECTION_PROMPT = 'No operator answered the approval request in time; the action was denied. Do not retry it without an approval.';

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

interface SessionRecord {
  agentId: string;
  sessionId: string;
  state: SessionRelayState | null;
  revision: number | null;
  /** The buffered entries of the open window (loaded with the state). */
  index: IndexEntry[];
}

const MAX_CACHED_SESSIONS = 100_000;
const PROGRESS_EVERY = 500;

/**
 * The HITL relay (FRD-011) of the sessions whose partitions this replica owns: the state machine
 * Normal ↔ Paused per session and agent, the durable buffer, commands, human gate requests, and the
 * flush on unpause. Every change of a session runs in that session's lane, one after another, and is
 * written to JetStream (KV with compare-and-set, and the buffer stream) before it is acted on; the
 * in-memory records are a cache of what is stored, loaded on first use and dropped when the partition
 * moves away. A normal session is not stored at all, so the normal path is a map lookup and a publish.
 */
export class HitlRelay {
  private readonly lanes = new SessionLanes();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly facts = new Map<string, SessionFacts | null>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly now: () => Date;
  private readonly decisions: DecisionSender;
  private stopped = false;

  constructor(private readonly options: RelayOptions) {
    this.now = options.now ?? (() => new Date());
    this.decisions = new DecisionSender({ decisions: options.stores.decisions, publish: options.publish, refuse: options.refuse, agentUserApprovals: options.agentUserApprovals });
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
      const hold = this.holdOf(verdict, facts);
      if (!record.state && !hold) {
        await this.publishDecision(verdict);
        return;
      }
      // An action id already decided is answered from its record, never held and decided again.
      if (await this.decisions.answerIfDecided(verdict)) return;
      const requests = hold ? this.requestsFor(verdict, hold) : [];
      if (!record.state) {
        const trigger = hold!.holds[0]!;
        const reason =
          trigger === 'hitl_required_flag'
            ? 'hitl_required_flag'
            : trigger === 'require_approval'
              ? `require_approval: ${verdict.payload.reasons[0] ?? 'the reviewer asks for an approval'}`
              : `gate: ${requests.map((r) => r.pending.gate_id).join(', ')}`;
        await this.pause(record, {
          trigger,
          operatorId: 'system',
          reason,
          causeId: verdict.id,
          requests: requests.map((r) => r.pending),
          ...(requests[0] ? { requestId: requests[0].pending.request_id } : {}),
        });
      } else if (requests.length) {
        let state = record.state;
        for (const request of requests) state = withRequest(state, request.pending);
        if (state !== record.state) await this.save(record, state);
      }
      for (const request of requests) await this.announceRequest(record, request.pending, request.record);
      const entry: DecisionEntry = {
        kind: 'decision',
        window_id: record.state!.window.id,
        trace_id: verdict.trace_id,
        source_id: verdict.id,
        action_id: verdict.payload.action_id,
        needs_approval: !!hold,
        holds: hold?.holds ?? [],
        ...(hold?.gates.length ? { gate_ids: hold.gates.map((g) => g.id) } : {}),
        verdict,
        buffered_at: this.now().toISOString(),
      };
      await this.append(record, entry);
    });
  }

  /** Session lifecycle: the phase and environment human gates look at. */
  onSessionEvent(message: MessageOf<'session.started'> | MessageOf<'session.phase_changed'> | MessageOf<'session.ended'>): Promise<void> {
    const { agent_id: agentId, session_id: sessionId } = message;
    return this.inLane(agentId, sessionId, async () => {
      const key = keyOf(agentId, sessionId);
      if (message.type === 'session.ended') {
        this.facts.delete(key);
        await this.stores.facts.remove(agentId, sessionId);
        return;
      }
      const previous = (await this.sessionFacts(agentId, sessionId)) ?? {};
      const facts: SessionFacts =
        message.type === 'session.started'
          ? {
              ...(message.payload.phase ? { phase: message.payload.phase } : {}),
              ...(message.payload.environment ? { environment: message.payload.environment } : {}),
              ...(message.payload.context.goal ? { goal: message.payload.context.goal } : {}),
              approvals: previous.approvals ?? [],
            }
          : // Approvals "once per phase" last until the phase ends.
            { ...previous, phase: message.payload.phase, approvals: (previous.approvals ?? []).filter((a) => !a.includes('@')) };
      await this.stores.facts.put(agentId, sessionId, facts);
      this.facts.set(key, facts);
    });
  }

  /**
   * A HITL command (FR-11.4) for a session this replica owns. Business refusals (an unknown trace id,
   * a stale request) are outcomes, not failures: the message is handled and the issuer told why.
   */
  onCommand(message: MessageOf<'gate.command'>, progress?: () => void): Promise<CommandOutcome> {
    const p = message.payload;
    const check = checkHitlCommand({
      type: p.command_type,
      session_id: message.session_id,
      agent_id: message.agent_id,
      operator_id: p.operator_id,
      timestamp: message.timestamp,
      ...(p.reason !== undefined ? { reason: p.reason } : {}),
      ...(p.original_trace_id !== undefined ? { original_trace_id: p.original_trace_id } : {}),
      ...(p.new_content !== undefined ? { new_content: p.new_content } : {}),
      ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
      ...(p.resolution !== undefined ? { resolution: p.resolution } : {}),
      ...(p.request_id !== undefined ? { request_id: p.request_id } : {}),
      ...(p.conditions !== undefined ? { conditions: p.conditions } : {}),
      ...(p.stop_agent !== undefined ? { stop_agent: p.stop_agent } : {}),
    });
    if (!check.ok) {
      this.options.metrics.commands.inc({ command: p.command_type, result: 'invalid' });
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
      if (partitionOf(record.sessionId, this.options.partitions) !== partition) continue;
      this.disarm(record);
      if (record.state) this.options.metrics.buffered.dec(record.index.length);
      this.sessions.delete(key);
    }
    for (const key of this.facts.keys()) {
      const sessionId = key.slice(key.indexOf('.') + 1);
      if (partitionOf(sessionId, this.options.partitions) === partition) this.facts.delete(key);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  // ---------------------------------------------------------------- commands

  private async apply(command: HitlCommand, message: MessageOf<'gate.command'>, progress?: () => void): Promise<CommandOutcome> {
    const record = await this.record(command.agent_id, command.session_id);
    switch (command.type) {
      case 'hitl_pause':
        return this.pauseCommand(record, command, message);
      case 'hitl_rewrite':
        return this.rewrite(record, command, message);
      case 'hitl_inject':
        return this.inject(record, command, message);
      case 'hitl_unpause':
        return this.unpause(record, command, message, progress);
    }
  }

  private async pauseCommand(record: SessionRecord, command: HitlCommand, message: MessageOf<'gate.command'>): Promise<CommandOutcome> {
    const intervention = this.intervention(message.id, 'hitl_pause', command.operator_id, null, null);
    if (record.state) {
      // A second pause changes nothing (FR-11.1); it is still recorded, and the unpause supersedes it too.
      // A stop still stops the agent of a session that was already paused.
      const state = withReversible(record.state, intervention);
      await this.save(record, command.stop_agent ? { ...state, window: { ...state.window, stops_agent: true } } : state);
      await this.publishIntervention(record, intervention);
      if (command.stop_agent) await this.options.publish(stopControl(record.agentId, record.sessionId, message.id, command.operator_id, command.reason!));
      return { status: 'ok', note: 'already_paused' };
    }
    await this.pause(record, {
      trigger: 'operator',
      operatorId: command.operator_id,
      reason: command.reason!,
      causeId: message.id,
      reversible: [intervention],
      ...(command.stop_agent ? { stopsAgent: true } : {}),
    });
    await this.publishIntervention(record, intervention);
    if (command.stop_agent) await this.options.publish(stopControl(record.agentId, record.sessionId, message.id, command.operator_id, command.reason!));
    return { status: 'ok' };
  }

  private async rewrite(record: SessionRecord, command: HitlCommand, message: MessageOf<'gate.command'>): Promise<CommandOutcome> {
    const state = record.state;
    const traceId = command.original_trace_id!;
    const indexed = state ? record.index.find((e) => e.trace_id === traceId) : undefined;
    if (!state || !indexed) return { status: 'error', code: 422, reason: 'trace_id_not_found_in_buffer' };
    const entry = await this.stores.buffer.get(indexed.seq);
    const problem = rewriteProblem(entry, command.new_content!);
    if (problem) return { status: 'error', code: 422, reason: problem };
    const previous = state.rewrites[traceId];
    const before = stateHash(entryContent(entry, previous?.new_content));
    const after = stateHash(entryContent(entry, command.new_content));
    const intervention = this.intervention(message.id, 'hitl_rewrite', command.operator_id, before, after, traceId);
    const { state: next, superseded } = withRewrite(state, traceId, { new_content: command.new_content!, operator_id: command.operator_id, record: intervention });
    await this.save(record, next);
    await this.publishIntervention(record, intervention);
    if (superseded) await this.publishIntervention(record, superseded.record, this.now().toISOString());
    return { status: 'ok' };
  }

  private async inject(record: SessionRecord, command: HitlCommand, message: MessageOf<'gate.command'>): Promise<CommandOutcome> {
    const entry: InjectEntry = {
      kind: 'inject',
      window_id: record.state?.window.id ?? '',
      trace_id: message.trace_id,
      source_id: message.id,
      operator_id: command.operator_id,
      prompt: command.prompt!,
      buffered_at: this.now().toISOString(),
    };
    const intervention = this.intervention(message.id, 'hitl_inject', command.operator_id, null, stateHash(entryContent(entry)), message.trace_id);
    if (record.state) {
      await this.append(record, entry);
    } else {
      // Normal: the synthetic message goes to the agent at once (FR-11.4).
      await this.options.publish(injectedControl(record.agentId, record.sessionId, entry));
    }
    await this.publishIntervention(record, intervention);
    return { status: 'ok' };
  }

  private async unpause(record: SessionRecord, command: HitlCommand, message: MessageOf<'gate.command'>, progress?: () => void): Promise<CommandOutcome> {
    const state = record.state;
    if (command.request_id && !state?.requests.some((r) => r.request_id === command.request_id)) {
      const problem = answerProblem(await this.stores.requests.get(command.request_id));
      return { status: 'error', ...(problem ?? { code: 409, reason: 'request_already_answered' }) };
    }
    if (!state) {
      // Nothing to flush: still a processed command (FR-11.3 allows an empty unpause).
      await this.publishIntervention(record, this.intervention(message.id, 'hitl_unpause', command.operator_id, null, null));
      return { status: 'ok', note: 'not_paused' };
    }
    if (command.original_trace_id) {
      // Rewrite-and-approve (FR-11.10): the rewrite must apply, or nothing happens.
      const rewritten = await this.rewrite(record, command, message);
      if (rewritten.status !== 'ok') return rewritten;
    }
    const resolution = command.resolution ?? 'approve';
    await this.resume(
      record,
      {
        resolution,
        operator_id: command.operator_id,
        decided_by: 'operator',
        ...(command.conditions ? { conditions: command.conditions } : {}),
        ...(command.reason ? { reason: command.reason } : {}),
      },
      {
        causeId: message.id,
        ...(command.request_id ? { requestId: command.request_id } : {}),
        ...(resolution === 'reject' ? { rejectionPrompt: command.prompt ?? OPERATOR_REJECTION_PROMPT } : {}),
      },
      progress,
    );
    return { status: 'ok' };
  }

  // ---------------------------------------------------------------- pause, buffer, resume

  private async pause(
    record: SessionRecord,
    how: {
      trigger: PauseTrigger;
      operatorId: string;
      reason: string;
      causeId: string;
      requests?: PendingRequest[];
      requestId?: string;
      reversible?: InterventionRecord[];
      stopsAgent?: boolean;
    },
  ): Promise<void> {
    const window = {
      id: derivedMessageId('hitl.window', how.causeId),
      opened_at: this.now().toISOString(),
      operator_id: how.operatorId,
      reason: how.reason.slice(0, 2000),
      trigger: how.trigger,
      ...(how.requestId ? { request_id: how.requestId } : {}),
      ...(how.stopsAgent ? { stops_agent: true } : {}),
    };
    await this.save(record, openWindow(record.agentId, record.sessionId, window, { requests: how.requests ?? [], reversible: how.reversible ?? [] }));
    record.index = [];
    // The open event (FR-11.8) is published once the pause is stored, before anything of the session is held.
    await this.options.publish(
      createMessage('hitl.paused', {
        id: derivedMessageId('hitl.paused', window.id),
        session_id: record.sessionId,
        agent_id: record.agentId,
        trace_id: window.id,
        causation_id: how.causeId,
        payload: {
          operator_id: window.operator_id,
          reason: window.reason,
          trigger: window.trigger,
          ...(window.request_id ? { request_id: window.request_id } : {}),
        },
      }),
    );
    this.options.metrics.pauses.inc({ trigger: how.trigger });
  }

  private async append(record: SessionRecord, entry: BufferEntry): Promise<void> {
    if (record.index.some((e) => e.source_id === entry.source_id && e.kind === entry.kind)) return;
    const { seq } = await this.stores.buffer.append(record.agentId, record.sessionId, entry);
    if (record.index.some((e) => e.seq === seq)) return;
    record.index.push({ seq, kind: entry.kind, trace_id: entry.trace_id, source_id: entry.source_id });
    this.options.metrics.buffered.inc();
    this.options.metrics.bufferedTotal.inc({ kind: entry.kind });
  }

  /** Unpause: store the flush with everything needed to finish it, then flush (FR-11.3). */
  private async resume(
    record: SessionRecord,
    resolution: Resolution,
    how: { causeId: string; requestId?: string; timedOutRequest?: string; rejectionPrompt?: string },
    progress?: () => void,
  ): Promise<void> {
    const state = record.state!;
    const entries = (await this.stores.buffer.read(record.agentId, record.sessionId)).filter((e) => e.entry.window_id === state.window.id);
    const throughSeq = entries.reduce((max, e) => Math.max(max, e.seq), 0);
    const spec = { ...resolution, window_id: state.window.id, cause_id: how.causeId, through_seq: throughSeq, ...(how.rejectionPrompt ? { rejection_prompt: how.rejectionPrompt } : {}) };
    const plan = planFlush(record.agentId, record.sessionId, entries, state.rewrites, spec);
    const rejectionRecord = how.rejectionPrompt && !rejectionAlreadyInjected(entries, state.window.id, how.rejectionPrompt)
      ? this.intervention(how.causeId, 'hitl_inject', resolution.operator_id, null, stateHash({ kind: 'inject', trace_id: state.window.id, prompt: how.rejectionPrompt }), state.window.id)
      : undefined;
    const flush: FlushState = {
      ...resolution,
      cause_id: how.causeId,
      through_seq: throughSeq,
      planned: plan.length,
      started_at: this.now().toISOString(),
      ...(how.timedOutRequest ? { timed_out_request: how.timedOutRequest } : {}),
      ...(how.requestId ? { request_id: how.requestId } : {}),
      ...(how.rejectionPrompt ? { rejection_prompt: how.rejectionPrompt } : {}),
      ...(rejectionRecord ? { rejection_record: rejectionRecord } : {}),
      unpause_record: this.intervention(how.causeId, 'hitl_unpause', resolution.operator_id, null, null),
    };
    await this.save(record, startFlush(state, flush));
    // The reject path records its inject before anything is flushed (FR-11.10).
    if (rejectionRecord) await this.publishIntervention(record, rejectionRecord);
    await this.flush(record, entries, plan, progress);
  }

  /**
   * Publishes the planned messages in order, each acknowledged before the next, and records progress
   * after each, so that a flush interrupted by a crash resumes where it stopped. Re-publishing the one
   * message whose progress was not yet recorded is harmless: it carries the same id and JetStream drops it.
   */
  private async flush(record: SessionRecord, entries?: StoredEntry[], plan?: OutgoingMessage[], progress?: () => void): Promise<void> {
    const state = record.state!;
    const flush = state.flush!;
    const started = performance.now();
    const spec = {
      ...flush,
      window_id: state.window.id,
      ...(flush.rejection_prompt ? { rejection_prompt: flush.rejection_prompt } : {}),
    };
    plan ??= planFlush(
      record.agentId,
      record.sessionId,
      entries ?? (await this.stores.buffer.read(record.agentId, record.sessionId)),
      state.rewrites,
      spec,
    );
    await this.answerRequests(record, flush);
    const { agentId, sessionId } = record;
    let published = await this.stores.states.cursor(agentId, sessionId, state.window.id);
    // FR-11.3 wants a partial flush visible to operators; here it is also finished.
    if (published > 0) this.options.log.error({ session_id: sessionId, agent_id: agentId, published, planned: plan.length }, 'resuming an interrupted flush');
    const verdicts = new Map((entries ?? (await this.stores.buffer.read(agentId, sessionId))).flatMap((e) => (e.entry.kind === 'decision' ? [[e.entry.action_id, e.entry.verdict] as const] : [])));
    let recording: Promise<void> | undefined;
    for (let i = published; i < plan.length; i++) {
      const message = plan[i]!;
      const verdict = message.type === 'decision.made' ? verdicts.get(message.payload.action_id) : undefined;
      await Promise.all([verdict ? this.decisions.send(message as MessageOf<'decision.made'>, verdict) : this.options.publish(message as AnyMessage), recording]);
      published = i + 1;
      recording = this.stores.states.putCursor(agentId, sessionId, state.window.id, published);
      this.options.afterFlushed?.(published);
      if (published % PROGRESS_EVERY === 0) progress?.();
    }
    await recording;
    this.options.metrics.flushed.inc(Math.max(0, plan.length));
    for (const message of plan) if (message.type === 'decision.made') this.options.metrics.decisions.inc({ decision: message.payload.decision, verdict: message.payload.verdict });
    await this.close(record, flush);
    this.options.metrics.flushDuration.observe((performance.now() - started) / 1000);
  }

  /** After the flush: close event, reversals, the unpause's own record, and the session back to Normal. */
  private async close(record: SessionRecord, flush: FlushState): Promise<void> {
    const state = record.state!;
    const now = this.now().toISOString();
    await this.options.publish(
      createMessage('hitl.resumed', {
        id: derivedMessageId('hitl.resumed', state.window.id),
        session_id: record.sessionId,
        agent_id: record.agentId,
        trace_id: state.window.id,
        causation_id: flush.cause_id,
        payload: { operator_id: flush.operator_id, flushed: flush.planned, resolution: flush.resolution },
      }),
    );
    for (const reversed of state.reversible) await this.publishIntervention(record, reversed, now);
    await this.publishIntervention(record, flush.unpause_record);
    if (flush.resolution === 'approve') await this.rememberApprovals(record, state);
    if (flush.resolution === 'approve' && (state.window.operator_id === STOPPING_PARTICIPANT || state.window.stops_agent)) {
      await this.options.publish(resumeControl(record.agentId, record.sessionId, state.window, flush.operator_id));
    }
    await this.stores.buffer.purge(record.agentId, record.sessionId);
    await this.stores.states.removeCursor(record.agentId, record.sessionId);
    await this.stores.states.remove(record.agentId, record.sessionId, record.revision);
    this.disarm(record);
    this.options.metrics.buffered.dec(record.index.length);
    record.state = null;
    record.revision = null;
    record.index = [];
  }

  // ---------------------------------------------------------------- human gates

  /** Why a verdict must wait for an operator (FR-11.9), or null when it may pass. */
  private holdOf(verdict: Verdict, facts: SessionFacts | undefined): { holds: Exclude<PauseTrigger, 'operator'>[]; gates: HumanGate[]; context?: GateContext } | null {
    const holds: Exclude<PauseTrigger, 'operator'>[] = [];
    if (verdict.control?.hitl_required === true) holds.push('hitl_required_flag');
    if (verdict.payload.verdict === 'require_approval' && !this.decisions.delegated(verdict)) holds.push('require_approval');
    let gates: HumanGate[] = [];
    let context: GateContext | undefined;
    // Gates guard what would run: a blocked action is denied anyway.
    const gateList = this.options.gates();
    if (gateList.length && verdict.payload.verdict !== 'block') {
      context = gateContext(verdict, facts);
      gates = triggeredGates(gateList, context, facts?.approvals ?? []);
      if (gates.length) holds.push('gate');
    }
    return holds.length ? { holds, gates, ...(context ? { context } : {}) } : null;
  }

  /** The requests a held verdict opens: one per triggered gate that has none pending in this window. */
  private requestsFor(verdict: Verdict, hold: { gates: HumanGate[]; context?: GateContext }): { pending: PendingRequest; record: GateRequestRecord }[] {
    const record = this.sessions.get(keyOf(verdict.agent_id, verdict.session_id));
    const requests: { pending: PendingRequest; record: GateRequestRecord }[] = [];
    for (const gate of hold.gates) {
      const requestId = derivedMessageId('gate.request', `${verdict.id}:${gate.id}`);
      const open = record?.state?.requests.find((r) => r.gate_id === gate.id);
      // One answer serves every action a gate held in this window; a redelivered verdict re-announces its own.
      if (open && open.request_id !== requestId) continue;
      const requestedAt = open ? new Date(open.requested_at) : this.now();
      const pending: PendingRequest = open ?? {
        request_id: requestId,
        gate_id: gate.id,
        requested_at: requestedAt.toISOString(),
        expires_at: new Date(requestedAt.getTime() + gate.timeout_ms).toISOString(),
        timeout_ms: gate.timeout_ms,
        on_timeout: gate.on_timeout,
        escalation: gate.escalation,
        once_per: gate.once_per,
        trace_id: verdict.trace_id,
        action_id: verdict.payload.action_id,
      };
      const context = hold.context!;
      requests.push({
        pending,
        record: {
          request_id: pending.request_id,
          gate_id: gate.id,
          session_id: verdict.session_id,
          agent_id: verdict.agent_id,
          trace_id: verdict.trace_id,
          action_id: verdict.payload.action_id,
          ...(context.phase ? { phase: context.phase } : {}),
          prompt: gate.prompt,
          summary: summaryOf(gate, context),
          details: detailsOf(context),
          timeout_ms: gate.timeout_ms,
          escalation: gate.escalation,
          on_timeout: gate.on_timeout,
          requested_at: pending.requested_at,
          expires_at: pending.expires_at,
          status: 'pending',
        },
      });
    }
    return requests;
  }

  /** Stores the request for the API, tells the suite (gate.requested) and starts waiting for its timeout. */
  private async announceRequest(record: SessionRecord, pending: PendingRequest, request: GateRequestRecord): Promise<void> {
    const stored = await this.stores.requests.get(pending.request_id);
    if (!stored) await this.stores.requests.put(request);
    await this.options.publish(
      createMessage('gate.requested', {
        id: derivedMessageId('gate.requested', pending.request_id),
        session_id: record.sessionId,
        agent_id: record.agentId,
        trace_id: pending.trace_id,
        payload: {
          request_id: pending.request_id,
          gate_id: pending.gate_id,
          prompt: request.prompt,
          summary: request.summary,
          timeout_ms: pending.timeout_ms,
          escalation: pending.escalation,
          ...(pending.action_id ? { action_id: pending.action_id } : {}),
          ...(request.phase ? { phase: request.phase } : {}),
          details: request.details,
          on_timeout: pending.on_timeout,
          expires_at: pending.expires_at,
        },
      }),
    );
    if (!stored) this.options.metrics.requests.inc({ gate: pending.gate_id, outcome: 'requested' });
    this.arm(record, pending);
  }

  /** Every request still pending when the session resumes is answered by that resumption. */
  private async answerRequests(record: SessionRecord, flush: FlushState): Promise<void> {
    const now = this.now();
    for (const pending of record.state!.requests) {
      const timedOut = flush.timed_out_request === pending.request_id;
      const outcome = outcomeOf(flush.resolution, flush.conditions, timedOut);
      const approver = flush.decided_by === 'gate_timeout' ? 'system' : flush.operator_id;
      const stored = await this.stores.requests.get(pending.request_id);
      const responseMs = Math.max(0, now.getTime() - Date.parse(pending.requested_at));
      if (!stored || stored.status === 'pending') {
        await this.stores.requests.put({
          ...(stored ?? ({ request_id: pending.request_id, gate_id: pending.gate_id } as GateRequestRecord)),
          status: outcome,
          answered_at: now.toISOString(),
          approver,
          ...(flush.reason ? { reason: flush.reason } : {}),
          ...(flush.conditions ? { conditions: flush.conditions } : {}),
        });
        this.options.metrics.requests.inc({ gate: pending.gate_id, outcome });
        this.options.metrics.responseTime.observe({ gate: pending.gate_id }, responseMs / 1000);
      }
      await this.options.publish(
        createMessage('gate.responded', {
          id: derivedMessageId('gate.responded', pending.request_id),
          session_id: record.sessionId,
          agent_id: record.agentId,
          trace_id: pending.trace_id,
          causation_id: flush.cause_id,
          payload: {
            request_id: pending.request_id,
            gate_id: pending.gate_id,
            approved: flush.resolution === 'approve',
            approver,
            ...(timedOut ? { reason: 'TIMEOUT' } : flush.reason ? { reason: flush.reason } : {}),
            ...(flush.conditions ? { conditions: flush.conditions } : {}),
            response_ms: responseMs,
            outcome,
          },
        }),
      );
    }
  }

  /** A gate's timeout (seed 002 §6.2): escalate, then resolve the session by the gate's on-timeout policy. */
  private onTimeout(agentId: string, sessionId: string, requestId: string): Promise<void> {
    return this.inLane(agentId, sessionId, async () => {
      this.timers.delete(requestId);
      if (this.stopped || !this.options.owns(partitionOf(sessionId, this.options.partitions))) return;
      const record = await this.record(agentId, sessionId);
      const pending = record.state?.status === 'paused' ? record.state.requests.find((r) => r.request_id === requestId) : undefined;
      if (!pending) return;
      await this.options.publish(
        createMessage('gate.escalated', {
          id: derivedMessageId('gate.escalated', requestId),
          session_id: sessionId,
          agent_id: agentId,
          trace_id: pending.trace_id,
          payload: { request_id: requestId, gate_id: pending.gate_id, escalation: pending.escalation, reason: 'TIMEOUT', timeout_ms: pending.timeout_ms },
        }),
      );
      const stored = await this.stores.requests.get(requestId);
      if (stored && !stored.escalated_at) await this.stores.requests.put({ ...stored, escalated_at: this.now().toISOString() });
      this.options.metrics.requests.inc({ gate: pending.gate_id, outcome: 'escalated' });
      const resolution = pending.on_timeout === 'approve' ? 'approve' : 'reject';
      this.options.log.warn({ session_id: sessionId, agent_id: agentId, request_id: requestId, gate_id: pending.gate_id, escalation: pending.escalation, resolution }, 'gate request timed out; escalated');
      await this.resume(
        record,
        { resolution, operator_id: 'system', decided_by: 'gate_timeout', reason: 'TIMEOUT' },
        { causeId: `timeout:${requestId}`, timedOutRequest: requestId, ...(resolution === 'reject' ? { rejectionPrompt: TIMEOUT_REJECTION_PROMPT } : {}) },
      );
    }).catch((error: Error) => {
      this.options.log.error({ err: error, session_id: sessionId, request_id: requestId }, 'gate timeout failed; retrying');
      const retry = setTimeout(() => void this.onTimeout(agentId, sessionId, requestId), 1000);
      retry.unref();
      this.timers.set(requestId, retry);
    });
  }

  private arm(record: SessionRecord, pending: PendingRequest): void {
    if (this.stopped || this.timers.has(pending.request_id)) return;
    // No polling: one timer per pending request, armed again by whichever replica owns the session next.
    const delay = Math.max(0, Date.parse(pending.expires_at) - this.now().getTime());
    const timer = setTimeout(() => void this.onTimeout(record.agentId, record.sessionId, pending.request_id), delay);
    timer.unref();
    this.timers.set(pending.request_id, timer);
  }

  private disarm(record: SessionRecord): void {
    for (const pending of record.state?.requests ?? []) {
      clearTimeout(this.timers.get(pending.request_id));
      this.timers.delete(pending.request_id);
    }
  }

  private async rememberApprovals(record: SessionRecord, state: SessionRelayState): Promise<void> {
    const keys = state.requests.filter((r) => r.once_per !== 'action');
    if (!keys.length) return;
    const facts = (await this.sessionFacts(record.agentId, record.sessionId)) ?? {};
    const approvals = new Set(facts.approvals ?? []);
    for (const request of keys) {
      const key = approvalKey({ id: request.gate_id, once_per: request.once_per }, facts.phase);
      if (key) approvals.add(key);
    }
    const next = { ...facts, approvals: [...approvals] };
    await this.stores.facts.put(record.agentId, record.sessionId, next);
    this.facts.set(keyOf(record.agentId, record.sessionId), next);
  }

  // ---------------------------------------------------------------- records

  private intervention(
    commandId: string,
    type: HitlCommandType,
    operatorId: string,
    before: string | null,
    after: string | null,
    targetTraceId?: string,
  ): InterventionRecord {
    return {
      intervention_id: derivedMessageId('hitl.intervention', `${commandId}:${type}`),
      operator_id: operatorId,
      command_type: type,
      before_state: before,
      after_state: after,
      occurred_at: this.now().toISOString(),
      ...(targetTraceId ? { target_trace_id: targetTraceId } : {}),
      command_id: commandId.slice(0, 128),
    };
  }

  /** The audit record of a command (FR-11.7); published again with reversed_at when superseded. */
  private async publishIntervention(record: SessionRecord, intervention: InterventionRecord, reversedAt?: string): Promise<void> {
    const id = derivedMessageId('hitl.intervention_recorded', reversedAt ? `${intervention.intervention_id}:reversed` : intervention.intervention_id);
    await this.options.publish(
      createMessage('hitl.intervention_recorded', {
        id,
        session_id: record.sessionId,
        agent_id: record.agentId,
        trace_id: intervention.intervention_id,
        ...(intervention.command_id ? { causation_id: intervention.command_id } : {}),
        payload: { ...intervention, reversed_at: reversedAt ?? null },
      }),
    );
  }

  private async publishDecision(verdict: Verdict): Promise<void> {
    const decision = decisionFromVerdict(verdict.payload, this.decisions.delegated(verdict));
    // One decision per action: the id derives from the action, so a redelivered verdict is de-duplicated.
    const message = createMessage('decision.made', {
      id: decisionId(verdict.agent_id, verdict.session_id, verdict.payload.action_id),
      session_id: verdict.session_id,
      agent_id: verdict.agent_id,
      trace_id: verdict.trace_id,
      causation_id: verdict.id,
      payload: decision,
    });
    if (await this.decisions.send(message, verdict)) this.options.metrics.decisions.inc({ decision: decision.decision, verdict: decision.verdict });
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
        if (record) {
          this.disarm(record);
          if (record.state) this.options.metrics.buffered.dec(record.index.length);
        }
        this.sessions.delete(key);
        throw error;
      }
    });
  }

  /** The session's record: cached, or loaded (finishing a flush a crash interrupted, re-arming its gate timeouts). */
  private async record(agentId: string, sessionId: string): Promise<SessionRecord> {
    const key = keyOf(agentId, sessionId);
    const cached = this.sessions.get(key);
    if (cached) return cached;
    const loaded = await this.stores.states.load(agentId, sessionId);
    const record: SessionRecord = { agentId, sessionId, state: loaded.state, revision: loaded.revision, index: [] };
    if (record.state) {
      const entries = await this.stores.buffer.read(agentId, sessionId);
      record.index = entries
        .filter((e) => e.entry.window_id === record.state!.window.id)
        .map((e) => ({ seq: e.seq, kind: e.entry.kind, trace_id: e.entry.trace_id, source_id: e.entry.source_id }));
      this.options.metrics.buffered.inc(record.index.length);
      this.remember(key, record);
      if (record.state.status === 'flushing') {
        this.options.log.error({ session_id: sessionId, agent_id: agentId }, 'found an interrupted flush; finishing it');
        await this.flush(record, entries);
      } else {
        for (const pending of record.state.requests) this.arm(record, pending);
      }
      return record;
    }
    this.remember(key, record);
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

  private async save(record: SessionRecord, state: SessionRelayState): Promise<void> {
    record.revision = await this.stores.states.save(state, record.revision);
    record.state = state;
  }
}
