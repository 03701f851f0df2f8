import { buildCausalGraph, type GraphNode } from './causal-graph.js';
import type { ConsoleEvent } from './console-event.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, second)).toISOString();
let n = 0;
const event = (type: string, second: number, payload: Record<string, unknown>, extra: Partial<ConsoleEvent> = {}): ConsoleEvent => ({
  id: `e${++n}`,
  type,
  at: at(second),
  agent_id: 'agent-1',
  session_id: 'sess-abc',
  trace_id: `t${n}`,
  payload,
  ...extra,
});

const action = (id: string, second: number, command: string) => event('action.proposed', second, { action_id: id, tool: 'Bash', input: { command } });
const decision = (id: string, second: number, trace: string, extra: Record<string, unknown> = {}) =>
  event('decision.made', second, { action_id: id, decision: 'allow', verdict: 'allow', reason: 'fine', reasons: [], decided_by: 'reviewer', ...extra }, { trace_id: trace });
const record = (id: string, type: string, second: number, extra: Record<string, unknown> = {}) =>
  event('hitl.intervention_recorded', second, { intervention_id: id, operator_id: 'operator-xander', command_type: type, occurred_at: at(second), reversed_at: null, before_state: null, after_state: null, ...extra });

const shapes = (nodes: GraphNode[]) => nodes.map((node) => (node.shape === 'rect' ? `rect(${node.trace_id}${node.rewritten ? '_rewritten' : ''})` : node.shape === 'diamond' ? `diamond(${node.count})` : `circle(${node.terminal})`));

/**
 * FR-11.11's session: T1 and T2 forwarded, T3 held by a require_approval verdict (an automatic pause, no
 * command), rewritten by the operator, and forwarded on unpause. The gate publishes the unpause's record
 * after the flush and the pause window's events on another stream than the decisions, so the console
 * may see them in either order.
 */
function frdSession(order: 'as published' | 'interventions last') {
  const started = event('session.started', 0, { context: { goal: 'fix' } });
  const t1 = [action('a1', 1, 'ls'), decision('a1', 2, 'T1')];
  const t2 = [action('a2', 3, 'npm test'), decision('a2', 4, 'T2')];
  const t3 = action('a3', 5, 'rm -rf dist build');
  const paused = event('hitl.paused', 6, { operator_id: 'system', reason: 'require_approval', trigger: 'require_approval' }, { trace_id: 'W1', causation_id: 'verdict-3' });
  const rewrite = record('r1', 'hitl_rewrite', 8, { target_trace_id: 'T3', command_id: 'cmd-rewrite' });
  const unpause = record('r2', 'hitl_unpause', 9, { command_id: 'cmd-unpause' });
  const t3Decision = decision('a3', 10, 'T3', { decided_by: 'operator', operator_id: 'operator-xander', updated_input: { command: 'rm -rf dist' } });
  const resumed = event('hitl.resumed', 11, { operator_id: 'operator-xander', flushed: 1, resolution: 'approve' }, { trace_id: 'W1', causation_id: 'cmd-unpause' });
  const hitl = [paused, rewrite, unpause, resumed];
  return order === 'as published' ? [started, ...t1, ...t2, t3, paused, rewrite, unpause, t3Decision, resumed] : [started, ...t1, ...t2, t3, t3Decision, ...hitl];
}

