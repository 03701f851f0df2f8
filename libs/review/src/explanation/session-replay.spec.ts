import type { CustomRuleDefinition } from '../rules/custom-rule-definition.js';
import { InvalidExplainRequest, MAX_HISTORY, parseExplainRequest } from './explain-request.js';
import { explainInSession, explainInSessionPausing, type SessionEvent } from './session-replay.js';

const AFTER_FAILURES: CustomRuleDefinition = {
  name: 'infra_after_failures',
  when: 'session.failures >= 3 && action.written.exists(p, glob(p, "**/infra/**"))',
  verdict: 'require_approval',
  reason: 'Infrastructure changes after failures need a person.',
};
const WHILE_LOOPING: CustomRuleDefinition = { name: 'no_writes_while_looping', when: '"repetitive_errors" in session.patterns && action.written.size() > 0', verdict: 'block', reason: 'Stop and look.' };
const sources = { settings: {}, extraRules: [AFTER_FAILURES, WHILE_LOOPING] };
const address = { agentId: 'agent-1', sessionId: 's1' };
const WRITE = { action_id: 'w1', kind: 'tool_use', tool: 'Write', input: { file_path: '/work/app/infra/main.tf', content: 'x' } };

const minute = (n: number) => new Date(Date.UTC(2026, 10, 1, 12, n)).toISOString();
const started: SessionEvent = { type: 'session.started', at: minute(0), payload: { context: { goal: 'Fix the build', cwd: '/work/app', expected_paths: ['/work/app/**'] }, environment: 'staging' } };

/** n commands that failed, one a minute from minute 1. */
function failures(n: number): SessionEvent[] {
  return Array.from({ length: n }, (_, i) => [
    { type: 'action.proposed', at: minute(i + 1), payload: { action_id: `f${i}`, kind: 'tool_use', tool: 'Bash', input: { command: `npm run step-${i}` } } },
    { type: 'action.outcome', at: minute(i + 1), payload: { action_id: `f${i}`, status: 'error', error: { message: 'exit code 1' } } },
  ]).flat();
}

const pattern = (at: string): SessionEvent => ({
  type: 'pattern.detected',
  at,
  payload: { pattern_id: 'p1', pattern_type: 'repetitive_errors', severity: 'medium', confidence: 0.9, impact_factor: 1, description: 'x', evidence_action_ids: [], details: {}, episode: 1, shadow: false },
});

