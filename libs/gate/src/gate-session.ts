import { derivedMessageId, OPERATOR_REJECTION_PROMPT, type AnyMessage, type MessageOf } from '@warden/contracts';
import { deadlineDue, escalatedPending, NO_DEADLINE_SETTINGS, requestDeadlines, timeoutReason, type DeadlineSettings, type EscalationRun } from './approval-deadlines.js';
import { entryContent, rewriteProblem, type BufferEntry, type DecisionEntry, type InjectEntry, type PauseTrigger, type StoredEntry, type Verdict } from './buffer-entry.js';
import { stateHash } from './canonical-hash.js';
import type { Resolution } from './decision-policy.js';
import { injectedControl, planFlush, rejectionAlreadyInjected, resumeControl, STOPPING_PARTICIPANT, stopControl, type OutgoingMessage } from './flush-plan.js';
import {
  decisionMessage,
  escalatedMessage,
  escalationStepMessage,
  interventionMessage,
  interventionRecord,
  pausedMessage,
  requestedMessage,
  respondedMessage,
  resumedMessage,
  type SessionAddress,
} from './gate-messages.js';
import { approvalDigest, outcomeOf, type GateRequestRecord } from './gate-request.js';
import type { HitlCommand } from './hitl-command.js';
import { approvalKey, detailsOf, gateContext, summaryOf, triggeredGates, type GateContext, type HumanGate, type SessionFacts } from './human-gates.js';
import { openWindow, startFlush, withRequest, withReversible, withRewrite, type FlushState, type InterventionRecord, type PendingRequest, type SessionRelayState } from './relay-state.js';

/**
 * The gate of one session as a pure aggregate: it takes a verdict, a command, a timeout or a session
 * event with the session as stored, and returns what is to be done, in order — the effects. The shell
 * (relay/) reads what an effect needs, runs the effects, and knows nothing of the rules.
 */
export type GateEffect =
  /** Store the session's relay state (compare-and-set). */
  | { kind: 'save'; state: SessionRelayState }
  | { kind: 'publish'; message: AnyMessage }
  /** The decision of a verdict, sent once per action id. */
  | { kind: 'decide'; message: MessageOf<'decision.made'>; verdict: Verdict }
  /** Hold an entry in the session's buffer. */
  | { kind: 'buffer'; entry: BufferEntry }
  /** Store a human-gate request (unless stored), announce it and wait for its deadlines. */
  | { kind: 'request'; pending: PendingRequest; record: GateRequestRecord; message: AnyMessage }
  /** An escalation step: recorded with the request, its channels asked, announced (each at most once). */
  | { kind: 'escalate'; pending: PendingRequest; run: EscalationRun; message: AnyMessage }
  | { kind: 'paused'; trigger: PauseTrigger };

/** The answer to a command, sent back to whoever issued it (HTTP status and FR-11.5 body). */
export type CommandOutcome = { status: 'ok'; note?: string } | { status: 'error'; code: 404 | 409 | 422; reason: string };

/** What the agent is told, after why, when nobody answered a gate by its final deadline. */
export const TIMEOUT_REJECTION_ADVICE = 'Do not retry it without an approval.';

/** A session as the gate holds it. */
export interface GateView extends SessionAddress {
  state: SessionRelayState | undefined;
}

/** Why a verdict must wait for an operator (FR-11.9). */
export interface Hold {
  holds: Exclude<PauseTrigger, 'operator'>[];
  gates: HumanGate[];
  context?: GateContext;
}

