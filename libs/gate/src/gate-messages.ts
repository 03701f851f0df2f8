import { createMessage, derivedMessageId, type AnyMessage, type HitlCommandType, type MessageOf } from '@warden/contracts';
import type { EscalationRun } from './approval-deadlines.js';
import type { Verdict } from './buffer-entry.js';
import { decisionFromVerdict } from './decision-policy.js';
import { decisionId } from './flush-plan.js';
import type { GateRequestRecord } from './gate-request.js';
import type { FlushState, InterventionRecord, PauseWindow, PendingRequest, SessionRelayState } from './relay-state.js';

/** Where a session's messages go. */
export interface SessionAddress {
  agentId: string;
  sessionId: string;
}

/** The one decision of a verdict that passes: its id derives from the action, so a redelivery is de-duplicated. */
export function decisionMessage(verdict: Verdict, delegated: boolean): MessageOf<'decision.made'> {
  return createMessage('decision.made', {
    id: decisionId(verdict.agent_id, verdict.session_id, verdict.payload.action_id),
    session_id: verdict.session_id,
    agent_id: verdict.agent_id,
    trace_id: verdict.trace_id,
    causation_id: verdict.id,
    payload: decisionFromVerdict(verdict.payload, delegated),
  });
}

/** The open event of a pause (FR-11.8). */
export function pausedMessage(at: SessionAddress, window: PauseWindow, causeId: string): MessageOf<'hitl.paused'> {
  return createMessage('hitl.paused', {
    id: derivedMessageId('hitl.paused', window.id),
    session_id: at.sessionId,
    agent_id: at.agentId,
    trace_id: window.id,
    causation_id: causeId,
    payload: {
      operator_id: window.operator_id,
      reason: window.reason,
      trigger: window.trigger,
      ...(window.request_id ? { request_id: window.request_id } : {}),
    },
  });
}

/** The close event of a pause, once its buffer is flushed. */
export function resumedMessage(at: SessionAddress, state: SessionRelayState, flush: FlushState): MessageOf<'hitl.resumed'> {
  return createMessage('hitl.resumed', {
    id: derivedMessageId('hitl.resumed', state.window.id),
    session_id: at.sessionId,
    agent_id: at.agentId,
    trace_id: state.window.id,
    causation_id: flush.cause_id,
    payload: { operator_id: flush.operator_id, flushed: flush.planned, resolution: flush.resolution },
  });
}

/** A human-gate request announced to the suite. */
export function requestedMessage(at: SessionAddress, pending: PendingRequest, request: GateRequestRecord): MessageOf<'gate.requested'> {
  return createMessage('gate.requested', {
    id: derivedMessageId('gate.requested', pending.request_id),
    session_id: at.sessionId,
    agent_id: at.agentId,
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
      expires_at: pending.expires_at,
      ...(request.digest ? { digest: request.digest } : {}),
    },
  });
}

/** The answer a resumption gives a pending request. */
export function respondedMessage(
  at: SessionAddress,
  pending: PendingRequest,
  flush: FlushState,
  answer: { approver: string; timedOut: boolean; outcome: GateRequestRecord['status']; responseMs: number },
): MessageOf<'gate.responded'> {
  return createMessage('gate.responded', {
    id: derivedMessageId('gate.responded', pending.request_id),
    session_id: at.sessionId,
    agent_id: at.agentId,
    trace_id: pending.trace_id,
    causation_id: flush.cause_id,
    payload: {
      request_id: pending.request_id,
      gate_id: pending.gate_id,
      approved: flush.resolution === 'approve',
      approver: answer.approver,
      ...(answer.timedOut ? { reason: 'TIMEOUT' } : flush.reason ? { reason: flush.reason } : {}),
      ...(flush.conditions ? { conditions: flush.conditions } : {}),
      response_ms: answer.responseMs,
      outcome: answer.outcome as MessageOf<'gate.responded'>['payload']['outcome'],
      ...(flush.channel && !answer.timedOut ? { channel: flush.channel } : {}),
      ...(answer.timedOut && pending.asked ? { asked_channels: pending.asked } : {}),
      ...(flush.digest && flush.request_id === pending.request_id ? { digest: flush.digest } : {}),
    },
  });
}

/** Nobody answered a request by its final deadline: it is escalated (seed 002) and denied. */
export function escalatedMessage(at: SessionAddress, pending: PendingRequest): MessageOf<'gate.escalated'> {
  return createMessage('gate.escalated', {
    id: derivedMessageId('gate.escalated', pending.request_id),
    session_id: at.sessionId,
    agent_id: at.agentId,
    trace_id: pending.trace_id,
    payload: {
      request_id: pending.request_id,
      gate_id: pending.gate_id,
      escalation: pending.escalation,
      reason: 'TIMEOUT',
      timeout_ms: pending.timeout_ms,
      ...(pending.asked ? { channels: pending.asked } : {}),
    },
  });
}

/** Nobody answered a request by an escalation step's deadline: the step asks more channels (one id per step). */
export function escalationStepMessage(at: SessionAddress, pending: PendingRequest, run: EscalationRun): MessageOf<'gate.escalated'> {
  return createMessage('gate.escalated', {
    id: derivedMessageId('gate.escalated', `${pending.request_id}:${run.step}`),
    session_id: at.sessionId,
    agent_id: at.agentId,
    trace_id: pending.trace_id,
    payload: {
      request_id: pending.request_id,
      gate_id: pending.gate_id,
      escalation: pending.escalation,
      reason: 'ESCALATION_DEADLINE',
      timeout_ms: pending.timeout_ms,
      step: run.step,
      after_ms: run.after_ms,
      channels: run.channels,
    },
  });
}

/** The audit record of a command (FR-11.7). */
export function interventionRecord(
  commandId: string,
  type: HitlCommandType,
  operatorId: string,
  states: { before: string | null; after: string | null },
  now: Date,
  targetTraceId?: string,
): InterventionRecord {
  return {
    intervention_id: derivedMessageId('hitl.intervention', `${commandId}:${type}`),
    operator_id: operatorId,
    command_type: type,
    before_state: states.before,
    after_state: states.after,
    occurred_at: now.toISOString(),
    ...(targetTraceId ? { target_trace_id: targetTraceId } : {}),
    command_id: commandId.slice(0, 128),
  };
}

/** Publishes an intervention record; again, with reversed_at, when a later command supersedes it. */
export function interventionMessage(at: SessionAddress, intervention: InterventionRecord, reversedAt?: string): AnyMessage {
  const id = derivedMessageId('hitl.intervention_recorded', reversedAt ? `${intervention.intervention_id}:reversed` : intervention.intervention_id);
  return createMessage('hitl.intervention_recorded', {
    id,
    session_id: at.sessionId,
    agent_id: at.agentId,
    trace_id: intervention.intervention_id,
    ...(intervention.command_id ? { causation_id: intervention.command_id } : {}),
    payload: { ...intervention, reversed_at: reversedAt ?? null },
  }) as AnyMessage;
}
