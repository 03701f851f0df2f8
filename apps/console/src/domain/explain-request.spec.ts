import type { ConsoleEvent } from './console-event.js';
import { explainRequestOf, MAX_HISTORY } from './explain-request.js';

let n = 0;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();
function event(type: string, minute: number, payload: Record<string, unknown>, agent = 'agent-1'): ConsoleEvent {
  return { id: `m${++n}`, type, at: at(minute), agent_id: agent, session_id: 's1', trace_id: `t${n}`, payload };
}

const started = event('session.started', 0, { context: { goal: 'Fix the build', cwd: '/work/app' }, environment: 'production' });
const failing = event('action.proposed', 1, { action_id: 'a1', kind: 'tool_use', tool: 'Bash', input: { command: 'npm test' } });
const failed = event('action.outcome', 2, { action_id: 'a1', status: 'error', error: { message: 'exit code 1' } });
const firstVerdict = event('review.verdict', 1, { action_id: 'a1', verdict: 'allow', reasons: [] });
const write = event('action.proposed', 3, { action_id: 'w1', kind: 'tool_use', tool: 'Write', input: { file_path: '/work/app/infra/main.tf', content: 'x' } });
const writeVerdict = event('review.verdict', 3, {
  action_id: 'w1',
  verdict: 'require_approval',
  decided_by: 'rule',
  rule_hits: ['infra_after_failures'],
  reasons: ['A person must look.'],
  automation_level: 2,
  session_spend_usd: 14.2,
  action: { kind: 'tool_use', tool: 'Write', input: { file_path: '/work/app/infra/main.tf', content: 'x' } },
});
const later = event('action.outcome', 9, { action_id: 'w1', status: 'success' });
const otherAgent = event('action.outcome', 2, { action_id: 'z1', status: 'error' }, 'agent-2');

describe('explainRequestOf: what the console asks the reviewer to explain', () => {
  it("sends the action as proposed, the session's replayable messages before it, and the level and spend its verdict recorded", () => {
    const events = [started, failing, firstVerdict, failed, otherAgent, write, writeVerdict, later];
    expect(explainRequestOf(events, 'agent-1', 's1', 'w1')).toEqual({
      body: {
        agent_id: 'agent-1',
        session_id: 's1',
        action: write.payload,
        at: write.at,
        level: 2,
        spend_usd: 14.2,
        history: [started, failing, failed].map((e) => ({ type: e.type, at: e.at, payload: e.payload })),
      },
      recorded: { verdict: 'require_approval', decided_by: 'rule', rule_hits: ['infra_after_failures'], reasons: ['A person must look.'], at: writeVerdict.at },
      dropped: 0,
    });
  });

  it('falls back on the action its verdict carries when the proposal is older than what the console holds', () => {
    const explainable = explainRequestOf([started, failing, failed, writeVerdict], 'agent-1', 's1', 'w1')!;
    expect(explainable.body.action).toEqual({ action_id: 'w1', kind: 'tool_use', tool: 'Write', input: { file_path: '/work/app/infra/main.tf', content: 'x' } });
    expect(explainable.body.history.map((e) => e.type)).toEqual(['session.started', 'action.proposed', 'action.outcome']);
    expect(explainRequestOf([started, failing], 'agent-1', 's1', 'w1')).toBeUndefined();
    expect(explainRequestOf([started, write], 'agent-2', 's1', 'w1')).toBeUndefined();
  });

  it("keeps the declaration and the latest messages within the reviewer's limit, and says how many it left out", () => {
    const many = Array.from({ length: MAX_HISTORY + 10 }, (_, i) => event('action.outcome', 1, { action_id: `x${i}`, status: 'success' }));
    const explainable = explainRequestOf([started, ...many, write], 'agent-1', 's1', 'w1')!;
    expect(explainable.body.history).toHaveLength(MAX_HISTORY);
    expect(explainable.body.history[0]!.type).toBe('session.started');
    expect(explainable.body.history.at(-1)!.payload).toEqual({ action_id: `x${MAX_HISTORY + 9}`, status: 'success' });
    expect(explainable.dropped).toBe(11);
  });
});
