import { actionBody, actionHref } from './action-view.js';

const explainable = {
  body: { agent_id: 'agent-1', session_id: 's1', action: { action_id: 'w1', kind: 'tool_use', tool: 'Write', input: { file_path: '<b>x</b>' } }, at: '2026-11-01T12:00:00.000Z', history: [] },
  recorded: { verdict: 'block', decided_by: 'rule', rule_hits: ['r'], reasons: ['<script>alert(1)</script>'], at: '2026-11-01T12:00:00.000Z' },
  dropped: 0,
};
const explanation = {
  verdict: 'block',
  decided_by: 'rule',
  decided_by_name: 'r',
  why: ['Rule r decides: <i>block</i>.'],
  rules: [{ rule: 'r', origin: 'custom', result: 'matched', shadow: false, verdict: 'block', score: 0.9, reason: '<img src=x>', conditions: [{ condition: 'when: action.tool == "<w>"', value: true, parts: [{ condition: 'action.tool', value: '<w>' }] }] }],
  switched_off: [],
  session: { goal: '<goal>', environment: '', phase: '', actions: 0, failures: 0, patterns: [] },
};

describe('the action page', () => {
  it('escapes everything the agent, the policy and the reviewer wrote', () => {
    const page = actionBody('agent-1', 's1', 'w1', explainable, { status: 200, body: explanation }).text;
    for (const text of ['<script>', '<img', '<b>x', '<i>block', '"<w>"', '<goal>']) expect(page).not.toContain(text);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('<code>action.tool</code> = <code class="value">&quot;&lt;w&gt;&quot;</code>');
    expect(page).toContain('The same verdict as recorded.');
  });

  it("says when the reviewer could not explain, and links by the action's ids", () => {
    const page = actionBody('agent-1', 's1', 'w1', explainable, { status: 503, body: { reason: 'reviewer_unreachable: <x>' } }).text;
    expect(page).toContain('The reviewer could not explain it (503: reviewer_unreachable: &lt;x&gt;).');
    expect(actionHref('agent 1', 's/1', 'w?1')).toBe('/sessions/s%2F1/actions/w%3F1?agent=agent%201');
  });
});
