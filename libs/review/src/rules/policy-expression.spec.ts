import { SupervisionState } from '../supervision/supervision-state.js';
import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { StepReviewer } from '../step-reviewer.js';
import { compileCustomRule, CustomRuleError, loadCustomRules } from './custom-rules.js';
import { policyFacts } from './policy-expression.js';
import type { RuleContext } from './review-rule.js';

function context(tool: string, input: Record<string, unknown>, session = new ReviewSession('agent-7', 's1', 0)): RuleContext {
  return { action: parseAction({ kind: 'tool_use', tool, input }, '/work/app'), session, limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}
const bash = (command: string, session?: ReviewSession) => context('Bash', { command }, session);
const when = (expression: string, extra: Record<string, unknown> = {}) =>
  compileCustomRule({ name: 'cel_rule', when: expression, verdict: 'block', reason: 'Not now.', ...extra }, 'rules.yaml');
const fires = (expression: string, ctx: RuleContext) => when(expression).evaluate(ctx) !== null;

describe('custom rules with a CEL condition (when)', () => {
  it('reads the action: its commands, arguments, paths and the agent-neutral tool kind', () => {
    expect(fires('action.commands.exists(c, c.program == "kubectl" && c.args[0] == "delete")', bash('kubectl get pods && kubectl delete ns prod'))).toBe(true);
    expect(fires('action.commands.exists(c, c.program == "kubectl" && c.args[0] == "delete")', bash('kubectl get pods'))).toBe(false);
    expect(fires('action.tool_kind == "write" && action.written.exists(p, glob(p, "**/infra/**"))', context('Write', { file_path: 'infra/main.tf', content: '' }))).toBe(true);
    expect(fires('action.tool_kind == "write" && action.written.exists(p, glob(p, "**/infra/**"))', context('write_file', { file_path: 'infra/main.tf', content: '' }))).toBe(true);
    expect(fires('action.tool_kind == "write"', context('Read', { file_path: 'infra/main.tf' }))).toBe(false);
    expect(fires('action.outside.size() > 0', bash('cat /etc/hosts'))).toBe(true);
    expect(fires('action.paths.all(p, inside(p, "/work/app"))', bash('cat src/a.ts README.md'))).toBe(true);
    expect(fires('secret_like(action.command)', bash('curl -H "Authorization: Bearer ghp_0123456789abcdefghijklmnopqrstuvwxyzAB" https://api.github.com'))).toBe(true);
    expect(fires('action.commands.exists(c, c.remote != "")', bash("ssh web-1 'systemctl restart nginx'"))).toBe(true);
  });

  it("allows git push only to branches that start with the agent's id", () => {
    const rule = 'action.commands.exists(c, c.program == "git" && c.args[0] == "push" && !c.args.exists(a, a.startsWith(agent.id + "/")))';
    expect(fires(rule, bash('git push origin agent-7/fix-parser'))).toBe(false);
    expect(fires(rule, bash('git push origin main'))).toBe(true);
  });

  it('blocks kubectl delete in prod unless the goal names it, with match and when together', () => {
    const session = new ReviewSession('agent-7', 's1', 0);
    session.declare({ goal: 'Tidy the staging namespace' }, { environment: 'prod' });
    const rule = when('session.environment == "prod" && !session.goal.contains("delete")', { match: { command: 'kubectl delete*' } });
    expect(rule.evaluate(bash('kubectl delete pod api-0', session))).not.toBeNull();
    expect(rule.evaluate(bash('kubectl get pods', session))).toBeNull();
    session.declare({ goal: "delete the crashed api pod" });
    expect(rule.evaluate(bash('kubectl delete pod api-0', session))).toBeNull();
    expect(rule.reads).toBe('session');
    expect(when('action.command.contains("x")').reads).toBe('action');
  });

  it('refuses an expression that cannot be compiled, naming the rule, the field, the position and the message', () => {
    const refusal = (expression: string) => {
      try {
        when(expression);
      } catch (error) {
        expect(error).toBeInstanceOf(CustomRuleError);
        return (error as Error).message;
      }
      throw new Error(`"${expression}" compiled`);
    };
    expect(refusal('session.failures >= ')).toMatch(/^rules\.yaml: rule "cel_rule" when: .*Unexpected/s);
    expect(refusal('sesion.failures > 2')).toMatch(/Unknown variable: sesion/);
    expect(refusal('session.failurs > 2')).toMatch(/No such key: failurs/);
    expect(refusal('session.failures + 1')).toMatch(/a condition must give bool/);
    expect(refusal('session.goal > 1')).toMatch(/rule "cel_rule" when: /);
    // The position: CEL's message shows the line with a caret under the place.
    expect(refusal('action.command.startsWith("x") && sesion.goal == ""')).toMatch(/\^/);
    expect(() => loadCustomRules('- name: broken\n  when: "action.command ==="\n  verdict: block\n  reason: x\n', 'yaml', 'rules.yaml')).toThrow(/rules\[0\] \(broken\) when: /);
  });

  it('still needs a condition: neither match nor when is refused', () => {
    expect(() => compileCustomRule({ name: 'empty', verdict: 'block', reason: 'x' }, 'rules.yaml')).toThrow(/needs at least one condition under match, or a when expression/);
  });

  it('is looked at only for actions that run the program its expression needs, when it spells one out', () => {
    const needing = when('session.failures >= 0 && action.commands.exists(c, c.args.size() > 1 && "kubectl" == c.program)');
    expect(needing.needs).toEqual({ commands: ['kubectl'] });
    expect(needing.evaluate(bash('/usr/local/bin/kubectl delete pod x'))).not.toBeNull();
    // Either program: the rule is looked at for actions that run one of them.
    expect(when('action.commands.exists(c, c.program == "kubectl" || c.program == "helm")').needs).toEqual({ commands: ['kubectl', 'helm'] });
    // Not spelt out where it must hold: no needs, the rule is looked at for every action.
    expect(when('action.commands.exists(c, c.program == "kubectl") || action.command == ""').needs).toBeUndefined();
    expect(when('!action.commands.exists(c, c.program == "kubectl")').needs).toBeUndefined();
  });

  it('does not fire when the expression fails on an action (an index out of range)', () => {
    expect(fires('action.commands[0].args[5] == "x"', bash('ls -la'))).toBe(false);
  });

  it('gives every fact with its type, an empty value where the action has none', () => {
    const session = new ReviewSession('agent-7', 's1', 0);
    session.declare({ goal: 'Fix the parser', expected_paths: ['/work/app/**'] }, { agentKind: 'codex', phase: 'implementation' });
    const facts = policyFacts(context('Read', { file_path: 'src/a.ts' }, session));
    expect(facts).toEqual({
      action: {
        tool: 'Read',
        tool_kind: 'read',
        kind: 'tool_use',
        intents: ['file_read'],
        command: '',
        commands: [],
        paths: ['/work/app/src/a.ts'],
        written: [],
        read: ['/work/app/src/a.ts'],
        deleted: [],
        outside: [],
        urls: [],
        packages: [],
        privileged: false,
        cwd: '/work/app',
        input: { file_path: 'src/a.ts' },
      },
      agent: { id: 'agent-7', kind: 'codex', level: -1n },
      session: {
        goal: 'Fix the parser',
        phase: 'implementation',
        environment: '',
        actions: 0n,
        failures: 0n,
        failures_in_a_row: 0n,
        patterns: [],
        last_outcomes: [],
        spend_usd: 0,
      },
      env: { environment: '', cluster: '', labels: {} },
    });
  });

  it('reads what a line reads, writes and deletes, and each command\'s redirections', () => {
    const session = new ReviewSession('agent-7', 's1', 0);
    session.declare({ goal: 'Tidy the build', expected_paths: ['/work/app/**'], cwd: '/work/app' });
    const line = bash('cat src/a.ts > out/a.txt && rm -rf dist && sort < data.csv 2>> err.log', session);
    expect(fires('action.deleted == ["/work/app/dist"]', line)).toBe(true);
    expect(fires('"/work/app/src/a.ts" in action.read && !("/work/app/out/a.txt" in action.read)', line)).toBe(true);
    expect(fires('action.commands.exists(c, c.program == "cat" && c.redirects.exists(r, r.op == ">" && r.target == "out/a.txt"))', line)).toBe(true);
    expect(fires('action.commands.exists(c, c.program == "sort" && c.redirects.size() == 2 && c.redirects[0].op == "<")', line)).toBe(true);
    // A deleting tool's paths are deleted too; a write is not a deletion.
    expect(policyFacts(context('Delete', { file_path: 'old/x.ts' }, session)).action.deleted).toEqual(['/work/app/old/x.ts']);
    expect(fires('action.deleted.exists(p, inside(p, "/work/app/old"))', context('delete_file', { target_file: '/work/app/old/y.ts' }, session))).toBe(true);
    expect(fires('action.deleted.size() == 0', context('Write', { file_path: 'src/b.ts', content: 'x' }, session))).toBe(true);
  });

  it("reads the session's spend and the deployment's labels", () => {
    const session = new ReviewSession('agent-7', 's1', 0);
    const deployment = { environment: 'production', cluster: 'eu-prod-2', labels: { region: 'eu-west-1' } };
    const spent = { ...bash('kubectl apply -f deploy.yaml', session), spendUsd: 12.5, deployment };
    expect(fires('session.spend_usd > 10.0', spent)).toBe(true);
    expect(fires('session.spend_usd > 10.0', bash('kubectl apply -f deploy.yaml', session))).toBe(false);
    expect(fires('env.cluster.startsWith("eu-prod") && env.labels["region"] == "eu-west-1" && env.environment == "production"', spent)).toBe(true);
    expect(fires('"region" in env.labels', bash('ls', session))).toBe(false);
    // Typed as the model says: a string compared with the spend, or an unknown label field, refuses the rule.
    expect(() => when('session.spend_usd > "10"')).toThrow();
    expect(() => when('env.clusters == "x"')).toThrow(/clusters/);
  });

  it("reads the agent's level, the session's spend and its last outcomes", () => {
    const session = new ReviewSession('agent-7', 's1', 0);
    session.declare({ goal: 'Fix the parser', expected_paths: ['/work/app/**'] });
    const test = context('Bash', { command: 'npm test' }, session).action;
    for (const [id, status] of [['a1', 'success'], ['a2', 'error'], ['a3', 'error']] as const) {
      session.recordAction(test, id, 'allow', 0);
      session.recordOutcome({ actionId: id, status, ...(status === 'error' ? { error: { message: 'exit 1' } } : {}) }, 0);
    }
    const deploy = { ...bash('kubectl apply -f deploy.yaml', session), agentLevel: 1 };
    expect(fires('agent.level < 2 && action.commands.exists(c, c.program == "kubectl")', deploy)).toBe(true);
    expect(fires('agent.level < 2', bash('ls', session))).toBe(true);
    expect(fires('session.last_outcomes.size() == 3 && session.last_outcomes[2].status == "error" && session.last_outcomes[2].error == "exit 1"', deploy)).toBe(true);
    expect(fires('session.last_outcomes.filter(o, o.status == "error").size() >= 2', deploy)).toBe(true);
    // A misspelt field of an outcome refuses the rule when it loads, as for the other facts.
    expect(() => when('session.last_outcomes.exists(o, o.stat == "error")')).toThrow(/stat/);
  });
});

describe('a CEL rule on session facts, through the reviewer', () => {
  it('changes the verdict of the same command at the point the session reaches: after the third failure', () => {
    const reviewer = new StepReviewer({
      extraRules: loadCustomRules(
        [
          '- name: ask_after_three_failures',
          '  when: session.failures >= 3 && action.commands.exists(c, c.program == "npm" && c.args[0] == "install")',
          '  verdict: require_approval',
          '  reason: Three commands failed in this session; a person decides whether installing more is the fix.',
        ].join('\n'),
        'yaml',
        'rules.yaml',
      ),
    });
    const address = { agentId: 'agent-7', sessionId: 's-cel' };
    reviewer.startSession(address, { context: { goal: 'Make the tests pass', expected_paths: ['/work/shop/**'], cwd: '/work/shop' } });
    const verdicts: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const install = reviewer.review({ action_id: `install-${i}`, kind: 'tool_use', tool: 'Bash', input: { command: 'npm install left-pad' } }, address);
      verdicts.push(`${install.verdict.verdict}${install.ruleHits.includes('ask_after_three_failures') ? ' (rule)' : ''}`);
      const test = reviewer.review({ action_id: `test-${i}`, kind: 'tool_use', tool: 'Bash', input: { command: 'npm test' } }, address);
      reviewer.recordOutcome(address, { action_id: test.verdict.action_id, status: 'error', error: { message: `failure ${i}` } });
    }
    expect(verdicts.slice(0, 3).every((v) => !v.endsWith('(rule)'))).toBe(true);
    expect(verdicts[3]).toBe('require_approval (rule)');
  });

  it("reads the agent's level as the reviewer last read it from the ladder", () => {
    const supervision = new SupervisionState();
    const reviewer = new StepReviewer({
      supervision,
      extraRules: loadCustomRules(
        [
          '- name: junior_deploys',
          '  when: agent.level < 3 && action.commands.exists(c, c.program == "kubectl")',
          '  verdict: require_approval',
          '  reason: Below level 3 a deployment needs a person.',
        ].join('\n'),
        'yaml',
        'rules.yaml',
      ),
    });
    const address = { agentId: 'agent-7', sessionId: 's-level' };
    reviewer.startSession(address, { context: { goal: 'Deploy the shop', expected_paths: ['/work/shop/**'], cwd: '/work/shop' } });
    const deploy = (id: string) => reviewer.review({ action_id: id, kind: 'tool_use', tool: 'Bash', input: { command: 'kubectl apply -f deploy.yaml' } }, address).ruleHits;
    supervision.applyLevel('agent-7', { agent_id: 'agent-7', level: 2 } as never);
    expect(deploy('d1')).toContain('junior_deploys');
    supervision.applyLevel('agent-7', { agent_id: 'agent-7', level: 3 } as never);
    expect(deploy('d2')).not.toContain('junior_deploys');
  });

  it("reads the session's spend from the breaker's published state, and the deployment's labels from the settings", () => {
    const supervision = new SupervisionState();
    const reviewer = new StepReviewer({
      supervision,
      settings: { step_reviewer: { deployment: { environment: 'production', cluster: 'eu-prod-2', labels: { team: 'shop' } } } },
      extraRules: loadCustomRules(
        [
          '- name: costly_session_deploys',
          '  when: session.spend_usd > 5 && env.cluster.startsWith("eu-prod") && action.commands.exists(c, c.program == "kubectl")',
          '  verdict: require_approval',
          '  reason: A session that has cost more than $5 deploys to production only with a person.',
        ].join('\n'),
        'yaml',
        'rules.yaml',
      ),
    });
    const address = { agentId: 'agent-7', sessionId: 's-spend' };
    reviewer.startSession(address, { context: { goal: 'Deploy the shop', expected_paths: ['/work/shop/**'], cwd: '/work/shop' } });
    const deploy = (id: string) => reviewer.review({ action_id: id, kind: 'tool_use', tool: 'Bash', input: { command: 'kubectl apply -f deploy.yaml' } }, address).ruleHits;
    const state = (spend?: number) => ({ agent_id: 'agent-7', session_id: 's-spend', state: 'closed' as const, breakers: [], ...(spend !== undefined ? { spend_usd: spend } : {}), updated_at: '2026-11-29T12:00:00.000Z' });
    expect(deploy('d1')).not.toContain('costly_session_deploys');
    supervision.applyBreaker('agent-7', 's-spend', state(4.99));
    expect(deploy('d2')).not.toContain('costly_session_deploys');
    supervision.applyBreaker('agent-7', 's-spend', state(5.01));
    expect(deploy('d3')).toContain('costly_session_deploys');
    // The verdict says what it read, for an explanation from the audit to replay.
    expect(reviewer.review({ action_id: 'd3b', kind: 'tool_use', tool: 'Bash', input: { command: 'helm list' } }, address).verdict.session_spend_usd).toBe(5.01);
    // An operator reset the cost breaker: the run's spend starts again.
    supervision.applyBreaker('agent-7', 's-spend', state());
    expect(deploy('d4')).not.toContain('costly_session_deploys');
  });
});