/** Why a verdict must wait (FR-11.9), or null when it may pass. `delegated`: the agent's own user answers require_approval. */
export function holdOf(verdict: Verdict, facts: SessionFacts | undefined, gates: readonly HumanGate[], delegated: boolean): Hold | null {
  const holds: Hold['holds'] = [];
  if (verdict.control?.hitl_required === true) holds.push('hitl_required_flag');
  if (verdict.payload.verdict === 'require_approval' && !delegated) holds.push('require_approval');
  let triggered: HumanGate[] = [];
  let context: GateContext | undefined;
  // Gates guard what would run: a blocked action is denied anyway.
  if (gates.length && verdict.payload.verdict !== 'block') {
    context = gateContext(verdict, facts);
    triggered = triggeredGates(gates, context, facts?.approvals ?? []);
    if (triggered.length) holds.push('gate');
  }
  return holds.length ? { holds, gates: triggered, ...(context ? { context } : {}) } : null;
}

/**
 * A reviewer verdict: `pass` — its decision goes out; otherwise it is held (the session paused by it if
 * it was not), after the shell made sure its action id was not decided before.
 */
export function onVerdict(
  view: GateView,
  verdict: Verdict,
  hold: Hold | null,
  now: Date,
  delegated: boolean,
  deadlines: DeadlineSettings = NO_DEADLINE_SETTINGS,
): { pass: boolean; effects: GateEffect[] } {
  if (!view.state && !hold) return { pass: true, effects: [{ kind: 'decide', message: decisionMessage(verdict, delegated), verdict }] };
  const effects: GateEffect[] = [];
  const requests = hold ? requestsFor(view, verdict, hold, now, deadlines) : [];
  let state = view.state;
  if (!state) {
    const trigger = hold!.holds[0]!;
    const reason =
      trigger === 'hitl_required_flag'
        ? 'hitl_required_flag'
        : trigger === 'require_approval'
          ? `require_approval: ${verdict.payload.reasons[0] ?? 'the reviewer asks for an approval'}`
          : `gate: ${requests.map((r) => r.pending.gate_id).join(', ')}`;
    state = pause(view, { trigger, operatorId: 'system', reason, causeId: verdict.id, requests: requests.map((r) => r.pending), ...(requests[0] ? { requestId: requests[0].pending.request_id } : {}) }, now, effects);
  } else if (requests.length) {
    const before = state;
    for (const request of requests) state = withRequest(state, request.pending);
    if (state !== before) effects.push({ kind: 'save', state });
  }
  for (const request of requests) effects.push({ kind: 'request', ...request, message: requestedMessageOf(view, request) });
  const entry: DecisionEntry = {
    kind: 'decision',
    window_id: state.window.id,
    trace_id: verdict.trace_id,
    source_id: verdict.id,
    action_id: verdict.payload.action_id,
    needs_approval: !!hold,
    holds: hold?.holds ?? [],
    ...(hold?.gates.length ? { gate_ids: hold.gates.map((g) => g.id) } : {}),
    verdict,
    buffered_at: now.toISOString(),
  };
  effects.push({ kind: 'buffer', entry });
  return { pass: false, effects };
}

/** The session facts after a lifecycle event (undefined: forget them, the session ended). */
export function factsAfter(
  message: MessageOf<'session.started'> | MessageOf<'session.phase_changed'> | MessageOf<'session.ended'>,
  previous: SessionFacts | undefined,
): SessionFacts | undefined {
  if (message.type === 'session.ended') return undefined;
  if (message.type === 'session.started') {
    return {
      ...(message.payload.phase ? { phase: message.payload.phase } : {}),
      ...(message.payload.environment ? { environment: message.payload.environment } : {}),
      ...(message.payload.context.goal ? { goal: message.payload.context.goal } : {}),
      approvals: previous?.approvals ?? [],
    };
  }
  // Approvals "once per phase" last until the phase ends.
  return { ...previous, phase: message.payload.phase, approvals: (previous?.approvals ?? []).filter((a) => !a.includes('@')) };
}

