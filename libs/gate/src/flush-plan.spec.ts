import { createMessage, EXAMPLE_PAYLOADS, OPERATOR_REJECTION_PROMPT, type PayloadOf } from '@warden/contracts';
import type { DecisionEntry, InjectEntry, StoredEntry } from './buffer-entry.js';
import { decisionForHeld } from './decision-policy.js';
import { decisionId, planFlush, rejectionAlreadyInjected, stopControl, type FlushSpec } from './flush-plan.js';

const verdict = (actionId: string, payload: Partial<PayloadOf<'review.verdict'>> = {}) =>
  createMessage('review.verdict', {
    session_id: 's1',
    agent_id: 'a1',
    payload: { ...EXAMPLE_PAYLOADS['review.verdict'], action_id: actionId, verdict: 'allow', reasons: ['fine'], ...payload } as PayloadOf<'review.verdict'>,
  });

const held = (actionId: string, extra: Partial<DecisionEntry> = {}, payload: Partial<PayloadOf<'review.verdict'>> = {}): DecisionEntry => {
  const v = verdict(actionId, payload);
  return { kind: 'decision', window_id: 'w1', trace_id: v.trace_id, source_id: v.id, action_id: actionId, needs_approval: false, holds: [], verdict: v, buffered_at: '2026-11-21T10:00:00Z', ...extra };
};
const injected = (text: string): InjectEntry => ({ kind: 'inject', window_id: 'w1', trace_id: `t-${text}`, source_id: `cmd-${text}`, operator_id: 'op', prompt: text, buffered_at: '2026-11-21T10:00:00Z' });
const stored = (...entries: (DecisionEntry | InjectEntry)[]): StoredEntry[] => entries.map((entry, i) => ({ seq: 10 + i, entry }));
const spec = (extra: Partial<FlushSpec> = {}): FlushSpec => ({ window_id: 'w1', cause_id: 'cmd-unpause', through_seq: 1000, resolution: 'approve', operator_id: 'op', decided_by: 'operator', ...extra });

describe('planFlush (FR-11.3, FR-11.10)', () => {
  it('sends every entry of the window in arrival order with rewrites applied', () => {
    const entries = stored(held('a1'), injected('hello'), held('a2'), held('a3'));
    const plan = planFlush('a1', 's1', entries, { [entries[2]!.entry.trace_id]: { new_content: '{"command":"ls"}', operator_id: 'op-2' } }, spec());
    expect(plan.map((m) => m.type)).toEqual(['decision.made', 'control.issued', 'decision.made', 'decision.made']);
    expect(plan.map((m) => ('action_id' in m.payload ? m.payload.action_id : m.payload.message))).toEqual(['a1', 'hello', 'a2', 'a3']);
    expect(plan[2]!.payload).toMatchObject({ decision: 'allow', updated_input: { command: 'ls' }, decided_by: 'operator', operator_id: 'op-2' });
    expect(plan[0]!.id).toBe(decisionId('a1', 's1', 'a1'));
  });

  it('leaves out entries of another window or after the flush point', () => {
    const entries = stored(held('a1'), held('a2', { window_id: 'w0' }), held('a3'));
    expect(planFlush('a1', 's1', entries, {}, spec({ through_seq: 11 })).map((m) => (m.payload as { action_id: string }).action_id)).toEqual(['a1']);
  });

  it('puts the rejection prompt first on reject, and is the same plan when made again', () => {
    const entries = stored(held('a1', { needs_approval: true, holds: ['require_approval'] }, { verdict: 'require_approval' }), held('a2'));
    const s = spec({ resolution: 'reject', rejection_prompt: OPERATOR_REJECTION_PROMPT });
    const plan = planFlush('a1', 's1', entries, {}, s);
    expect(plan.map((m) => m.type)).toEqual(['control.issued', 'decision.made', 'decision.made']);
    expect(plan[0]!.payload).toMatchObject({ kind: 'operator_message', message: OPERATOR_REJECTION_PROMPT });
    expect(plan[1]!.payload).toMatchObject({ decision: 'deny', decided_by: 'operator' });
    expect(plan[2]!.payload).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });
    expect(planFlush('a1', 's1', entries, {}, s).map((m) => m.id)).toEqual(plan.map((m) => m.id));
  });

  it("sends the operator's own inject of the rejection prompt first and once (the FRD's inject, then unpause)", () => {
    const entries = stored(
      held('a1', { needs_approval: true, holds: ['require_approval'] }, { verdict: 'require_approval' }),
      injected('use the staging database'),
      injected(OPERATOR_REJECTION_PROMPT),
    );
    expect(rejectionAlreadyInjected(entries, 'w1', OPERATOR_REJECTION_PROMPT)).toBe(true);
    expect(rejectionAlreadyInjected(entries, 'w0', OPERATOR_REJECTION_PROMPT)).toBe(false);
    const plan = planFlush('a1', 's1', entries, {}, spec({ resolution: 'reject', rejection_prompt: OPERATOR_REJECTION_PROMPT }));
    expect(plan.map((m) => ('action_id' in m.payload ? `${m.payload.action_id}:${m.payload.decision}` : m.payload.message))).toEqual([
      OPERATOR_REJECTION_PROMPT,
      'a1:deny',
      'use the staging database',
    ]);
    expect(plan[0]!.id).toBe(planFlush('a1', 's1', stored(injected(OPERATOR_REJECTION_PROMPT)), {}, spec()).at(0)!.id);
  });

  it('tells a stopped agent to stop with a control it acknowledges', () => {
    const control = stopControl('a1', 's1', 'cmd-1', 'operator-xander', 'Looping on the deploy');
    expect(control.payload).toMatchObject({ kind: 'emergency_stop', requires_ack: true, message: 'Emergency stop by operator operator-xander: Looping on the deploy' });
    expect(stopControl('a1', 's1', 'cmd-1', 'operator-xander', 'again').id).toBe(control.id);
  });

  it('handles an empty buffer', () => {
    expect(planFlush('a1', 's1', [], {}, spec())).toEqual([]);
  });
});

