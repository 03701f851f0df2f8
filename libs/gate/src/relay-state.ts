import type { HitlCommandType } from '@warden/contracts';
import type { PlannedStep } from './approval-deadlines.js';
import type { PauseTrigger } from './buffer-entry.js';
import type { Resolution } from './decision-policy.js';

/**
 * The relay state of one session and agent (FR-11.1). Normal has no record at all: only a paused or
 * flushing session is stored, so that the normal path needs nothing but a lookup.
 */
export interface SessionRelayState {
  agent_id: string;
  session_id: string;
  status: 'paused' | 'flushing';
  window: PauseWindow;
  /** Rewrites by the trace id of the buffered message, applied when the buffer is flushed (FR-11.2). */
  rewrites: Record<string, RecordedRewrite>;
  /** Human gate requests waiting for an answer; the session stays paused until they are answered or time out. */
  requests: PendingRequest[];
  /** Pause interventions that the unpause of this window supersedes (their reversed_at is set then). */
  reversible: InterventionRecord[];
  /** Set from the moment an unpause starts to flush until the flush is complete. */
  flush?: FlushState;
}

/** One stretch of time a session was paused; everything buffered belongs to one window. */
export interface PauseWindow {
  id: string;
  opened_at: string;
  operator_id: string;
  reason: string;
  trigger: PauseTrigger;
  request_id?: string;
  /** An operator's emergency stop: the agent was told to stop, and is told to resume when this pause is approved. */
  stops_agent?: boolean;
}

/** The fields of a hitl.intervention_recorded message (FR-11.7), kept to publish its reversal later. */
export interface InterventionRecord {
  intervention_id: string;
  operator_id: string;
  command_type: HitlCommandType;
  before_state: string | null;
  after_state: string | null;
  occurred_at: string;
  target_trace_id?: string;
  command_id?: string;
}

export interface RecordedRewrite {
  new_content: string;
  operator_id: string;
  record: InterventionRecord;
}

/**
 * A human-gate request waiting in a paused session, with its deadlines (see approval-deadlines): stored
 * in the session's state, so whichever replica holds the session next re-arms them from here.
 */
export interface PendingRequest {
  request_id: string;
  gate_id: string;
  requested_at: string;
  /** The final deadline: unanswered then, the request is denied. */
  expires_at: string;
  timeout_ms: number;
  escalation: string;
  /** Approval channels asked so far: at once, then by each escalation step that ran (absent: stored before escalation steps). */
  asked?: string[];
  /** Escalation steps before the final deadline, planned when the request was made. */
  escalation_steps?: PlannedStep[];
  /** How many of them ran. */
  escalated?: number;
  once_per: 'action' | 'phase' | 'session';
  trace_id: string;
  action_id?: string;
}

/** An unpause in progress: everything needed to finish it the same way after a crash. */
export interface FlushState extends Resolution {
  /** The gate.command that unpaused (or the timed-out request), for derived ids. */
  cause_id: string;
  /** Buffer entries up to this stream sequence are flushed; nothing is appended while flushing. */
  through_seq: number;
  /** Messages the flush publishes in all (rejection prompt included). */
  planned: number;
  started_at: string;
  /** The request whose timeout unpaused the session, if any. */
  timed_out_request?: string;
  /** The request this unpause answers explicitly, if any. */
  request_id?: string;
  /** reject: the prompt injected before everything else (FR-11.10). */
  rejection_prompt?: string;
  rejection_record?: InterventionRecord;
  unpause_record: InterventionRecord;
}

export function openWindow(
  agentId: string,
  sessionId: string,
  window: PauseWindow,
  extra: { requests?: PendingRequest[]; reversible?: InterventionRecord[] } = {},
): SessionRelayState {
  return {
    agent_id: agentId,
    session_id: sessionId,
    status: 'paused',
    window,
    rewrites: {},
    requests: extra.requests ?? [],
    reversible: extra.reversible ?? [],
  };
}

/** Records a rewrite; returns the rewrite it supersedes (whose record gets reversed_at), if any. */
export function withRewrite(state: SessionRelayState, traceId: string, rewrite: RecordedRewrite): { state: SessionRelayState; superseded?: RecordedRewrite } {
  const superseded = state.rewrites[traceId];
  return { state: { ...state, rewrites: { ...state.rewrites, [traceId]: rewrite } }, ...(superseded ? { superseded } : {}) };
}

export function withRequest(state: SessionRelayState, request: PendingRequest): SessionRelayState {
  if (state.requests.some((r) => r.request_id === request.request_id)) return state;
  return { ...state, requests: [...state.requests, request] };
}

export function withReversible(state: SessionRelayState, record: InterventionRecord): SessionRelayState {
  return { ...state, reversible: [...state.reversible, record] };
}

export function startFlush(state: SessionRelayState, flush: FlushState): SessionRelayState {
  if (state.status !== 'paused') throw new Error(`cannot flush a session that is ${state.status}`);
  return { ...state, status: 'flushing', flush };
}

/** The pending request a gate already has in this window: one answer serves every action it held. */
export function pendingRequestOfGate(state: SessionRelayState, gateId: string): PendingRequest | undefined {
  return state.requests.find((r) => r.gate_id === gateId);
}