/** An operator's pause (FR-11.1): a second one changes nothing but is recorded; a stop still stops the agent. */
export function onPause(view: GateView, command: HitlCommand, commandId: string, now: Date): { outcome: CommandOutcome; effects: GateEffect[] } {
  const effects: GateEffect[] = [];
  const intervention = interventionRecord(commandId, 'hitl_pause', command.operator_id, { before: null, after: null }, now);
  const stop = command.stop_agent ? [publish(stopControl(view.agentId, view.sessionId, commandId, command.operator_id, command.reason!))] : [];
  if (view.state) {
    const state = withReversible(view.state, intervention);
    effects.push({ kind: 'save', state: command.stop_agent ? { ...state, window: { ...state.window, stops_agent: true } } : state });
    effects.push(publish(interventionMessage(view, intervention)), ...stop);
    return { outcome: { status: 'ok', note: 'already_paused' }, effects };
  }
  pause(view, { trigger: 'operator', operatorId: command.operator_id, reason: command.reason!, causeId: commandId, reversible: [intervention], ...(command.stop_agent ? { stopsAgent: true } : {}) }, now, effects);
  effects.push(publish(interventionMessage(view, intervention)), ...stop);
  return { outcome: { status: 'ok' }, effects };
}

/** An operator's rewrite of a held message (FR-11.2); `entry` is the buffered one with that trace id, if any. */
export function onRewrite(view: GateView, command: HitlCommand, commandId: string, entry: BufferEntry | undefined, now: Date): { outcome: CommandOutcome; state?: SessionRelayState; effects: GateEffect[] } {
  const state = view.state;
  const traceId = command.original_trace_id!;
  if (!state || !entry) return { outcome: { status: 'error', code: 422, reason: 'trace_id_not_found_in_buffer' }, effects: [] };
  const problem = rewriteProblem(entry, command.new_content!);
  if (problem) return { outcome: { status: 'error', code: 422, reason: problem }, effects: [] };
  const previous = state.rewrites[traceId];
  const before = stateHash(entryContent(entry, previous?.new_content));
  const after = stateHash(entryContent(entry, command.new_content));
  const intervention = interventionRecord(commandId, 'hitl_rewrite', command.operator_id, { before, after }, now, traceId);
  const { state: next, superseded } = withRewrite(state, traceId, { new_content: command.new_content!, operator_id: command.operator_id, record: intervention });
  const effects: GateEffect[] = [{ kind: 'save', state: next }, publish(interventionMessage(view, intervention))];
  if (superseded) effects.push(publish(interventionMessage(view, superseded.record, now.toISOString())));
  return { outcome: { status: 'ok' }, state: next, effects };
}

/** An operator's message to the agent (FR-11.4): held while paused, sent at once otherwise. */
export function onInject(view: GateView, command: HitlCommand, message: MessageOf<'gate.command'>, now: Date): GateEffect[] {
  const entry: InjectEntry = {
    kind: 'inject',
    window_id: view.state?.window.id ?? '',
    trace_id: message.trace_id,
    source_id: message.id,
    operator_id: command.operator_id,
    prompt: command.prompt!,
    buffered_at: now.toISOString(),
  };
  const intervention = interventionRecord(message.id, 'hitl_inject', command.operator_id, { before: null, after: stateHash(entryContent(entry)) }, now, message.trace_id);
  return [view.state ? { kind: 'buffer', entry } : publish(injectedControl(view.agentId, view.sessionId, entry)), publish(interventionMessage(view, intervention))];
}

/** An unpause of a session that is not paused: nothing to flush, still a processed command (FR-11.3). */
export function onIdleUnpause(view: GateView, command: HitlCommand, commandId: string, now: Date): GateEffect[] {
  return [publish(interventionMessage(view, interventionRecord(commandId, 'hitl_unpause', command.operator_id, { before: null, after: null }, now)))];
}

/** How an unpause resumes the session (the operator's, or a gate's timeout). */
export interface ResumeHow {
  causeId: string;
  requestId?: string;
  timedOutRequest?: string;
  rejectionPrompt?: string;
}

