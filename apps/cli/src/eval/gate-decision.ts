import type { MessageOf } from '@warden/contracts';
import { approvalGoesToAgentUser, decisionForHeld, decisionFromVerdict, holdOf, type Decision } from '@warden/gate';

/** The operator an evaluation answers held actions as. */
export const EVAL_OPERATOR = 'warden-eval';

/** The gate's decision on a reviewed action in an evaluation, and what became of the action. */
export interface GateOutcome {
  /** The gate held it for an operator. */
  held: boolean;
  /** What the gate sends the agent (for a held action: once the evaluation answered it). */
  decision: Decision;
  /** It ran: allowed, and approved by the agent's user when the decision asks them. */
  ran: boolean;
}

/**
 * What the gate decides on a verdict, by the gate's own rules (@warden/gate): held for an operator when
 * the flag or a require_approval asks (human gates are not evaluated), and answered as `approvals` says;
 * otherwise decided at once, a require_approval the proposal hands to its agent's user (the gate's
 * default allows it) allowed with ask_user, which the user answers as `approvals` says.
 */
export function gateOutcome(verdict: MessageOf<'review.verdict'>, approvals: 'approve' | 'reject', agentUserApprovals = true): GateOutcome {
  const toAgentUser = approvalGoesToAgentUser(verdict, agentUserApprovals);
  const held = holdOf(verdict, undefined, [], toAgentUser) !== null;
  const decision = held
    ? decisionForHeld({ verdict, needs_approval: true }, undefined, { resolution: approvals, operator_id: EVAL_OPERATOR, decided_by: 'operator' })
    : decisionFromVerdict(verdict.payload, toAgentUser);
  return { held, decision, ran: decision.decision === 'allow' && (!decision.ask_user || approvals === 'approve') };
}