describe('explainInSession: an action explained in the session it belongs to', () => {
  it('goes through the session before the action: the same write is fine after two failures and needs a person after three', () => {
    const two = explainInSession({ sources, address, history: [started, ...failures(2)], action: WRITE, at: minute(5) });
    expect(two.session).toEqual({ goal: 'Fix the build', phase: '', environment: 'staging', agent_kind: '', actions: 2, failures: 2, patterns: [] });
    expect(two.rules.find((r) => r.rule === 'infra_after_failures')).toMatchObject({ result: 'not_matched' });
    const three = explainInSession({ sources, address, history: [started, ...failures(3)], action: WRITE, at: minute(5) });
    expect(three.session).toMatchObject({ actions: 3, failures: 3 });
    expect(three).toMatchObject({ verdict: 'require_approval', decided_by: 'rule', decided_by_name: 'infra_after_failures' });
  });

  it('runs on the times of the messages: a pattern reported 19 minutes before the last action has passed, one reported a minute before has not', () => {
    const lastAction: SessionEvent[] = [
      { type: 'action.proposed', at: minute(20), payload: { action_id: 'r1', kind: 'tool_use', tool: 'Read', input: { file_path: '/work/app/README.md' } } },
      { type: 'action.outcome', at: minute(20), payload: { action_id: 'r1', status: 'success' } },
    ];
    const old = explainInSession({ sources, address, history: [started, pattern(minute(1)), ...lastAction], action: WRITE, at: minute(21) });
    expect(old.session.patterns).toEqual([]);
    expect(old.rules.find((r) => r.rule === 'no_writes_while_looping')!.result).toBe('not_matched');
    const fresh = explainInSession({ sources, address, history: [started, pattern(minute(19)), ...lastAction], action: WRITE, at: minute(21) });
    expect(fresh.session.patterns).toEqual(['repetitive_errors']);
    expect(fresh).toMatchObject({ verdict: 'block', decided_by_name: 'no_writes_while_looping' });
  });

  it('pauses between parts of a long replay, for a process that reviews meanwhile, and explains the same', async () => {
    const history = [started, ...failures(30)];
    let pauses = 0;
    const pausing = await explainInSessionPausing({ sources, address, history, action: WRITE, at: minute(40) }, async () => void pauses++, 10);
    expect(pauses).toBe(Math.ceil(history.length / 10));
    expect(pausing).toEqual(explainInSession({ sources, address, history, action: WRITE, at: minute(40) }));
    expect(pausing).toMatchObject({ verdict: 'require_approval', session: { failures: 30 } });
  });

  it("weighs the agent's automation level when the verdict had one", () => {
    const explanation = explainInSession({ sources, address, history: [started], action: { ...WRITE, input: { file_path: '/work/app/src/a.ts', content: 'x' } }, level: 0 });
    expect(explanation.session.level).toBe(0);
    expect(explanation.candidates).toContainEqual({ source: 'ladder', name: 'level 0', verdict: 'require_approval' });
    expect(explanation.decided_by).toBe('ladder');
  });

  it("replays the session's spend the verdict read, for a rule on session.spend_usd", () => {
    const costly: CustomRuleDefinition = { name: 'costly_writes', when: 'session.spend_usd > 10.0 && action.written.size() > 0', verdict: 'require_approval', reason: 'A person looks at what a costly session writes.' };
    const withSpend = { settings: {}, extraRules: [costly] };
    const write = { ...WRITE, input: { file_path: '/work/app/src/a.ts', content: 'x' } };
    const spent = explainInSession({ sources: withSpend, address, history: [started], action: write, spendUsd: 12.4 });
    expect(spent.session.spend_usd).toBe(12.4);
    expect(spent.rules.find((r) => r.rule === 'costly_writes')).toMatchObject({ result: 'matched' });
    const fresh = explainInSession({ sources: withSpend, address, history: [started], action: write });
    expect(fresh.session).not.toHaveProperty('spend_usd');
    expect(fresh.rules.find((r) => r.rule === 'costly_writes')).toMatchObject({ result: 'not_matched' });
  });
});

describe('parseExplainRequest: what the reviewer takes over HTTP', () => {
  const body = (history: unknown[], extra: Record<string, unknown> = {}) => ({ agent_id: 'agent-1', session_id: 's1', action: WRITE, history, ...extra });

  it('takes an action and its session, each message checked against its contract', () => {
    expect(parseExplainRequest(body([started, ...failures(1)], { at: minute(3), level: 2 }))).toEqual({ address, action: WRITE, at: minute(3), level: 2, history: [started, ...failures(1)] });
    expect(parseExplainRequest(body([started], { spend_usd: 7.5 }))).toEqual({ address, action: WRITE, spendUsd: 7.5, history: [started] });
  });

  it('refuses what the services would refuse, naming the place', () => {
    const bad = (value: unknown) => {
      try {
        parseExplainRequest(value);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidExplainRequest);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const [proposed, outcome] = failures(1);
    expect(bad(body([started, proposed, { ...outcome, payload: { action_id: 'f0', status: 'maybe' } }]))).toMatch(/^\/history\/2\/payload \(action\.outcome\) \/status: /);
    expect(bad(body([{ type: 'gate.command', payload: {} }]))).toMatch(/^\/history\/0\/type/);
    expect(bad(body([], { session_id: 'a.b' }))).toMatch(/^\/session_id/);
    expect(bad(body([], { action: { tool: 'Bash' } }))).toMatch(/^\/action/);
    expect(bad(body(Array.from({ length: MAX_HISTORY + 1 }, () => started)))).toMatch(/^\/history/);
    expect(bad('not an object')).toMatch(/^\//);
  });
});
