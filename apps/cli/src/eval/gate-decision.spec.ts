import { createMessage, EXAMPLE_PAYLOADS, type MessageOf, type PayloadOf } from '@warden/contracts';
import { approvalGoesToAgentUser, holdOf, onResume, onVerdict, unpauseResolution, type Decision, type GateEffect, type HitlCommand } from '@warden/gate';
import { EVAL_OPERATOR, gateOutcome } from './gate-decision.js';

const NOW = new Date('2026-11-28T12:00:00Z');

function verdict(payload: Partial<PayloadOf<'review.verdict'>>, control?: MessageOf<'review.verdict'>['control']): MessageOf<'review.verdict'> {
  return createMessage('review.verdict', {
    session_id: 'sess-1',
    agent_id: 'agent-1',
    ...(control ? { control } : {}),
    payload: {
      ...EXAMPLE_PAYLOADS['review.verdict'],
      action_id: 'act-1',
      reasons: ['The reviewer says so'],
      action: { kind: 'tool_use', tool: 'Bash', input: { command: 'git push --force origin main' } },
      ...payload,
    } as PayloadOf<'review.verdict'>,
  });
}

/**
 * The gate service's path for one verdict, through the aggregate the relay runs (HitlRelay: the
 * delegation, holdOf and onVerdict; a held verdict is buffered, and the operator's unpause resolves it
 * through onResume's flush plan), with no human gate configured; then the agent runs the decision, asking
 * its user when the decision says ask_user.
 */
function throughTheGate(message: MessageOf<'review.verdict'>, approvals: 'approve' | 'reject', agentUserApprovals = true): { held: boolean; decision: Decision; ran: boolean } {
  const delegated = approvalGoesToAgentUser(message, agentUserApprovals);
  const view = { agentId: message.agent_id, sessionId: message.session_id, state: undefined };
  const step = onVerdict(view, message, holdOf(message, undefined, [], delegated), NOW, delegated);
  const held = !step.pass;
  let decision: Decision;
  if (step.pass) {
    decision = effect(step.effects, 'decide').message.payload;
  } else {
    const state = step.effects.filter((e): e is Extract<GateEffect, { kind: 'save' }> => e.kind === 'save').at(-1)!.state;
    const entry = effect(step.effects, 'buffer').entry;
    const unpause: HitlCommand = { type: 'hitl_unpause', session_id: message.session_id, agent_id: message.agent_id, operator_id: EVAL_OPERATOR, timestamp: NOW.toISOString(), resolution: approvals };
    const { resolution, how } = unpauseResolution(unpause, 'unpause-1');
    const { plan } = onResume({ ...view, state }, [{ seq: 1, entry }], resolution, how, NOW);
    decision = plan.find((m): m is MessageOf<'decision.made'> => m.type === 'decision.made' && m.payload.action_id === message.payload.action_id)!.payload;
  }
  return { held, decision, ran: decision.decision === 'allow' && (!decision.ask_user || approvals === 'approve') };
}

function effect<K extends GateEffect['kind']>(effects: GateEffect[], kind: K): Extract<GateEffect, { kind: K }> {
  return effects.find((e): e is Extract<GateEffect, { kind: K }> => e.kind === kind)!;
}

const CHANGED = { command: 'git push --force-with-lease origin main' };

describe("warden eval decides a verdict's outcome as the gate does", () => {
  const cases: [string, MessageOf<'review.verdict'>][] = [
    ['allow', verdict({ verdict: 'allow' })],
    ['warn', verdict({ verdict: 'warn' })],
    ['modify with a modified input', verdict({ verdict: 'modify', modified_input: CHANGED })],
    ['modify without a modified input', verdict({ verdict: 'modify' })],
    ['block', verdict({ verdict: 'block' })],
    ['require_approval', verdict({ verdict: 'require_approval' })],
    ['require_approval with a modified input', verdict({ verdict: 'require_approval', modified_input: CHANGED })],
    ["require_approval for the agent's user", verdict({ verdict: 'require_approval' }, { approver: 'agent_user' })],
    ["require_approval for the agent's user, with a modified input", verdict({ verdict: 'require_approval', modified_input: CHANGED }, { approver: 'agent_user' })],
    ['allow with the flag that asks a human', verdict({ verdict: 'allow' }, { hitl_required: true })],
    ['block with the flag that asks a human', verdict({ verdict: 'block' }, { hitl_required: true })],
  ];

  describe.each(['approve', 'reject'] as const)('held actions answered with %s', (approvals) => {
    it.each(cases)('%s', (_name, message) => {
      expect(gateOutcome(message, approvals)).toEqual(throughTheGate(message, approvals));
    });

    it("require_approval for the agent's user, with the gate keeping every approval for operators", () => {
      const message = verdict({ verdict: 'require_approval' }, { approver: 'agent_user' });
      expect(gateOutcome(message, approvals, false)).toEqual(throughTheGate(message, approvals, false));
      expect(gateOutcome(message, approvals, false).held).toBe(true);
    });
  });

  it('runs what the gate allows and nothing it denies', () => {
    expect(gateOutcome(verdict({ verdict: 'modify', modified_input: CHANGED }), 'approve')).toMatchObject({ ran: true, decision: { decision: 'allow', updated_input: CHANGED } });
    expect(gateOutcome(verdict({ verdict: 'modify' }), 'approve')).toMatchObject({ ran: false, decision: { decision: 'deny', decided_by: 'policy' } });
    expect(gateOutcome(verdict({ verdict: 'require_approval' }), 'approve')).toMatchObject({ held: true, ran: true, decision: { decision: 'allow', operator_id: EVAL_OPERATOR } });
    expect(gateOutcome(verdict({ verdict: 'require_approval' }), 'reject')).toMatchObject({ held: true, ran: false, decision: { decision: 'deny', decided_by: 'operator' } });
    expect(gateOutcome(verdict({ verdict: 'require_approval' }, { approver: 'agent_user' }), 'reject')).toMatchObject({ held: false, ran: false, decision: { decision: 'allow', ask_user: true } });
    expect(gateOutcome(verdict({ verdict: 'block' }, { hitl_required: true }), 'approve')).toMatchObject({ held: true, ran: false, decision: { decision: 'deny', decided_by: 'reviewer' } });
  });
});
