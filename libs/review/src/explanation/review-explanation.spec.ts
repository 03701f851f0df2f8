import type { CustomRuleDefinition } from '../rules/custom-rule-definition.js';
import { StepReviewer } from '../step-reviewer.js';
import { explainReview, type RuleExplanation } from './review-explanation.js';

const INFRA_AFTER_FAILURES: CustomRuleDefinition = {
  name: 'infra_after_failures',
  when: 'session.failures >= 2 && action.written.exists(p, glob(p, "**/infra/**"))',
  verdict: 'require_approval',
  reason: 'Infrastructure changes after failures need a person.',
};
const NO_TERRAFORM_APPLY: CustomRuleDefinition = { name: 'no_terraform_apply', match: { command: 'terraform apply*' }, verdict: 'block', reason: 'Plan first.' };
const TRIAL: CustomRuleDefinition = { name: 'trial_no_curl', shadow: true, match: { command: 'curl *' }, verdict: 'block', reason: 'Trying it out.' };

const address = { agentId: 'agent-1', sessionId: 's1' };
const bash = (command: string, id = 'a1') => ({ action_id: id, kind: 'tool_use', tool: 'Bash', input: { command } });
const write = (file_path: string, id = 'w1') => ({ action_id: id, kind: 'tool_use', tool: 'Write', input: { file_path, content: 'x' } });

function reviewer(extraRules: CustomRuleDefinition[] = [INFRA_AFTER_FAILURES, NO_TERRAFORM_APPLY, TRIAL], settings: unknown = {}): StepReviewer {
  const r = new StepReviewer({ settings, extraRules });
  r.startSession(address, { context: { goal: 'Fix the deployment', cwd: '/work/app', expected_paths: ['/work/app/**'] } });
  return r;
}

let failed = 0;
function failCommands(r: StepReviewer, n: number): void {
  for (let i = 0; i < n; i++) {
    const { verdict } = r.review(bash(`false # ${++failed}`, `f${failed}`), address);
    r.recordOutcome(address, { action_id: verdict.action_id, status: 'error', error: { message: 'exit code 1' } });
  }
}

const ruleOf = (rules: RuleExplanation[], name: string) => rules.find((r) => r.rule === name)!;

