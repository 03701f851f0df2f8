import type { MessageOf, Severity } from '@warden/contracts';

/**
 * A problem the controller may act on, whatever reported it: a detected pattern, a breaker trip, a
 * blocked verdict or a rejected gate request. The seed's `issue`.
 */
export interface Issue {
  /** Pattern type, `breaker_<kind>`, `blocked_action`, `rejected_request` or `ran_against_decision`: issues of one type are "the same issue". */
  type: string;
  severity: Severity;
  confidence: number;
  impact_factor: number;
  description: string;
  details: Record<string, unknown>;
  /** Actions that show the issue; the earliest one marks when it started. */
  evidence_action_ids: string[];
  trigger: { kind: 'pattern' | 'breaker' | 'verdict' | 'gate' | 'action'; message_id: string; issue_type: string };
  /** When it was reported (the message's timestamp), epoch ms. */
  at: number;
}

const time = (iso: string) => Date.parse(iso);

export function issueFromPattern(message: MessageOf<'pattern.detected'>): Issue {
  const p = message.payload;
  return {
    type: p.pattern_type,
    severity: p.severity,
    confidence: p.confidence,
    impact_factor: p.impact_factor,
    description: p.description,
    details: p.details,
    evidence_action_ids: p.evidence_action_ids,
    trigger: { kind: 'pattern', message_id: message.id, issue_type: p.pattern_type },
    at: time(message.timestamp),
  };
}

/**
 * A breaker trip is certain (confidence 1) and of medium severity: the breaker already holds the
 * session, so what is left is the agent's way of working, which a throttle or more addresses once
 * it persists.
 */
export function issueFromBreakerTrip(message: MessageOf<'breaker.tripped'>): Issue {
  const p = message.payload;
  const severity: Severity = 'medium';
  return {
    type: `breaker_${p.breaker}`,
    severity,
    confidence: 1,
    impact_factor: 0,
    description: `The ${p.breaker} breaker opened: ${p.reason} (${p.current_value} of ${p.threshold})${p.suggestion ? `. ${p.suggestion}` : ''}`,
    details: { breaker: p.breaker, reason: p.reason, current_value: p.current_value, threshold: p.threshold, ...(p.phase ? { phase: p.phase } : {}) },
    evidence_action_ids: [],
    trigger: { kind: 'breaker', message_id: message.id, issue_type: p.breaker },
    at: time(message.timestamp),
  };
}

/**
 * A blocked action: the reviewer prevented it, so the issue is the attempt, not damage. A high or
 * critical risk makes it a medium issue, a lower one a low issue; blocks that keep coming escalate
 * like any other issue. As sure as the reviewer was.
 */
export function issueFromBlock(message: MessageOf<'review.verdict'>): Issue {
  const p = message.payload;
  return {
    type: 'blocked_action',
    severity: p.risk.severity === 'high' || p.risk.severity === 'critical' ? 'medium' : 'low',
    confidence: p.confidence,
    impact_factor: 0,
    description: `Warden blocked ${p.action.tool}: ${p.reasons[0] ?? 'no reason given'}`,
    details: { tool: p.action.tool, reasons: p.reasons, risk_factors: p.risk.factors, ...(p.alternatives ? { alternatives: p.alternatives } : {}) },
    evidence_action_ids: [p.action_id],
    trigger: { kind: 'verdict', message_id: message.id, issue_type: p.verdict },
    at: time(message.timestamp),
  };
}

/** A human said no: the agent asked for something its operator does not want. */
export function issueFromRejection(message: MessageOf<'gate.responded'>): Issue {
  const p = message.payload;
  return {
    type: 'rejected_request',
    severity: 'medium',
    confidence: 1,
    impact_factor: 0,
    description: `The operator ${p.approver} rejected gate ${p.gate_id}${p.reason ? `: ${p.reason}` : ''}`,
    details: { gate_id: p.gate_id, request_id: p.request_id, ...(p.reason ? { reason: p.reason } : {}) },
    evidence_action_ids: [],
    trigger: { kind: 'gate', message_id: message.id, issue_type: p.outcome ?? 'rejected' },
    at: time(message.timestamp),
  };
}

/**
 * An action ran against Warden's decision (the agent's own report of a tool that ran). One Warden denied
 * or that ran while the session was stopped is critical: nothing held it, and the session is stopped
 * (emergency stop, with its incident report). One Warden had not decided yet is high; one Warden never
 * saw proposed (a subagent whose hooks did not run) is low: unreviewed work, corrected first and
 * escalated while it goes on.
 */
export function issueFromRanAgainstDecision(message: MessageOf<'action.ran_against_decision'>): Issue {
  const p = message.payload;
  const severity: Severity = p.warden_decision === 'denied' || p.warden_decision === 'stopped' ? 'critical' : p.warden_decision === 'held' ? 'high' : 'low';
  const said = { denied: 'Warden denied it', stopped: 'the session was stopped', held: 'Warden had not decided it', never_proposed: 'Warden never saw it proposed' }[p.warden_decision];
  return {
    type: 'ran_against_decision',
    severity,
    confidence: 1,
    impact_factor: 0,
    description: `${p.tool} ran although ${said}${p.reason ? ` (${p.reason})` : ''}${p.subagent ? `, in subagent ${p.subagent.type ?? p.subagent.id}` : ''}`,
    details: { tool: p.tool, input: p.input, warden_decision: p.warden_decision, status: p.status, reported_by: p.reported_by, ...(p.reason ? { reason: p.reason } : {}), ...(p.subagent ? { subagent: p.subagent } : {}) },
    evidence_action_ids: [p.action_id],
    trigger: { kind: 'action', message_id: message.id, issue_type: p.warden_decision },
    at: time(message.timestamp),
  };
}

/** The messages that can report an issue. */
export type IssueMessage =
  | MessageOf<'pattern.detected'>
  | MessageOf<'breaker.tripped'>
  | MessageOf<'review.verdict'>
  | MessageOf<'gate.responded'>
  | MessageOf<'action.ran_against_decision'>;

/**
 * Whether a message reports an issue the controller acts on, and which: a pattern (not one reported in
 * shadow mode), a breaker trip (not one in metrics-only mode), a blocking verdict (not one given in async
 * mode, which held nothing), an operator's rejection (not a timeout, which the gate already handled).
 */
export function issueOf(message: IssueMessage): Issue | undefined {
  switch (message.type) {
    case 'pattern.detected':
      return message.payload.shadow ? undefined : issueFromPattern(message);
    case 'breaker.tripped':
      return message.payload.mode === 'metrics_only' ? undefined : issueFromBreakerTrip(message);
    case 'review.verdict':
      return message.payload.verdict === 'block' && message.payload.mode !== 'async' ? issueFromBlock(message) : undefined;
    case 'gate.responded':
      return !message.payload.approved && message.payload.outcome !== 'timed_out' ? issueFromRejection(message) : undefined;
    case 'action.ran_against_decision':
      return issueFromRanAgainstDecision(message);
  }
}
