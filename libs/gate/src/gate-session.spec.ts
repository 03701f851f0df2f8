import { createMessage, EXAMPLE_PAYLOADS, OPERATOR_REJECTION_PROMPT, type MessageOf, type PayloadOf } from '@warden/contracts';
import type { StoredEntry, Verdict } from './buffer-entry.js';
import { resolveDeadlineSettings } from './approval-deadlines.js';
import { decisionForHeld } from './decision-policy.js';
import { factsAfter, holdOf, onDeadline, onFlushed, onInject, onPause, onResume, onRewrite, onVerdict, unpauseResolution, type GateEffect, type GateView } from './gate-session.js';
import type { HitlCommand } from './hitl-command.js';
import { resolveGates, STANDARD_GATES } from './human-gates.js';
import type { SessionRelayState } from './relay-state.js';

const NOW = new Date('2026-11-24T10:00:00Z');
const normal: GateView = { agentId: 'a1', sessionId: 's1', state: undefined };

const verdict = (actionId: string, payload: Partial<PayloadOf<'review.verdict'>> = {}, control?: Verdict['control']): Verdict =>
  createMessage('review.verdict', {
    session_id: 's1',
    agent_id: 'a1',
    ...(control ? { control } : {}),
    payload: { ...EXAMPLE_PAYLOADS['review.verdict'], action_id: actionId, verdict: 'allow', reasons: ['fine'], ...payload } as PayloadOf<'review.verdict'>,
  });

const command = (type: HitlCommand['type'], extra: Partial<HitlCommand> = {}): HitlCommand => ({ type, session_id: 's1', agent_id: 'a1', operator_id: 'op', timestamp: NOW.toISOString(), ...extra });
const kinds = (effects: GateEffect[]) => effects.map((e) => (e.kind === 'publish' ? `publish:${e.message.type}` : e.kind));
const savedState = (effects: GateEffect[]): SessionRelayState => (effects.filter((e) => e.kind === 'save').at(-1) as { state: SessionRelayState }).state;

/** Pauses a normal session with a verdict that needs an approval; returns the paused view. */
function pausedBy(v: Verdict): GateView {
  const step = onVerdict(normal, v, holdOf(v, undefined, [], false), NOW, false);
  return { ...normal, state: savedState(step.effects) };
}