describe('explainReview: what an explaining review records', () => {
  it('records every rule the reviewer has, built-in and custom, each once, matched or not, and the same verdict a review gives', () => {
    const plain = reviewer();
    const explaining = reviewer();
    const expected = plain.review(bash('terraform apply -auto-approve'), address).verdict;
    const explanation = explainReview(explaining, bash('terraform apply -auto-approve'), address);

    expect(explanation.rules.map((r) => r.rule).sort()).toEqual([...explaining.ruleNames].sort());
    expect(explanation.verdict).toBe(expected.verdict);
    expect(explanation.decided_by).toBe(expected.decided_by);
    expect(explanation.rules.filter((r) => r.result === 'matched' && !r.shadow).map((r) => r.rule).sort()).toEqual([...(expected.rule_hits ?? [])].sort());
    expect(ruleOf(explanation.rules, 'no_terraform_apply')).toMatchObject({ origin: 'custom', result: 'matched', verdict: 'block', score: 0.9, reason: 'Plan first.' });
    expect(ruleOf(explanation.rules, 'no_terraform_apply').conditions).toEqual([{ condition: 'match.command: "terraform apply*"', value: true }]);
    expect(ruleOf(explanation.rules, 'infrastructure_destruction')).toMatchObject({ origin: 'built-in', result: 'matched' });
    // Rules whose program the line does not run are not evaluated (the engine's index), and are said to be so.
    expect(ruleOf(explanation.rules, 'fork_bomb').result).toMatch(/^(not_matched|not_needed)$/);
    expect(explanation.rules.some((r) => r.result === 'not_needed')).toBe(true);
  });

  it('names the rule that decided and how the engine got there: the strongest verdict, over the matrix', () => {
    const explanation = explainReview(reviewer(), bash('terraform apply -auto-approve'), address);
    expect(explanation).toMatchObject({ verdict: 'block', decided_by: 'rule', decided_by_name: 'no_terraform_apply' });
    expect(explanation.candidates[0]).toEqual({ source: 'rule', name: 'no_terraform_apply', verdict: 'block', score: 0.9 });
    expect(explanation.why[0]).toMatch(/^Risk \d\.\d\d \((low|medium|high|critical)\) and rationality \d\.\d\d \((low|medium|high)\): the matrix gives \w+\.$/);
    expect(explanation.why.join(' ')).toMatch(/Rule no_terraform_apply decides: block is the strongest verdict weighed; it is stronger than the matrix's \w+\./);
  });

  it('says when the matrix decides because no rule objected', () => {
    const explanation = explainReview(reviewer(), { action_id: 'r1', kind: 'tool_use', tool: 'Read', input: { file_path: '/work/app/README.md' } }, address);
    expect(explanation).toMatchObject({ verdict: 'allow', decided_by: 'matrix', candidates: [] });
    expect(explanation.decided_by_name).toBeUndefined();
    expect(explanation.why.at(-1)).toBe('No rule, validator, breaker or ladder objected: the matrix decides.');
    expect(explanation.rules.filter((r) => r.result === 'matched')).toEqual([]);
  });

  it("gives each part of a CEL condition its value, and the values a comparison compared, on the session's facts", () => {
    const r = reviewer();
    failCommands(r, 1);
    const quiet = ruleOf(explainReview(r, write('/work/app/infra/main.tf'), address).rules, 'infra_after_failures');
    expect(quiet.result).toBe('not_matched');
    expect(quiet.conditions).toEqual([
      {
        condition: 'when: session.failures >= 2 && action.written.exists(p, glob(p, "**/infra/**"))',
        value: false,
        parts: [
          { condition: 'session.failures >= 2', value: false, parts: [{ condition: 'session.failures', value: 1 }] },
          { condition: 'action.written.exists(p, glob(p, "**/infra/**"))', value: true, parts: [{ condition: 'action.written', value: ['/work/app/infra/main.tf'] }] },
        ],
      },
    ]);
    failCommands(r, 1);
    const fired = ruleOf(explainReview(r, write('/work/app/infra/main.tf', 'w2'), address).rules, 'infra_after_failures');
    expect(fired).toMatchObject({ result: 'matched', verdict: 'require_approval' });
    expect(fired.conditions![0]!.parts![0]).toEqual({ condition: 'session.failures >= 2', value: true, parts: [{ condition: 'session.failures', value: 2 }] });
  });

  it('shows ! and || parts, and leaves out what only a macro can work out', () => {
    const rule: CustomRuleDefinition = {
      name: 'odd_one',
      when: '!(session.goal.contains("deploy")) || action.commands.exists(c, c.program == "kubectl" && c.args.size() > 1)',
      verdict: 'warn',
      reason: 'x',
    };
    const explanation = explainReview(reviewer([rule]), bash('kubectl get pods'), address);
    const [when] = ruleOf(explanation.rules, 'odd_one').conditions!;
    expect(when).toMatchObject({ value: true, parts: [{ condition: '!session.goal.contains("deploy")', value: false }, { value: true }] });
    expect(when!.parts![0]!.parts).toEqual([{ condition: 'session.goal.contains("deploy")', value: true, parts: [{ condition: 'session.goal', value: 'Fix the deployment' }] }]);
    expect(when!.parts![1]!.parts).toEqual([{ condition: 'action.commands', value: [{ program: 'kubectl', args: ['get', 'pods'], redirects: [], remote: '', privileged: false, nested: false, background: false }] }]);
  });

  it('marks shadow rules, lists switched-off ones, and evaluates every rule afresh after the same action was cached', () => {
    const r = reviewer(undefined, { rules: { disabled: ['no_terraform_apply'], packs: { network: { enabled: false } } } });
    // The same action reviewed in another session first: its analysis is in the cache.
    expect(r.review(bash('curl https://example.com/x', 'c1'), { agentId: 'agent-1', sessionId: 'other' }).cacheHit).toBe(false);
    expect(r.review(bash('curl https://example.com/x', 'c1'), { agentId: 'agent-1', sessionId: 'third' }).cacheHit).toBe(true);
    const explanation = explainReview(r, bash('curl https://example.com/x', 'c2'), address);
    expect(ruleOf(explanation.rules, 'trial_no_curl')).toMatchObject({ shadow: true, result: 'matched', verdict: 'block', conditions: [{ condition: 'match.command: "curl *"', value: true }] });
    expect(explanation.candidates.map((c) => c.name)).not.toContain('trial_no_curl');
    expect(explanation.decided_by_name).toBeUndefined();
    expect(explanation.switched_off).toEqual(expect.arrayContaining(['no_terraform_apply', 'warn_external_network', 'tls_verification_disabled']));
    expect(explanation.rules.map((x) => x.rule)).not.toContain('no_terraform_apply');
    expect(explanation.rules.length).toBe(r.ruleNames.length);
  });

  it('explains an advisory verdict: async mode lets the action proceed and says what was found', () => {
    const explanation = explainReview(reviewer(undefined, { mode: 'async' }), bash('terraform apply -auto-approve'), address);
    expect(explanation).toMatchObject({ verdict: 'allow', observed_verdict: 'block', decided_by: 'rule' });
    expect(explanation.why.at(-1)).toBe('The review runs in async mode: the action proceeds, and block is advisory.');
  });

  it('explains a review that stops before the rules: an unknown action kind', () => {
    const explanation = explainReview(reviewer(), { action_id: 'k1', kind: 'teleport', tool: 'Beam', input: {} }, address);
    expect(explanation).toMatchObject({ verdict: 'block', decided_by: 'error', rules: [] });
    expect(explanation.why[0]).toMatch(/teleport/);
  });
});
