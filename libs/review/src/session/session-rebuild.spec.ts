import type { SessionEvent } from '../explanation/session-replay.js';
import type { CustomRuleDefinition } from '../rules/custom-rule-definition.js';
import { StepReviewer } from '../step-reviewer.js';
import { rebuildSession } from './session-rebuild.js';

const AFTER_FAILURES: CustomRuleDefinition = {
  name: 'infra_after_failures',
  when: 'session.failures >= 3 && action.written.exists(p, glob(p, "**/infra/**"))',
  verdict: 'require_approval',
  reason: 'Infrastructure changes after failures need a person.',
};
const policy = { settings: {}, extraRules: [AFTER_FAILURES] };
const address = { agentId: 'agent-1', sessionId: 's1' };
const WRITE = { action_id: 'w1', kind: 'tool_use' as const, tool: 'Write', input: { file_path: '/work/app/infra/main.tf', content: 'x' } };
const minute = (n: number) => new Date(Date.UTC(2026, 10, 1, 12, n)).toISOString();
const started: SessionEvent = { type: 'session.started', at: minute(0), payload: { context: { goal: 'Fix the build', cwd: '/work/app', expected_paths: ['/work/app/**'] } } };

function failures(n: number): SessionEvent[] {
  return Array.from({ length: n }, (_, i) => [
    { type: 'action.proposed', at: minute(i + 1), payload: { action_id: `f${i}`, kind: 'tool_use', tool: 'Bash', input: { command: `npm run step-${i}` } } },
    { type: 'action.outcome', at: minute(i + 1), payload: { action_id: `f${i}`, status: 'error', error: { message: 'exit code 1' } } },
  ]).flat();
}

describe('rebuildSession: a session taken over mid-way', () => {
  it("counts what happened before the takeover: the live reviewer holding the rebuilt session reviews the next action as the session's own replica would have", async () => {
    const pauses: number[] = [];
    const rebuilt = await rebuildSession(policy, address, [started, ...failures(3)], async () => void pauses.push(1), 2);
    expect({ actions: rebuilt.actionsReviewed, failures: rebuilt.failures, declared: rebuilt.declared, goal: rebuilt.context.goal }).toEqual({ actions: 3, failures: 3, declared: true, goal: 'Fix the build' });
    // Seven messages, two at a time: three pauses between the four slices, none after the last.
    expect(pauses).toHaveLength(3);

    const live = new StepReviewer({ ...policy });
    expect(live.review(WRITE, address).verdict).toMatchObject({ verdict: 'allow' });
    const taken = new StepReviewer({ ...policy });
    taken.sessionStore.adopt(address, rebuilt);
    expect(taken.review({ ...WRITE, action_id: 'w2' }, address).verdict).toMatchObject({ verdict: 'require_approval', rule_hits: ['infra_after_failures'] });
  });

  it('follows the messages\' clock, not the time of the takeover: the rebuilt session last acted when its last message was stored', async () => {
    const rebuilt = await rebuildSession(policy, address, [started, ...failures(2)], () => Promise.resolve());
    expect(rebuilt.lastSeen).toBe(Date.parse(minute(2)));
  });

  it('keeps the declaration across a pause longer than the idle time after which the service forgets a session', async () => {
    const later: SessionEvent[] = failures(2).map((e) => ({ ...e, at: new Date(Date.parse(e.at!) + 3 * 3_600_000).toISOString() }));
    const rebuilt = await rebuildSession(policy, address, [started, ...failures(1), ...later.map((e) => ({ ...e, payload: { ...(e.payload as object), action_id: `late-${(e.payload as { action_id: string }).action_id}` } }))], () => Promise.resolve());
    expect({ actions: rebuilt.actionsReviewed, failures: rebuilt.failures, declared: rebuilt.declared, cwd: rebuilt.context.cwd }).toEqual({ actions: 3, failures: 3, declared: true, cwd: '/work/app' });
  });

  it('an empty history is a fresh, undeclared session', async () => {
    const rebuilt = await rebuildSession(policy, address, [], () => Promise.resolve());
    expect({ actions: rebuilt.actionsReviewed, failures: rebuilt.failures, declared: rebuilt.declared }).toEqual({ actions: 0, failures: 0, declared: false });
  });
});