/**
 * Unpause (FR-11.3): the flush is stored with everything needed to finish it — `entries` are the
 * session's buffer — then the shell publishes `plan` in order. The reject path records its inject first.
 */
export function onResume(view: GateView, entries: StoredEntry[], resolution: Resolution, how: ResumeHow, now: Date): { state: SessionRelayState; plan: OutgoingMessage[]; effects: GateEffect[] } {
  const state = view.state!;
  const windowEntries = entries.filter((e) => e.entry.window_id === state.window.id);
  const throughSeq = windowEntries.reduce((max, e) => Math.max(max, e.seq), 0);
  const spec = { ...resolution, window_id: state.window.id, cause_id: how.causeId, through_seq: throughSeq, ...(how.rejectionPrompt ? { rejection_prompt: how.rejectionPrompt } : {}) };
  const plan = planFlush(view.agentId, view.sessionId, windowEntries, state.rewrites, spec);
  const rejectionRecord =
    how.rejectionPrompt && !rejectionAlreadyInjected(windowEntries, state.window.id, how.rejectionPrompt)
      ? interventionRecord(how.causeId, 'hitl_inject', resolution.operator_id, { before: null, after: stateHash({ kind: 'inject', trace_id: state.window.id, prompt: how.rejectionPrompt }) }, now, state.window.id)
      : undefined;
  const flush: FlushState = {
    ...resolution,
    cause_id: how.causeId,
    through_seq: throughSeq,
    planned: plan.length,
    started_at: now.toISOString(),
    ...(how.timedOutRequest ? { timed_out_request: how.timedOutRequest } : {}),
    ...(how.requestId ? { request_id: how.requestId } : {}),
    ...(how.rejectionPrompt ? { rejection_prompt: how.rejectionPrompt } : {}),
    ...(rejectionRecord ? { rejection_record: rejectionRecord } : {}),
    unpause_record: interventionRecord(how.causeId, 'hitl_unpause', resolution.operator_id, { before: null, after: null }, now),
  };
  const next = startFlush(state, flush);
  const effects: GateEffect[] = [{ kind: 'save', state: next }];
  if (rejectionRecord) effects.push(publish(interventionMessage(view, rejectionRecord)));
  return { state: next, plan, effects };
}

/** The plan of a flush being resumed after a crash, from what it stored. */
export function flushPlanOf(view: GateView, entries: StoredEntry[]): OutgoingMessage[] {
  const state = view.state!;
  const flush = state.flush!;
  return planFlush(view.agentId, view.sessionId, entries, state.rewrites, { ...flush, window_id: state.window.id, ...(flush.rejection_prompt ? { rejection_prompt: flush.rejection_prompt } : {}) });
}

/** How the resumption answers a pending request: the record to store (unless answered already) and the event. */
export function answerOf(view: GateView, pending: PendingRequest, flush: FlushState, stored: GateRequestRecord | undefined, now: Date): { record?: GateRequestRecord; outcome: GateRequestRecord['status']; responseMs: number; message: AnyMessage } {
  const timedOut = flush.timed_out_request === pending.request_id;
  const outcome = outcomeOf(flush.resolution, flush.conditions, timedOut);
  const approver = flush.decided_by === 'gate_timeout' ? 'system' : flush.operator_id;
  const responseMs = Math.max(0, now.getTime() - Date.parse(pending.requested_at));
  const record: GateRequestRecord | undefined =
    !stored || stored.status === 'pending'
      ? {
          ...(stored ?? ({ request_id: pending.request_id, gate_id: pending.gate_id } as GateRequestRecord)),
          status: outcome,
          answered_at: now.toISOString(),
          approver,
          ...(flush.channel && flush.decided_by !== 'gate_timeout' ? { channel: flush.channel } : {}),
          ...(flush.digest && flush.request_id === pending.request_id ? { answered_digest: flush.digest } : {}),
          ...(flush.reason ? { reason: flush.reason } : {}),
          ...(flush.conditions ? { conditions: flush.conditions } : {}),
        }
      : undefined;
  return { ...(record ? { record } : {}), outcome, responseMs, message: respondedMessage(view, pending, flush, { approver, timedOut, outcome, responseMs }) };
}