describe('decisionForHeld', () => {
  const approve = { resolution: 'approve' as const, operator_id: 'op', decided_by: 'operator' as const };
  const reject = { ...approve, resolution: 'reject' as const };

  it('passes what did not need approval as the reviewer decided, whatever the resolution', () => {
    expect(decisionForHeld(held('a'), undefined, reject)).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });
  });

  it('approves or rejects what needed approval', () => {
    const needs = held('a', { needs_approval: true, holds: ['require_approval'] }, { verdict: 'require_approval', reasons: ['Deploy'] });
    expect(decisionForHeld(needs, undefined, { ...approve, conditions: ['after 18:00'] })).toMatchObject({
      decision: 'allow',
      decided_by: 'operator',
      operator_id: 'op',
      reason: 'Approved by operator op with conditions: after 18:00 (Deploy)',
      reasons: ['Condition: after 18:00', 'Deploy'],
    });
    expect(decisionForHeld(needs, undefined, { ...reject, reason: 'Freeze' })).toMatchObject({ decision: 'deny', reason: 'Rejected by operator op: Freeze' });
    expect(decisionForHeld(needs, undefined, { ...reject, decided_by: 'gate_timeout' })).toMatchObject({ decision: 'deny', decided_by: 'gate_timeout' });
  });

  it('never lets an approval override a block, and keeps a modify verdict\'s input', () => {
    const blocked = held('a', { needs_approval: true, holds: ['hitl_required_flag'] }, { verdict: 'block', reasons: ['rm -rf /'] });
    expect(decisionForHeld(blocked, undefined, approve)).toMatchObject({ decision: 'deny', decided_by: 'reviewer' });
    const modified = held('b', { needs_approval: true, holds: ['gate'] }, { verdict: 'modify', modified_input: { command: 'rm -ri dist' } });
    expect(decisionForHeld(modified, undefined, approve)).toMatchObject({ decision: 'allow', updated_input: { command: 'rm -ri dist' }, decided_by: 'operator' });
  });

  it('runs a rewritten action with the operator\'s input', () => {
    expect(decisionForHeld(held('a', {}, { verdict: 'block' }), { input: { command: 'ls' }, operator_id: 'op-9' }, reject)).toMatchObject({
      decision: 'allow',
      updated_input: { command: 'ls' },
      operator_id: 'op-9',
    });
  });
});
