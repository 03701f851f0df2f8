import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { StepReviewer } from '../step-reviewer.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import type { ReviewRule, RuleContext } from './review-rule.js';
import { compileRuleOverrides, loadRuleOverrides, UNWEAKENED_RULES, withOverrides } from './rule-overrides.js';

function context(tool: string, input: Record<string, unknown>, session = new ReviewSession('agent-7', 's1', 0)): RuleContext {
  return { action: parseAction({ kind: 'tool_use', tool, input }, '/work/app'), session, limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}
const bash = (command: string, session?: ReviewSession) => context('Bash', { command }, session);
const write = (file_path: string) => context('Write', { file_path, content: 'x' });
const sessionIn = (environment: string, agent = 'agent-7') => {
  const session = new ReviewSession(agent, 's1', 0);
  session.declare({ goal: 'Reset the local database' }, { environment });
  return session;
};

/** The built-in rule `name`, with the overrides given. */
function rule(name: string, overrides: unknown[]): ReviewRule {
  return withOverrides(BUILT_IN_RULES, compileRuleOverrides(overrides, 'rules.yaml')).find((r) => r.name === name)!;
}
const verdict = (r: ReviewRule, ctx: RuleContext) => r.evaluate(ctx)?.verdict ?? 'none';

describe('overrides of built-in rules', () => {
  it('switch a rule off for the paths they name, only when every path the action touches is among them', () => {
    const secrets = rule('secret_file_write', [{ rule: 'secret_file_write', verdict: 'off', paths: ['**/test/fixtures/**'] }]);
    expect(verdict(secrets, write('test/fixtures/ssh/id_rsa'))).toBe('none');
    expect(verdict(secrets, write('deploy/id_rsa'))).toBe('warn');
    // A line that also writes a real key is not what the override was written for.
    expect(verdict(secrets, bash('cp test/fixtures/ssh/id_rsa ~/.ssh/id_rsa'))).toBe('warn');
    expect(secrets.reads).toBe('action');
  });

  it('give another verdict per environment or agent, and per CEL condition, the first that holds deciding', () => {
    const database = rule('database_destruction', [
      { rule: 'database_destruction', verdict: 'warn', environments: 'Development', reason: 'Local databases are disposable.' },
      { rule: 'database_destruction', verdict: 'block', agents: ['ci-*'] },
      { rule: 'database_destruction', verdict: 'allow', when: 'session.goal.contains("Reset") && action.commands.exists(c, c.program == "dropdb")' },
    ]);
    const drop = 'dropdb shop';
    expect(verdict(database, bash(drop))).toBe('require_approval');
    expect(verdict(database, bash(drop, sessionIn('development')))).toBe('warn');
    expect(verdict(database, bash(drop, sessionIn('staging', 'ci-runner-3')))).toBe('block');
    expect(verdict(database, bash(drop, sessionIn('staging')))).toBe('allow');
    // The environment's override comes first, whoever the agent.
    expect(verdict(database, bash(drop, sessionIn('development', 'ci-runner-3')))).toBe('warn');
    expect(database.reads).toBe('session');
  });

  it('make the finding say so: its score follows the verdict, the factor and the reason tell the override', () => {
    const database = rule('database_destruction', [
      { rule: 'database_destruction', verdict: 'warn', environments: 'development', reason: 'Local databases are disposable.' },
      { rule: 'database_destruction', verdict: 'block', environments: 'production' },
    ]);
    const plain = database.evaluate(bash('dropdb shop'))!;
    const lowered = database.evaluate(bash('dropdb shop', sessionIn('development')))!;
    const raised = database.evaluate(bash('dropdb shop', sessionIn('production')))!;
    expect(lowered).toMatchObject({ verdict: 'warn', score: 0.5, severity: 'medium' });
    expect(lowered.factors).toEqual([...plain.factors, 'policy_override']);
    expect(lowered.reason).toBe(`${plain.reason} Policy override: Local databases are disposable.`);
    expect(raised.verdict).toBe('block');
    expect(raised.score).toBeGreaterThanOrEqual(0.9);
    expect(raised.reason).toBe(plain.reason);
  });

  it('drop the rewrite of a modify finding they change', () => {
    const push = rule('force_push', [{ rule: 'force_push', verdict: 'warn' }]);
    const plain = BUILT_IN_RULES.find((r) => r.name === 'force_push')!.evaluate(bash('git push --force origin feature-x'))!;
    expect(plain).toMatchObject({ verdict: 'modify' });
    expect(plain.modifiedInput).toBeDefined();
    const changed = push.evaluate(bash('git push --force origin feature-x'))!;
    expect(changed.verdict).toBe('warn');
    expect(changed.modifiedInput).toBeUndefined();
  });

  it('leave the rules they do not name as they are', () => {
    const rules = withOverrides(BUILT_IN_RULES, compileRuleOverrides([{ rule: 'force_push', verdict: 'off' }], 'rules.yaml'));
    expect(rules.filter((r, i) => r !== BUILT_IN_RULES[i]).map((r) => r.name)).toEqual(['force_push']);
    expect(withOverrides(BUILT_IN_RULES, [])).toEqual(BUILT_IN_RULES);
  });

  it('are refused with the override, the field and why: an unknown rule, a wrong field, a broken condition', () => {
    const refusal = (overrides: unknown[]) => {
      try {
        compileRuleOverrides(overrides, 'rules.yaml');
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal([{ rule: 'databse_destruction', verdict: 'warn' }])).toMatch(/^rules\.yaml: overrides\[0\] \(databse_destruction\) rule: no built-in rule is named "databse_destruction" \(did you mean "database_destruction"\?\)/);
    expect(refusal([{ rule: 'team_cli_deploys', verdict: 'off' }])).toMatch(/no built-in rule is named "team_cli_deploys"; the built-in rules are listed in apps\/reviewer\/README\.md/);
    expect(refusal([{ rule: 'force_push', verdict: 'deny' }])).toMatch(/^rules\.yaml: overrides\[0\] \(force_push\) \/verdict: /);
    expect(refusal([{ rule: 'force_push', verdict: 'warn', path: ['x'] }])).toBe('rules.yaml: overrides[0] (force_push) path: unexpected key (an override has rule, verdict, reason, paths, agents, environments, when)');
    expect(refusal([{ rule: 'force_push', verdict: 'warn' }, { rule: 'force_push', verdict: 'warn', when: 'session.failurs > 2' }])).toMatch(/^rules\.yaml: overrides\[1\] \(force_push\) when: .*failurs/);
    expect(refusal([{ rule: 'force_push', verdict: 'warn', when: 'session.failures' }])).toMatch(/when: the expression gives int/);
  });

  it('cannot weaken the rules that keep Warden supervising the agent', () => {
    expect(UNWEAKENED_RULES).toEqual(['supervision_tampering']);
    for (const verdict of ['off', 'allow', 'warn', 'require_approval']) {
      expect(() => compileRuleOverrides([{ rule: 'supervision_tampering', verdict, paths: ['**/.claude/**'] }], 'rules.yaml')).toThrow(
        /overrides\[0\] \(supervision_tampering\) verdict: supervision_tampering keeps the agent from switching off Warden's supervision of it; an override cannot weaken it/,
      );
    }
    expect(compileRuleOverrides([{ rule: 'supervision_tampering', verdict: 'block', agents: 'ci-*' }], 'rules.yaml')).toHaveLength(1);
  });

  it('are read from the policy file beside its rules, and a file of overrides alone is a policy file', () => {
    const text = ['rules: []', 'overrides:', '  - rule: secret_file_write', '    verdict: "off"', "    paths: ['**/test/fixtures/**']"].join('\n');
    expect(loadRuleOverrides(text, 'yaml', 'rules.yaml')).toEqual([{ rule: 'secret_file_write', verdict: 'off', paths: ['**/test/fixtures/**'] }]);
    expect(loadRuleOverrides('overrides: [{ rule: force_push, verdict: warn }]', 'yaml', 'rules.yaml')).toHaveLength(1);
    expect(loadRuleOverrides('- name: x\n  when: action.command == ""\n  verdict: warn\n  reason: x\n', 'yaml', 'rules.yaml')).toEqual([]);
    expect(() => loadRuleOverrides('overrides: [{ rule: supervision_tampering, verdict: "off" }]', 'yaml', 'rules.yaml')).toThrow(/cannot weaken it/);
    expect(() => loadRuleOverrides('overrides: { rule: force_push }', 'yaml', 'rules.yaml')).toThrow(/expected a list of rules, or an object/);
    expect(() => loadRuleOverrides('overides: []\nrules: []', 'yaml', 'rules.yaml')).toThrow(/overides: unexpected key/);
  });
});

describe('an override through the reviewer', () => {
  it('changes the verdict of the same command in the environment it names, and nowhere else', () => {
    const reviewer = new StepReviewer({
      ruleOverrides: [{ rule: 'database_destruction', verdict: 'warn', environments: ['development'], reason: 'Local databases are disposable.' }],
      extraRulesSource: 'rules.yaml',
    });
    const review = (sessionId: string, environment?: string) => {
      const address = { agentId: 'agent-7', sessionId };
      reviewer.startSession(address, { context: { goal: 'Reset the shop database', cwd: '/work/shop', expected_paths: ['/work/shop/**'] }, ...(environment ? { environment } : {}) });
      return reviewer.review({ action_id: `${sessionId}-1`, kind: 'tool_use', tool: 'Bash', input: { command: 'dropdb shop' } }, address);
    };
    const elsewhere = review('s-staging', 'staging');
    const development = review('s-dev', 'development');
    expect(elsewhere.verdict.verdict).toBe('require_approval');
    expect(development.verdict.verdict).toBe('warn');
    expect(development.ruleHits).toContain('database_destruction');
    expect(development.verdict.reasons.join(' ')).toMatch(/Policy override: Local databases are disposable\./);
  });

  it('refuses a configuration whose override does not hold', () => {
    expect(() => new StepReviewer({ ruleOverrides: [{ rule: 'supervision_tampering', verdict: 'off' }], extraRulesSource: 'rules.yaml' })).toThrow(/^rules\.yaml: overrides\[0\]/);
  });
});
