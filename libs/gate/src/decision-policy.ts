import type { PayloadOf } from '@warden/contracts';
import { OPERATOR_REJECTION_PROMPT } from '@warden/contracts';
import type { DecisionEntry, Verdict as VerdictMessage } from './buffer-entry.js';

export type Verdict = PayloadOf<'review.verdict'>;
export type Decision = PayloadOf<'decision.made'>;

/**
 * Whether a require_approval goes to the person at the agent's own terminal: the proposal names them as
 * its approver, and the gate lets it (`agentUserApprovals`, GATE_AGENT_USER_APPROVALS); else operators answer.
 */
export function approvalGoesToAgentUser(verdict: VerdictMessage, agentUserApprovals: boolean): boolean {
  return agentUserApprovals && verdict.control?.approver === 'agent_user';
}

/**
 * Turns a reviewer verdict into the agent's final decision. allow and warn let the action run (a
 * warning's reason travels with it), modify runs the modified input, block denies. require_approval
 * never reaches this in the normal state: it pauses the session for an operator (FR-11.9); should it,
 * it is denied, since the gate fails closed when a human is needed. When the proposal hands the approval
 * to the agent's own user (`toAgentUser`), it is allowed with `ask_user`: the agent runs it only if its
 * user agrees.
 */
export function decisionFromVerdict(verdict: Verdict, toAgentUser = false): Decision {
  const base = { action_id: verdict.action_id, verdict: verdict.verdict, reasons: verdict.reasons };
  const first = verdict.reasons[0] ?? '';
  switch (verdict.verdict) {
    case 'allow':
      return { ...base, decision: 'allow', reason: first || 'Allowed.', decided_by: 'reviewer' };
    case 'warn':
      return { ...base, decision: 'allow', reason: `Allowed with a warning: ${first}`, decided_by: 'reviewer' };
    case 'modify':
      if (!verdict.modified_input) {
        return { ...base, decision: 'deny', reason: 'The reviewer asked for a change but gave no modified input.', decided_by: 'policy' };
      }
      return { ...base, decision: 'allow', reason: `Allowed with changes: ${first}`, updated_input: verdict.modified_input, decided_by: 'reviewer' };
    case 'require_approval':
      if (toAgentUser) {
        const changed = verdict.modified_input ? { updated_input: verdict.modified_input } : {};
        return { ...base, decision: 'allow', ask_user: true, reason: first || 'Needs an approval.', ...changed, decided_by: 'reviewer' };
      }
      return { ...base, decision: 'deny', reason: `Needs an operator's approval, which was not given: ${first}`, decided_by: 'policy' };
    case 'block':
      return { ...base, decision: 'deny', reason: first || 'Blocked by the reviewer.', decided_by: 'reviewer' };
  }
}

/** How the operator (or the final deadline of a request, which always denies) resolved a paused session. */
export interface Resolution {
  resolution: 'approve' | 'reject';
  operator_id: string;
  decided_by: 'operator' | 'gate_timeout';
  conditions?: string[];
  reason?: string;
  /** The approval channel an operator answered through (api, console, slack, …). */
  channel?: string;
  /** The approval digest the operator answered (what they were shown). */
  digest?: string;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The decision a held verdict becomes when its session is flushed. Whatever did not need approval
 * passes as the reviewer decided. What needed approval is allowed or denied by the resolution, except a
 * block, which no approval overrides. A rewritten action was approved by the operator who rewrote it:
 * it runs with the operator's input.
 */
export function decisionForHeld(entry: Pick<DecisionEntry, 'verdict' | 'needs_approval'>, rewrite: { input: Record<string, unknown>; operator_id: string } | undefined, resolution: Resolution): Decision {
  const verdict = entry.verdict.payload;
  // A require_approval held for nothing else was handed to the agent's user.
  const reviewed = decisionFromVerdict(verdict, !entry.needs_approval);
  if (rewrite) {
    return {
      action_id: verdict.action_id,
      verdict: verdict.verdict,
      decision: 'allow',
      reason: `Rewritten and approved by operator ${rewrite.operator_id}: run the operator's input instead of the proposed one.`,
      reasons: verdict.reasons,
      updated_input: rewrite.input,
      decided_by: 'operator',
      operator_id: rewrite.operator_id,
    };
  }
  if (verdict.verdict === 'block' || !entry.needs_approval) return reviewed;
  const operator = resolution.decided_by === 'operator' ? { operator_id: resolution.operator_id } : {};
  // Silence approves nothing: a resolution by the gate's deadline denies, whatever it was stored with.
  if (resolution.resolution === 'reject' || resolution.decided_by === 'gate_timeout') {
    const why =
      resolution.decided_by === 'gate_timeout'
        ? resolution.reason && resolution.reason !== 'TIMEOUT'
          ? resolution.reason
          : 'Nobody answered the approval request in time; the action is denied: nothing is approved without an answer.'
        : `Rejected by operator ${resolution.operator_id}: ${resolution.reason || OPERATOR_REJECTION_PROMPT}`;
    return {
      action_id: verdict.action_id,
      verdict: verdict.verdict,
      decision: 'deny',
      reason: clip(why, 4000),
      reasons: verdict.reasons,
      decided_by: resolution.decided_by,
      ...operator,
    };
  }
  const approved: Decision =
    verdict.verdict === 'require_approval'
      ? {
          action_id: verdict.action_id,
          verdict: verdict.verdict,
          decision: 'allow',
          reason: '',
          reasons: verdict.reasons,
          ...(verdict.modified_input ? { updated_input: verdict.modified_input } : {}),
          decided_by: resolution.decided_by,
        }
      : { ...reviewed, decided_by: reviewed.decision === 'allow' ? resolution.decided_by : reviewed.decided_by };
  if (approved.decision === 'deny') return approved;
  const by = `operator ${resolution.operator_id}`;
  const conditions = resolution.conditions?.length ? ` with conditions: ${resolution.conditions.join('; ')}` : '';
  const first = verdict.reasons[0] ? ` (${verdict.reasons[0]})` : '';
  return {
    ...approved,
    ...operator,
    reason: clip(`Approved by ${by}${conditions}${first}`, 4000),
    reasons: [...(resolution.conditions ?? []).map((c) => clip(`Condition: ${c}`, 2000)), ...verdict.reasons].slice(0, 32),
  };
}