describe('causal graph (FR-11.11)', () => {
  it('renders T1, T2, a diamond with one command, then T3 rewritten (positive path)', () => {
    const graph = buildCausalGraph(frdSession('as published'));
    expect(shapes(graph.nodes)).toEqual(['circle(start)', 'rect(T1)', 'rect(T2)', 'diamond(1)', 'rect(T3_rewritten)']);
    const diamond = graph.nodes[3] as Extract<GraphNode, { shape: 'diamond' }>;
    expect(diamond.interventions.map((r) => [r.operator_id, r.command_type, r.occurred_at])).toEqual([
      ['operator-xander', 'hitl_rewrite', at(8)],
      ['operator-xander', 'hitl_unpause', at(9)],
    ]);
    expect(diamond.at).toBe(at(8));
    expect(diamond.window).toMatchObject({ trigger: 'require_approval', closed_by: 'operator-xander', resolution: 'approve' });
    expect(graph.edges).toEqual(graph.nodes.slice(1).map((node, i) => [graph.nodes[i]!.id, node.id]));
  });

  it("places the diamond by the intervention's timestamp, not where its events arrived (negative path)", () => {
    const graph = buildCausalGraph(frdSession('interventions last'));
    expect(shapes(graph.nodes)).toEqual(['circle(start)', 'rect(T1)', 'rect(T2)', 'diamond(1)', 'rect(T3_rewritten)']);
    const diamond = graph.nodes.find((node) => node.shape === 'diamond')!;
    const t3 = graph.nodes.find((node) => node.shape === 'rect' && node.trace_id === 'T3')!;
    expect(diamond.at).toBe(at(8));
    expect(diamond.at < t3.at).toBe(true);
  });

  it('groups every command of one pause window in one diamond with their count, the closing unpause not counted', () => {
    const events = [
      action('a1', 1, 'ls'),
      decision('a1', 2, 'T1'),
      event('hitl.paused', 3, { operator_id: 'operator-xander', reason: 'look', trigger: 'operator' }, { trace_id: 'W1', causation_id: 'cmd-pause' }),
      record('p1', 'hitl_pause', 3, { command_id: 'cmd-pause' }),
      record('r1', 'hitl_rewrite', 4, { command_id: 'cmd-rw', target_trace_id: 'T2' }),
      record('i1', 'hitl_inject', 5, { command_id: 'cmd-inject' }),
      record('u1', 'hitl_unpause', 6, { command_id: 'cmd-unpause' }),
      // The pause record published again with reversed_at when the unpause supersedes it.
      record('p1', 'hitl_pause', 3, { command_id: 'cmd-pause', reversed_at: at(6) }),
      event('hitl.resumed', 7, { operator_id: 'operator-xander', flushed: 2 }, { trace_id: 'W1', causation_id: 'cmd-unpause' }),
      decision('a2', 7, 'T2', { updated_input: { command: 'ls -la' } }),
      record('late', 'hitl_inject', 20, { command_id: 'cmd-late' }),
    ];
    const graph = buildCausalGraph(events);
    expect(shapes(graph.nodes)).toEqual(['circle(start)', 'rect(T1)', 'diamond(3)', 'rect(T2_rewritten)', 'diamond(1)']);
    const grouped = graph.nodes[2] as Extract<GraphNode, { shape: 'diamond' }>;
    expect(grouped.interventions.map((r) => r.command_type)).toEqual(['hitl_pause', 'hitl_rewrite', 'hitl_inject', 'hitl_unpause']);
    expect(grouped.interventions[0]!.reversed_at).toBe(at(6));
  });

  it('shows an open pause window where it opened, and the end of the session last', () => {
    const events = [
      event('session.started', 0, {}),
      action('a1', 1, 'ls'),
      decision('a1', 2, 'T1'),
      event('hitl.paused', 3, { operator_id: 'system', reason: 'hitl_required_flag', trigger: 'hitl_required_flag' }, { trace_id: 'W9' }),
    ];
    const open = buildCausalGraph(events);
    expect(shapes(open.nodes)).toEqual(['circle(start)', 'rect(T1)', 'diamond(0)']);
    expect(open.nodes[2]).toMatchObject({ open: true, at: at(3) });
    const ended = buildCausalGraph([...events, event('session.ended', 4, { status: 'success' })]);
    expect(shapes(ended.nodes).at(-1)).toBe('circle(end)');
  });

  it('puts verdicts, patterns, interventions, breaker trips and ladder changes on the timeline', () => {
    const graph = buildCausalGraph([
      event('review.verdict', 1, { action_id: 'a1', verdict: 'block', reasons: ['rm -rf /'], risk: { severity: 'critical' }, action: { tool: 'Bash', input: {} } }),
      event('pattern.detected', 2, { pattern_type: 'repetitive_errors', description: 'same error 3 times', severity: 'high', shadow: false }),
      event('intervention.issued', 3, { intervention_type: 'soft_correction', escalation_level: 0 }),
      event('breaker.tripped', 4, { breaker: 'cost', reason: 'over budget' }),
      event('ladder.level_changed', 5, { from: 1, to: 0, changed_by: 'ladder', reason: 'emergency stop' }),
    ]);
    expect(graph.markers.map((m) => m.kind)).toEqual(['verdict', 'pattern', 'intervention', 'breaker', 'ladder']);
    expect(graph.markers[3]!.text).toBe('cost breaker tripped: over budget');
  });
});