/**
 * After the flush: the close event, the reversals, the unpause's own record, the standing approvals an
 * approval leaves (undefined: unchanged) and, for an approved emergency stop, the agent told to go on.
 */
export function onFlushed(view: GateView, facts: SessionFacts | undefined, now: Date): { messages: AnyMessage[]; facts?: SessionFacts; resume?: AnyMessage } {
  const state = view.state!;
  const flush = state.flush!;
  const at = now.toISOString();
  const messages: AnyMessage[] = [resumedMessage(view, state, flush), ...state.reversible.map((r) => interventionMessage(view, r, at)), interventionMessage(view, flush.unpause_record)];
  const approved = flush.resolution === 'approve';
  const approvals = approved ? approvalsAfter(state, facts) : undefined;
  const stopped = approved && (state.window.operator_id === STOPPING_PARTICIPANT || state.window.stops_agent);
  return { messages, ...(approvals ? { facts: approvals } : {}), ...(stopped ? { resume: resumeControl(view.agentId, view.sessionId, state.window, flush.operator_id) } : {}) };
}

/** What a request's deadline timer finds: not due yet, an escalation step to run, or the final deadline. */
export type DeadlineOutcome =
  | { kind: 'wait'; pending: PendingRequest }
  | { kind: 'escalate'; pending: PendingRequest; run: EscalationRun; effects: GateEffect[] }
  | { kind: 'expire'; pending: PendingRequest; escalation: AnyMessage; resolution: Resolution; how: ResumeHow };

/**
 * A request's deadline (seed 002 §6.2, with escalation steps): undefined when it is no longer pending.
 * An escalation step is recorded, told and announced before the state saying it ran is stored, so a
 * gate that dies between the two runs it again, and each of those effects happens at most once. At the
 * final deadline the session is resumed with a denial — whatever the request says, silence never approves.
 */
export function onDeadline(view: GateView, requestId: string, now: Date): DeadlineOutcome | undefined {
  const state = view.state;
  const pending = state?.status === 'paused' ? state.requests.find((r) => r.request_id === requestId) : undefined;
  if (!state || !pending) return undefined;
  const due = deadlineDue(pending, now);
  if (due.kind === 'wait') return { kind: 'wait', pending };
  if (due.kind === 'escalate') {
    const next = escalatedPending(pending, due.run);
    const saved = { ...state, requests: state.requests.map((r) => (r.request_id === requestId ? next : r)) };
    return {
      kind: 'escalate',
      pending: next,
      run: due.run,
      effects: [{ kind: 'escalate', pending: next, run: due.run, message: escalationStepMessage(view, next, due.run) as AnyMessage }, { kind: 'save', state: saved }],
    };
  }
  const reason = timeoutReason(pending);
  return {
    kind: 'expire',
    pending,
    escalation: escalatedMessage(view, pending),
    resolution: { resolution: 'reject', operator_id: 'system', decided_by: 'gate_timeout', reason },
    how: { causeId: `timeout:${requestId}`, timedOutRequest: requestId, rejectionPrompt: `${reason} ${TIMEOUT_REJECTION_ADVICE}` },
  };
}

/** The resolution an operator's unpause gives. */
export function unpauseResolution(command: HitlCommand, commandId: string): { resolution: Resolution; how: ResumeHow } {
  const resolution = command.resolution ?? 'approve';
  return {
    resolution: {
      resolution,
      operator_id: command.operator_id,
      decided_by: 'operator',
      ...(command.conditions ? { conditions: command.conditions } : {}),
      ...(command.reason ? { reason: command.reason } : {}),
      ...(command.channel ? { channel: command.channel } : {}),
      ...(command.digest ? { digest: command.digest } : {}),
    },
    how: {
      causeId: commandId,
      ...(command.request_id ? { requestId: command.request_id } : {}),
      ...(resolution === 'reject' ? { rejectionPrompt: command.prompt ?? OPERATOR_REJECTION_PROMPT } : {}),
    },
  };
}

