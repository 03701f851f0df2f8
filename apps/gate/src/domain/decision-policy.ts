import type { PayloadOf } from '@warden/contracts';

export type Verdict = PayloadOf<'review.verdict'>;
export type Decision = PayloadOf<'decision.made'>;

/**
 * Turns a reviewer verdict into the agent's final decision. allow and warn let the action run (a
 * warning's reason travels with it), modify runs the modified input, block denies. require_approval is
 * denied until an operator approves: the gate fails closed when a human is needed.
 */
export function decisionFromVerdict(verdict: Verdict): Decision {
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
      return { ...base, decision: 'deny', reason: `Needs an operator's approval, which was not given: ${first}`, decided_by: 'policy' };
    case 'block':
      return { ...base, decision: 'deny', reason: first || 'Blocked by the reviewer.', decided_by: 'reviewer' };
  }
}