describe('the gate of one session', () => {
  it('passes a verdict of a normal session as its decision, and nothing else', () => {
    const v = verdict('x1');
    const step = onVerdict(normal, v, holdOf(v, undefined, [], false), NOW, false);
    expect(step.pass).toBe(true);
    expect(step.effects).toEqual([{ kind: 'decide', message: expect.objectContaining({ type: 'decision.made', causation_id: v.id }), verdict: v }]);
  });

  it('pauses on require_approval: stores the window, announces the pause, then holds the verdict', () => {
    const v = verdict('x1', { verdict: 'require_approval', reasons: ['risky'] });
    const step = onVerdict(normal, v, holdOf(v, undefined, [], false), NOW, false);
    expect(step.pass).toBe(false);
    expect(kinds(step.effects)).toEqual(['save', 'publish:hitl.paused', 'paused', 'buffer']);
    const state = savedState(step.effects);
    expect(state).toMatchObject({ status: 'paused', window: { trigger: 'require_approval', reason: 'require_approval: risky', operator_id: 'system' } });
    expect(step.effects[3]).toMatchObject({ kind: 'buffer', entry: { kind: 'decision', window_id: state.window.id, action_id: 'x1', needs_approval: true } });
  });

  it('lets the agent user answer require_approval when delegated', () => {
    const v = verdict('x1', { verdict: 'require_approval' }, { approver: 'agent_user' } as Verdict['control']);
    expect(holdOf(v, undefined, [], true)).toBeNull();
    expect(holdOf(v, undefined, [], false)?.holds).toEqual(['require_approval']);
  });

  it("puts a reviewer's require_approval in a gate request (channels, deadline) with the gate the gate README shows", () => {
    const gates = resolveGates({
      gates: [{ id: 'review_approval', prompt: 'Warden asks a person to approve this action.', when: { path: 'review.verdict', equals: 'require_approval' }, timeout_ms: 3_600_000, escalation: 'on_call' }],
    });
    const held = verdict('x1', { verdict: 'require_approval', reasons: ['risky'] });
    expect(holdOf(held, undefined, gates, false)).toMatchObject({ holds: ['require_approval', 'gate'], gates: [expect.objectContaining({ id: 'review_approval' })] });
    const step = onVerdict(normal, held, holdOf(held, undefined, gates, false), NOW, false);
    expect(kinds(step.effects)).toContain('request');
    const warned = verdict('x2', { verdict: 'warn' });
    expect(holdOf(warned, undefined, gates, false)).toBeNull();
  });

  it('holds every verdict of a paused session without pausing again', () => {
    const paused = pausedBy(verdict('x1', { verdict: 'require_approval' }));
    const step = onVerdict(paused, verdict('x2'), null, NOW, false);
    expect(step.pass).toBe(false);
    expect(kinds(step.effects)).toEqual(['buffer']);
    expect(step.effects[0]).toMatchObject({ entry: { action_id: 'x2', needs_approval: false, window_id: paused.state!.window.id } });
  });

  it('opens one request per triggered gate and announces it', () => {
    const gate = STANDARD_GATES.find((g) => g.id === 'production_deploy')!;
    const v = verdict('x1');
    const hold = holdOf(v, { phase: 'deployment', environment: 'production', approvals: [] }, [gate], false);
    expect(hold?.holds).toEqual(['gate']);
    const step = onVerdict(normal, v, hold, NOW, false);
    expect(kinds(step.effects)).toEqual(['save', 'publish:hitl.paused', 'paused', 'request', 'buffer']);
    const request = step.effects[3] as Extract<GateEffect, { kind: 'request' }>;
    expect(request.pending).toMatchObject({ gate_id: 'production_deploy', expires_at: new Date(NOW.getTime() + gate.timeout_ms).toISOString(), escalation_steps: [], escalated: 0 });
    expect(request.message.type).toBe('gate.requested');
    expect(savedState(step.effects).requests).toEqual([request.pending]);
  });

  it('records a second pause as reversible and still stops the agent on a stop', () => {
    const paused = pausedBy(verdict('x1', { verdict: 'require_approval' }));
    const { outcome, effects } = onPause(paused, command('hitl_pause', { reason: 'look', stop_agent: true }), 'cmd-1', NOW);
    expect(outcome).toEqual({ status: 'ok', note: 'already_paused' });
    expect(kinds(effects)).toEqual(['save', 'publish:hitl.intervention_recorded', 'publish:control.issued']);
    expect(savedState(effects)).toMatchObject({ window: { stops_agent: true }, reversible: [expect.objectContaining({ command_type: 'hitl_pause' })] });
  });

  it('sends an inject at once to a normal session, and holds it in a paused one', () => {
    const message = createMessage('gate.command', { session_id: 's1', agent_id: 'a1', payload: { ...EXAMPLE_PAYLOADS['gate.command'], command_type: 'hitl_inject', prompt: 'hi' } } as never) as MessageOf<'gate.command'>;
    expect(kinds(onInject(normal, command('hitl_inject', { prompt: 'hi' }), message, NOW))).toEqual(['publish:control.issued', 'publish:hitl.intervention_recorded']);
    const paused = pausedBy(verdict('x1', { verdict: 'require_approval' }));
    expect(kinds(onInject(paused, command('hitl_inject', { prompt: 'hi' }), message, NOW))).toEqual(['buffer', 'publish:hitl.intervention_recorded']);
  });

  it('refuses a rewrite of a trace id not in the buffer, and records a second rewrite as superseding the first', () => {
    const paused = pausedBy(verdict('x1', { verdict: 'require_approval' }));
    expect(onRewrite(paused, command('hitl_rewrite', { original_trace_id: 't', new_content: '{}' }), 'c1', undefined, NOW).outcome).toEqual({ status: 'error', code: 422, reason: 'trace_id_not_found_in_buffer' });
    const v = verdict('x2', { action: { ...EXAMPLE_PAYLOADS['review.verdict'].action, tool: 'Bash', input: { command: 'ls' } } } as never);
    const entry = { kind: 'decision' as const, window_id: paused.state!.window.id, trace_id: v.trace_id, source_id: v.id, action_id: 'x2', needs_approval: false, holds: [], verdict: v, buffered_at: NOW.toISOString() };
    const rewrite = (id: string, view: GateView) => onRewrite(view, command('hitl_rewrite', { original_trace_id: v.trace_id, new_content: JSON.stringify({ command: id }) }), id, entry, NOW);
    const first = rewrite('pwd', paused);
    expect(first.outcome).toEqual({ status: 'ok' });
    const second = rewrite('whoami', { ...paused, state: first.state });
    expect(kinds(second.effects)).toEqual(['save', 'publish:hitl.intervention_recorded', 'publish:hitl.intervention_recorded']);
  });

  it('resumes with the buffer of the window only, the rejection prompt recorded first on reject', () => {
    const paused = pausedBy(verdict('x1', { verdict: 'require_approval' }));
    const held = verdict('x2');
    const entries: StoredEntry[] = [
      { seq: 1, entry: { kind: 'decision', window_id: 'old', trace_id: 't0', source_id: 'v0', action_id: 'x0', needs_approval: false, holds: [], verdict: verdict('x0'), buffered_at: NOW.toISOString() } },
      { seq: 2, entry: { kind: 'decision', window_id: paused.state!.window.id, trace_id: held.trace_id, source_id: held.id, action_id: 'x2', needs_approval: true, holds: ['require_approval'], verdict: held, buffered_at: NOW.toISOString() } },
    ];
    const { resolution, how } = unpauseResolution(command('hitl_unpause', { resolution: 'reject' }), 'cmd-9');
    expect(how.rejectionPrompt).toBe(OPERATOR_REJECTION_PROMPT);
    const resumed = onResume(paused, entries, resolution, how, NOW);
    expect(resumed.state).toMatchObject({ status: 'flushing', flush: { through_seq: 2, planned: 2, resolution: 'reject' } });
    expect(kinds(resumed.effects)).toEqual(['save', 'publish:hitl.intervention_recorded']);
    expect(resumed.plan.map((m) => m.type)).toEqual(['control.issued', 'decision.made']);
    const closing = onFlushed({ ...paused, state: resumed.state }, undefined, NOW);
    expect(closing.messages.map((m) => m.type)).toEqual(['hitl.resumed', 'hitl.intervention_recorded']);
    expect(closing.resume).toBeUndefined();
  });

  describe('deadlines', () => {
    const gate = STANDARD_GATES.find((g) => g.id === 'production_deploy')!;
    const deadlines = resolveDeadlineSettings({ escalation: { deployment_lead: [{ after_ms: 600_000, channels: ['pager'] }, { after_ms: 1_800_000, channels: ['leads'] }] } }, ['oncall', 'pager', 'leads']);
    const at = (ms: number) => new Date(NOW.getTime() + ms);
    const requestOf = (view: GateView) => view.state!.requests[0]!;
    function held(): GateView {
      const v = verdict('x1');
      const step = onVerdict(normal, v, holdOf(v, { phase: 'deployment', environment: 'production', approvals: [] }, [gate], false), NOW, false, deadlines);
      return { ...normal, state: savedState(step.effects) };
    }

    it('runs each escalation step once when it is due, then denies at the final deadline naming the channels asked', () => {
      let view = held();
      expect(requestOf(view)).toMatchObject({ asked: ['oncall'], escalated: 0, expires_at: at(3_600_000).toISOString() });
      expect(onDeadline(view, requestOf(view).request_id, at(599_999))).toMatchObject({ kind: 'wait' });

      const first = onDeadline(view, requestOf(view).request_id, at(600_000))!;
      expect(first.kind).toBe('escalate');
      if (first.kind !== 'escalate') return;
      // Told first, stored after: a gate that dies between the two runs the step again, each effect at most once.
      expect(kinds(first.effects)).toEqual(['escalate', 'save']);
      expect(first.run).toEqual({ step: 1, at: at(600_000).toISOString(), after_ms: 600_000, channels: ['pager'] });
      const escalate = first.effects[0] as Extract<GateEffect, { kind: 'escalate' }>;
      expect(escalate.message).toMatchObject({ type: 'gate.escalated', payload: { step: 1, channels: ['pager'], reason: 'ESCALATION_DEADLINE', escalation: 'deployment_lead' } });
      view = { ...view, state: savedState(first.effects) };
      expect(requestOf(view)).toMatchObject({ asked: ['oncall', 'pager'], escalated: 1 });
      // The same instant again (a timer firing twice): nothing more is due.
      expect(onDeadline(view, requestOf(view).request_id, at(600_000))).toMatchObject({ kind: 'wait' });

      const second = onDeadline(view, requestOf(view).request_id, at(1_800_000))!;
      expect(second).toMatchObject({ kind: 'escalate', run: { step: 2, channels: ['leads'] } });
      const secondEffects = (second as { effects: GateEffect[] }).effects;
      // Each step is its own message: JetStream drops only a repeat of the same step.
      expect((secondEffects[0] as Extract<GateEffect, { kind: 'escalate' }>).message.id).not.toBe(escalate.message.id);
      view = { ...view, state: savedState(secondEffects) };

      const final = onDeadline(view, requestOf(view).request_id, at(3_600_000))!;
      expect(final.kind).toBe('expire');
      if (final.kind !== 'expire') return;
      const reason = 'Nobody answered the approval request of gate production_deploy within 60 min (asked: oncall, then pager, then leads); the action is denied: nothing is approved without an answer.';
      expect(final.resolution).toEqual({ resolution: 'reject', operator_id: 'system', decided_by: 'gate_timeout', reason });
      expect(final.how).toEqual({ causeId: `timeout:${requestOf(view).request_id}`, timedOutRequest: requestOf(view).request_id, rejectionPrompt: `${reason} Do not retry it without an approval.` });
      expect(final.escalation).toMatchObject({ type: 'gate.escalated', payload: { reason: 'TIMEOUT', channels: ['oncall', 'pager', 'leads'] } });
      // What the agent reads in its decision.
      const entry = { needs_approval: true, verdict: verdict('x1') };
      expect(decisionForHeld(entry, undefined, final.resolution)).toMatchObject({ decision: 'deny', decided_by: 'gate_timeout', reason });
    });

    it('after a long stop, runs the steps that came due one at a time, and a final deadline passed first denies at once', () => {
      const view = held();
      const id = requestOf(view).request_id;
      expect(onDeadline(view, id, at(2_000_000))).toMatchObject({ kind: 'escalate', run: { step: 1 } });
      expect(onDeadline(view, id, at(3_600_001))).toMatchObject({ kind: 'expire' });
    });

    it('denies at the final deadline whatever the stored request says: silence approves nothing', () => {
      const view = held();
      // A request stored when gates had an on-timeout policy.
      const legacy = { ...requestOf(view), on_timeout: 'approve', escalation_steps: undefined, escalated: undefined, asked: undefined } as never;
      const stored = { ...view, state: { ...view.state!, requests: [legacy] } };
      const final = onDeadline(stored, requestOf(view).request_id, at(3_600_000))!;
      expect(final).toMatchObject({ kind: 'expire', resolution: { resolution: 'reject' } });
      expect(decisionForHeld({ needs_approval: true, verdict: verdict('x1') }, undefined, { resolution: 'approve', operator_id: 'system', decided_by: 'gate_timeout' })).toMatchObject({ decision: 'deny' });
    });

    it('ignores a request no longer pending', () => {
      const view = held();
      expect(onDeadline(view, 'other', at(3_600_000))).toBeUndefined();
      expect(onDeadline(normal, requestOf(view).request_id, at(3_600_000))).toBeUndefined();
    });
  });

  it('keeps approvals once per phase until the phase changes, and forgets the facts of an ended session', () => {
    const started = createMessage('session.started', { session_id: 's1', agent_id: 'a1', payload: { ...EXAMPLE_PAYLOADS['session.started'], phase: 'deployment' } });
    expect(factsAfter(started, { approvals: ['production_deploy@deployment', 'cost_overrun'] })).toMatchObject({ phase: 'deployment', approvals: ['production_deploy@deployment', 'cost_overrun'] });
    const changed = createMessage('session.phase_changed', { session_id: 's1', agent_id: 'a1', payload: { ...EXAMPLE_PAYLOADS['session.phase_changed'], phase: 'testing' } });
    expect(factsAfter(changed, { approvals: ['production_deploy@deployment', 'cost_overrun'] })).toEqual({ phase: 'testing', approvals: ['cost_overrun'] });
    const ended = createMessage('session.ended', { session_id: 's1', agent_id: 'a1', payload: EXAMPLE_PAYLOADS['session.ended'] });
    expect(factsAfter(ended, { approvals: [] })).toBeUndefined();
  });
});