// ---------------------------------------------------------------------------------------------------

const publish = (message: AnyMessage): GateEffect => ({ kind: 'publish', message });

function pause(
  view: GateView,
  how: { trigger: PauseTrigger; operatorId: string; reason: string; causeId: string; requests?: PendingRequest[]; requestId?: string; reversible?: InterventionRecord[]; stopsAgent?: boolean },
  now: Date,
  effects: GateEffect[],
): SessionRelayState {
  const window = {
    id: derivedMessageId('hitl.window', how.causeId),
    opened_at: now.toISOString(),
    operator_id: how.operatorId,
    reason: how.reason.slice(0, 2000),
    trigger: how.trigger,
    ...(how.requestId ? { request_id: how.requestId } : {}),
    ...(how.stopsAgent ? { stops_agent: true } : {}),
  };
  const state = openWindow(view.agentId, view.sessionId, window, { requests: how.requests ?? [], reversible: how.reversible ?? [] });
  // The open event is published once the pause is stored, before anything of the session is held.
  effects.push({ kind: 'save', state }, publish(pausedMessage(view, window, how.causeId) as AnyMessage), { kind: 'paused', trigger: how.trigger });
  return state;
}

/** The requests a held verdict opens: one per triggered gate that has none pending in this window. */
function requestsFor(view: GateView, verdict: Verdict, hold: Hold, now: Date, deadlines: DeadlineSettings): { pending: PendingRequest; record: GateRequestRecord }[] {
  const requests: { pending: PendingRequest; record: GateRequestRecord }[] = [];
  for (const gate of hold.gates) {
    const requestId = derivedMessageId('gate.request', `${verdict.id}:${gate.id}`);
    const open = view.state?.requests.find((r) => r.gate_id === gate.id);
    // One answer serves every action a gate held in this window; a redelivered verdict re-announces its own.
    if (open && open.request_id !== requestId) continue;
    const requestedAt = open ? new Date(open.requested_at) : now;
    const pending: PendingRequest = open ?? {
      request_id: requestId,
      gate_id: gate.id,
      requested_at: requestedAt.toISOString(),
      ...requestDeadlines(deadlines, gate, verdict.agent_id, requestedAt),
      once_per: gate.once_per,
      trace_id: verdict.trace_id,
      action_id: verdict.payload.action_id,
    };
    const context = hold.context!;
    const base: GateRequestRecord = {
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
        timeout_ms: pending.timeout_ms,
        escalation: pending.escalation,
        requested_at: pending.requested_at,
        expires_at: pending.expires_at,
        ...(pending.asked ? { asked: pending.asked } : {}),
        status: 'pending',
    };
    requests.push({ pending, record: { ...base, digest: approvalDigest(base) } });
  }
  return requests;
}

function requestedMessageOf(view: GateView, request: { pending: PendingRequest; record: GateRequestRecord }): AnyMessage {
  return requestedMessage(view, request.pending, request.record) as AnyMessage;
}

/** Standing approvals an approved window leaves: gates approved once per phase or session are not asked again. */
function approvalsAfter(state: SessionRelayState, facts: SessionFacts | undefined): SessionFacts | undefined {
  const standing = state.requests.filter((r) => r.once_per !== 'action');
  if (!standing.length) return undefined;
  const approvals = new Set(facts?.approvals ?? []);
  for (const request of standing) {
    const key = approvalKey({ id: request.gate_id, once_per: request.once_per }, facts?.phase);
    if (key) approvals.add(key);
  }
  return { ...(facts ?? {}), approvals: [...approvals] };
}
