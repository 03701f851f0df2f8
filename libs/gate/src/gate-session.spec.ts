import { createMessage, EXAMPLE_PAYLOADS, OPERATOR_REJECTION_PROMPT, type MessageOf, type PayloadOf } from '@warden/contracts';
import type { StoredEntry, Verdict } from './buffer-entry.js';
import { factsAfter, holdOf, onFlushed, onInject, onPause, onResume, onRewrite, onTimeout, onVerdict, TIMEOUT_REJECTION_PROMPT, unpauseResolution, type GateEffect, type GateView } from './gate-session.js';
import type { HitlCommand } from './hitl-command.js';
import { STANDARD_GATES } from './human-gates.js';
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
    expect(request.pending).toMatchObject({ gate_id: 'production_deploy', on_timeout: 'deny', expires_at: new Date(NOW.getTime() + gate.timeout_ms).toISOString() });
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

  it('escalates a timed-out request and resolves it by the gate policy; ignores one no longer pending', () => {
    const gate = STANDARD_GATES.find((g) => g.id === 'production_deploy')!;
    const v = verdict('x1');
    const step = onVerdict(normal, v, holdOf(v, { phase: 'deployment', environment: 'production', approvals: [] }, [gate], false), NOW, false);
    const view = { ...normal, state: savedState(step.effects) };
    const requestId = view.state.requests[0]!.request_id;
    const timeout = onTimeout(view, requestId)!;
    expect(timeout.escalation.type).toBe('gate.escalated');
    expect(timeout.resolution).toMatchObject({ resolution: 'reject', decided_by: 'gate_timeout' });
    expect(timeout.how).toMatchObject({ timedOutRequest: requestId, rejectionPrompt: TIMEOUT_REJECTION_PROMPT });
    expect(onTimeout(view, 'other')).toBeUndefined();
    expect(onTimeout(normal, requestId)).toBeUndefined();
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
