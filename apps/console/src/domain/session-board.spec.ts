import type { ConsoleEvent } from './console-event.js';
import { SessionBoard, type BoardChange } from './session-board.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, second)).toISOString();
let n = 0;
const event = (type: string, second: number, payload: Record<string, unknown>, extra: Partial<ConsoleEvent> = {}): ConsoleEvent => ({
  id: `e${++n}`,
  type,
  at: at(second),
  agent_id: 'agent-1',
  session_id: 's1',
  trace_id: `t${n}`,
  payload,
  ...extra,
});
const verdict = (id: string, second: number, kind: string, command: string, extra: Partial<ConsoleEvent> = {}) =>
  event('review.verdict', second, { action_id: id, verdict: kind, reasons: [`${kind} because`], risk: { severity: 'high' }, action: { kind: 'tool_use', tool: 'Bash', input: { command } } }, extra);
const decision = (id: string, second: number, kind = 'allow') => event('decision.made', second, { action_id: id, decision: kind, verdict: 'allow', reason: 'r', reasons: [], decided_by: 'reviewer' });

describe('session board', () => {
  it('follows a session from start to end: last action, patterns, counts', () => {
    const board = new SessionBoard();
    board.apply(event('session.started', 0, { context: { goal: 'Fix the parser' } }));
    board.apply(event('action.proposed', 1, { action_id: 'a1', tool: 'Read', input: { file_path: '/work/a.ts' } }));
    board.apply(decision('a1', 2));
    board.apply(event('action.proposed', 3, { action_id: 'a2', tool: 'Bash', input: { command: 'rm -rf /' } }));
    board.apply(decision('a2', 4, 'deny'));
    board.apply(event('pattern.detected', 5, { pattern_type: 'repetitive_errors', shadow: false }));
    board.apply(event('pattern.detected', 6, { pattern_type: 'scope_creep', shadow: true }));
    expect(board.summary('agent-1.s1')).toMatchObject({
      status: 'running',
      goal: 'Fix the parser',
      last_action: { tool: 'Bash', summary: 'Bash: rm -rf /', decision: 'deny' },
      patterns: ['repetitive_errors'],
      actions: 2,
      denied: 1,
      started_at: at(0),
      last_at: at(6),
    });
    board.apply(event('session.ended', 7, { status: 'success' }));
    expect(board.summary('agent-1.s1')!.status).toBe('ended');
  });

  it('queues a paused session with what the gate holds, whatever order the streams deliver in', () => {
    const board = new SessionBoard();
    board.apply(verdict('a1', 1, 'allow', 'ls'));
    board.apply(decision('a1', 2));
    // The pause (gate stream) arrives before the verdict that caused it (verdict stream).
    board.apply(event('hitl.paused', 4, { operator_id: 'system', reason: 'Needs approval', trigger: 'require_approval' }, { trace_id: 'W1' }));
    board.apply(verdict('a2', 3, 'require_approval', 'sudo apt-get install -y jq'));
    board.apply(event('gate.requested', 4, { request_id: 'req-1', gate_id: 'security_findings', prompt: 'Look', summary: 'apt-get' }));
    expect(board.summary('agent-1.s1')!.status).toBe('paused');
    const [approval] = board.approvals();
    expect(approval).toMatchObject({
      key: 'agent-1.s1',
      window: { id: 'W1', trigger: 'require_approval', since: at(4) },
      held: [{ action_id: 'a2', verdict: 'require_approval', summary: 'Bash: sudo apt-get install -y jq', input: { command: 'sudo apt-get install -y jq' } }],
      requests: [{ request_id: 'req-1', gate_id: 'security_findings' }],
      recent: [{ action_id: 'a1', decision: 'allow' }],
    });
    expect(approval!.held[0]!.trace_id).toBeDefined();
    board.apply(event('gate.responded', 5, { request_id: 'req-1', gate_id: 'security_findings', approved: true, approver: 'alice', response_ms: 12_400, outcome: 'approved', channel: 'slack', digest: 'd'.repeat(64) }));
    expect(board.summary('agent-1.s1')!.answers).toEqual([
      { request_id: 'req-1', gate_id: 'security_findings', outcome: 'approved', approver: 'alice', channel: 'slack', digest: 'd'.repeat(64), response_ms: 12_400, at: expect.any(String) },
    ]);
    // A request nobody answered: its final deadline denied it; the channels asked come with it.
    board.apply(event('gate.responded', 5, { request_id: 'req-2', gate_id: 'migrations', approved: false, approver: 'system', reason: 'TIMEOUT', response_ms: 600_000, outcome: 'timed_out', asked_channels: ['oncall', 'pager'] }));
    expect(board.summary('agent-1.s1')!.answers[1]).toEqual({ request_id: 'req-2', gate_id: 'migrations', outcome: 'timed_out', approver: 'system', asked: ['oncall', 'pager'], response_ms: 600_000, at: expect.any(String) });
    board.apply(decision('a2', 6));
    board.apply(event('hitl.resumed', 6, { operator_id: 'operator-xander', flushed: 1 }, { trace_id: 'W1' }));
    expect(board.approvals()).toEqual([]);
    expect(board.summary('agent-1.s1')!.status).toBe('running');
  });

  it('orders the queue oldest first and shows a stopped session as stopped until it resumes', () => {
    const board = new SessionBoard();
    board.apply(event('hitl.paused', 9, { operator_id: 'x', reason: 'later', trigger: 'operator' }, { session_id: 'late', trace_id: 'W2' }));
    board.apply(event('hitl.paused', 3, { operator_id: 'x', reason: 'first', trigger: 'operator' }, { session_id: 'early', trace_id: 'W1' }));
    board.apply(event('control.issued', 4, { kind: 'emergency_stop', control_id: 'c1' }, { session_id: 'early' }));
    expect(board.approvals().map((a) => [a.session_id, a.stopped])).toEqual([
      ['early', true],
      ['late', false],
    ]);
    expect(board.summary('agent-1.early')!.status).toBe('stopped');
    board.apply(event('hitl.resumed', 5, { operator_id: 'x', flushed: 0 }, { session_id: 'early', trace_id: 'W1' }));
    board.apply(event('control.issued', 5, { kind: 'resume', control_id: 'c2' }, { session_id: 'early' }));
    expect(board.summary('agent-1.early')!.status).toBe('running');
  });

  it('applies an event once, and says what changed', () => {
    const board = new SessionBoard();
    const changes: BoardChange[] = [];
    board.onChange((change) => changes.push(change));
    const started = event('session.started', 0, { context: {} });
    board.apply(started);
    board.apply(started);
    board.setBreakers('agent-1', 's1', ['cost']);
    board.setLevel('agent-1', 2);
    expect(board.summary('agent-1.s1')).toMatchObject({ breakers: ['cost'], level: 2 });
    expect(board.events('agent-1.s1')).toHaveLength(1);
    expect(changes).toEqual([{ kind: 'session', key: 'agent-1.s1' }, { kind: 'session', key: 'agent-1.s1' }, { kind: 'session', key: 'agent-1.s1' }, { kind: 'agent', agentId: 'agent-1' }]);
  });

  it('lists agents with level, track record and sessions, and keeps ladder changes for their sessions', () => {
    const board = new SessionBoard();
    board.apply(event('session.started', 0, {}));
    board.setTrackRecord('agent-2', { level: 3, pin: { by: 'admin', at: at(0) }, metrics: { totalRuns: 60, successfulRuns: 58, falsePositives: 1, missedCriticalBugs: 0, approvalRate: 0.9 } });
    board.apply(event('ladder.level_changed', 2, { from: 1, to: 2, changed_by: 'admin', reason: 'set' }, { session_id: '_' }));
    expect(board.agents()).toEqual([
      { agent_id: 'agent-1', sessions: 1, active: 1, spend_usd: 0, sessions_with_spend: 0 },
      { agent_id: 'agent-2', level: 3, record: expect.objectContaining({ pin: expect.objectContaining({ by: 'admin' }) }), sessions: 0, active: 0, spend_usd: 0, sessions_with_spend: 0 },
    ]);
    expect(board.events('agent-1.s1').map((e) => e.type)).toEqual(['session.started', 'ladder.level_changed']);
  });

  it('forgets the least recently active ended session beyond its limit', () => {
    const board = new SessionBoard({ maxSessions: 2, maxEventsPerSession: 3 });
    board.apply(event('session.ended', 1, { status: 'success' }, { session_id: 'old' }));
    board.apply(event('session.started', 2, {}, { session_id: 'running' }));
    board.apply(event('session.started', 3, {}, { session_id: 'new' }));
    expect(board.list().map((s) => s.session_id)).toEqual(['new', 'running']);
    for (let i = 0; i < 5; i++) board.apply(event('action.proposed', 10 + i, { action_id: `a${i}`, tool: 'Read', input: {} }, { session_id: 'new' }));
    expect(board.events('agent-1.new')).toHaveLength(3);
  });

  it('adds up what a session spent, by source, and says when it has no spend data at all', () => {
    const board = new SessionBoard();
    board.apply(event('session.started', 0, { context: { goal: 'Fix the parser' } }));
    expect(board.summary('agent-1.s1')!.spend).toBeUndefined();
    expect(board.agents()).toEqual([expect.objectContaining({ agent_id: 'agent-1', spend_usd: 0, sessions_with_spend: 0 })]);
    const changes: BoardChange[] = [];
    board.onChange((change) => changes.push(change));
    board.apply(event('breaker.cost_recorded', 1, { model: 'claude-sonnet-4-6', prompt_tokens: 42_000, completion_tokens: 200, cost_usd: 0.25, operation: 'usage.reported', source: 'telemetry_event', priced_by: 'agent' }));
    board.apply(event('breaker.cost_recorded', 2, { model: 'claude-haiku-4-5', prompt_tokens: 1000, completion_tokens: 100, cost_usd: 0.5, operation: 'usage.reported', source: 'telemetry_event', priced_by: 'agent' }));
    expect(board.summary('agent-1.s1')!.spend).toEqual({
      usd: 0.75,
      records: 2,
      prompt_tokens: 43_000,
      completion_tokens: 300,
      sources: ['telemetry_event'],
      models: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
      last_at: at(2),
    });
    expect(changes).toContainEqual({ kind: 'agent', agentId: 'agent-1' });
    board.apply(event('session.started', 3, {}, { session_id: 's2' }));
    expect(board.agents()).toEqual([expect.objectContaining({ agent_id: 'agent-1', sessions: 2, spend_usd: 0.75, sessions_with_spend: 1 })]);
  });

  it('lists the actions that ran against Warden\'s decision, with the action', () => {
    const board = new SessionBoard();
    board.apply(event('action.ran_against_decision', 1, {
      action_id: 'toolu_sub',
      tool: 'Bash',
      input: { command: 'rm -rf build' },
      warden_decision: 'denied',
      reason: 'Recursive deletion',
      status: 'success',
      reported_by: 'claude-code after-tool hook',
      subagent: { id: 'agent-1a', type: 'Explore' },
    }));
    expect(board.summary('agent-1.s1')!.incidents).toEqual([
      { action_id: 'toolu_sub', at: at(1), tool: 'Bash', summary: 'Bash: rm -rf build', warden_decision: 'denied', reason: 'Recursive deletion', subagent: 'Explore', status: 'success' },
    ]);
  });
});
