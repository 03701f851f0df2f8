import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import type { CustomRuleDefinition } from './custom-rule-definition.js';
import { compileCustomRule, CustomRuleError, customRuleSwitches, loadCustomRules } from './custom-rules.js';
import type { RuleContext } from './review-rule.js';

function context(tool: string, input: Record<string, unknown>, kind = 'tool_use', session = new ReviewSession('agent-1', 's1', Date.now())): RuleContext {
  const action = parseAction({ kind, tool, input }, '/work/app');
  return { action, session, limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}
const bash = (command: string, session?: ReviewSession) => context('Bash', { command }, 'tool_use', session);

function rule(match: CustomRuleDefinition['match'], extra: Partial<CustomRuleDefinition> = {}) {
  return compileCustomRule({ name: 'test_rule', match, verdict: 'block', reason: 'Not here.', ...extra }, 'rules.yaml');
}
const matches = (match: CustomRuleDefinition['match'], ctx: RuleContext) => rule(match).evaluate(ctx) !== null;

describe('compileCustomRule: matching', () => {
  it('matches a command glob against each simple command', () => {
    const noApply = rule({ command: 'terraform apply*' });
    expect(noApply.evaluate(bash('cd infra && terraform apply -auto-approve ./plans/x.tfplan'))).toMatchObject({
      rule: 'test_rule',
      verdict: 'block',
      reason: 'Not here.',
      score: 0.9,
      severity: 'high',
      factors: ['custom_rule'],
    });
    expect(noApply.evaluate(bash('terraform plan'))).toBeNull();
    expect(noApply.evaluate(context('Read', { file_path: 'terraform apply' }))).toBeNull();
  });

  it('tries a glob that names its command on every command of that name, and one that does not on every command', () => {
    const push = { command: ['git push*', 'helm uninstall *'] };
    expect(matches(push, bash('git status && cd repo && git push --force origin main'))).toBe(true);
    expect(matches(push, bash('kubectl get pods | grep x; helm uninstall api'))).toBe(true);
    expect(matches(push, bash('echo git push; git pull'))).toBe(false);
    expect(matches({ command: '*deploy*' }, bash('ls && ./scripts/deploy.sh prod'))).toBe(true);
    expect(matches({ command: 'make' }, bash('make && make test'))).toBe(true);
    expect(matches({ command: 'make' }, bash('make test'))).toBe(false);
    // picomatch takes a text equal to the glob itself, wildcards and all.
    expect(matches({ command: 'teamctl deploy*' }, bash(`teamctl 'deploy*'`))).toBe(true);
  });

  it('ORs within a list and ANDs across conditions', () => {
    const match = { tool: ['Write', 'Edit'], path: '**/migrations/**' };
    expect(matches(match, context('Edit', { file_path: 'db/migrations/001.sql', old_string: 'a', new_string: 'b' }))).toBe(true);
    expect(matches(match, context('Write', { file_path: 'db/migrations/002.sql', content: '' }))).toBe(true);
    expect(matches(match, context('Write', { file_path: 'src/a.ts', content: '' }))).toBe(false);
    expect(matches(match, context('Read', { file_path: 'db/migrations/001.sql' }))).toBe(false);
  });

  it('matches any of the action’s intents, kinds and tool globs', () => {
    expect(matches({ intent: 'file_deletion' }, bash('npm install left-pad && rm -rf tmp'))).toBe(true);
    expect(matches({ intent: ['network_request', 'package_install'] }, bash('ls'))).toBe(false);
    expect(matches({ kind: 'file_operation' }, context('fs', { operation: 'read', path: 'a' }, 'file_operation'))).toBe(true);
    expect(matches({ tool: 'mcp__github__*' }, context('mcp__github__create_issue', { title: 'x' }))).toBe(true);
    expect(matches({ tool: 'mcp__github__*' }, context('mcp__slack__post', { text: 'x' }))).toBe(false);
  });

  it('matches command regexes on the whole line, written paths, URLs and packages', () => {
    expect(matches({ command_regex: ['\\bDROP\\b', 'kubectl\\s+delete'] }, bash('echo a && kubectl  delete pod x'))).toBe(true);
    // A literal the expression needs is looked for first: found or not, the expression decides.
    expect(matches({ command_regex: '\\bmigrate-3\\b' }, bash('ls && ./migrate-3 up'))).toBe(true);
    expect(matches({ command_regex: '\\bmigrate-3\\b' }, bash('ls && ./migrate-33 up'))).toBe(false);
    expect(matches({ command_regex: '\\bmigrate-3\\b' }, bash('ls && ./migrate-4 up'))).toBe(false);
    expect(matches({ written_path: '/work/app/config/**' }, bash('cat config/a.yml'))).toBe(false);
    expect(matches({ written_path: '/work/app/config/**' }, bash('cp a.yml config/a.yml'))).toBe(true);
    expect(matches({ url: 'https://*.prod.example.com/**' }, bash('curl https://api.prod.example.com/v1/users'))).toBe(true);
    expect(matches({ url: 'https://*.prod.example.com/**' }, bash('curl https://api.staging.example.com/v1'))).toBe(false);
    expect(matches({ package: ['left-*', 'event-stream'] }, bash('npm install left-pad'))).toBe(true);
    expect(matches({ package: 'left-*' }, bash('npm install lodash'))).toBe(false);
  });

  it('matches input fields by regular expression, other values as JSON', () => {
    const match = { tool: 'mcp__*', input: { repo: '^acme/', labels: '"security"' } };
    expect(matches(match, context('mcp__github__create_issue', { repo: 'acme/api', labels: ['bug', 'security'] }))).toBe(true);
    expect(matches(match, context('mcp__github__create_issue', { repo: 'acme/api', labels: ['bug'] }))).toBe(false);
    expect(matches(match, context('mcp__github__create_issue', { repo: 'acme/api' }))).toBe(false);
    expect(matches({ input: { constructor: '.' } }, context('mcp__x__y', {}))).toBe(false);
  });

  it('reads the session for phase, environment, agent and scope', () => {
    const session = new ReviewSession('ci-runner-7', 's1', Date.now());
    session.declare({}, { environment: 'Production', phase: 'deployment' });
    const sessionRule = rule({ phase: ['deployment', 'review'], environment: 'production', agent: 'ci-*' });
    expect(sessionRule.reads).toBe('session');
    expect(sessionRule.evaluate(bash('ls', session))).not.toBeNull();
    expect(sessionRule.evaluate(bash('ls'))).toBeNull();
    const scopeRule = rule({ out_of_scope: true, intent: 'file_creation' });
    expect(scopeRule.evaluate(bash('touch /tmp/x'))).not.toBeNull();
    expect(scopeRule.evaluate(bash('touch x'))).toBeNull();
    expect(rule({ out_of_scope: false }).evaluate(bash('touch x'))).not.toBeNull();
    expect(rule({ command: 'ls*' }).reads).toBe('action');
  });

  it('matches privileged commands', () => {
    expect(matches({ privileged: true }, bash('sudo ls'))).toBe(true);
    expect(matches({ privileged: true }, bash('ls'))).toBe(false);
  });
});

describe('compileCustomRule: what a rule needs, for the engine\'s index', () => {
  it('needs the programs its command globs spell out, or the origins its URL globs spell out, and nothing it cannot tell', () => {
    expect(rule({ command: ['terraform apply*', 'terraform destroy*', 'helm uninstall *'] }).needs).toEqual({ programs: ['terraform', 'helm'] });
    expect(rule({ command: ['terraform apply*', '*deploy*'] }).needs).toBeUndefined();
    expect(rule({ command: 'make' }).needs).toBeUndefined();
    expect(rule({ url: ['https://Svc.Example.com/**', 'http://localhost:8080/admin*', 'https://svc.example.com'] }).needs).toEqual({
      origins: ['https://svc.example.com', 'http://localhost:8080'],
    });
    for (const url of ['https://*.example.com/**', 'https://svc*', '**/admin/**']) expect(rule({ url }).needs).toBeUndefined();
    expect(rule({ tool: 'Bash', command_regex: 'migrate' }).needs).toBeUndefined();
  });

  it('finds nothing on an action without what it needs', () => {
    // Every URL a glob matches has the origin the index files it under, whatever the case or the path.
    const api = rule({ url: 'https://svc.example.com/**' });
    expect(api.evaluate(bash('curl -s HTTPS://SVC.example.com/v1/items'))).not.toBeNull();
    expect(api.evaluate(bash('curl -s https://svc.example.com'))).not.toBeNull();
    expect(api.evaluate(bash('curl -s https://svc.example.com.evil.io/x https://user@svc.example.com/x https://svc.example.com:8443/x'))).toBeNull();
    const named = rule({ command: 'teamctl deploy*' });
    expect(named.evaluate(bash('/usr/local/bin/teamctl deploy prod'))).toBeNull();
    expect(named.evaluate(bash('sudo teamctl deploy prod'))).not.toBeNull();
  });
});

describe('compileCustomRule: findings', () => {
  it('takes the score, factors and alternative given, and a default score by verdict', () => {
    const given = rule({ tool: 'Bash' }, { verdict: 'warn', score: 0.65, factors: ['team_policy'], alternative: 'Ask first.' });
    expect(given.evaluate(bash('ls'))).toEqual({
      rule: 'test_rule',
      verdict: 'warn',
      score: 0.65,
      severity: 'high',
      factors: ['team_policy'],
      reason: 'Not here.',
      alternative: 'Ask first.',
    });
    expect(rule({ tool: 'Bash' }, { verdict: 'warn' }).evaluate(bash('ls'))?.score).toBe(0.5);
    expect(rule({ tool: 'Bash' }, { verdict: 'require_approval' }).evaluate(bash('ls'))?.score).toBe(0.8);
    expect(rule({ tool: 'Bash' }, { verdict: 'allow' }).evaluate(bash('ls'))).toMatchObject({ score: 0.1, severity: 'low' });
  });

  it('describes the rule by its description, or its reason', () => {
    expect(rule({ tool: 'Bash' }, { description: 'No shell.' }).description).toBe('No shell.');
    expect(rule({ tool: 'Bash' }).description).toBe('Not here.');
  });

  it('modifies a copy of the input with set and replace', () => {
    const timeout = rule(
      { command: 'npm test*' },
      {
        verdict: 'modify',
        modify: { set: { timeout: 600000, env: { CI: '1' } }, replace: [{ field: 'command', pattern: '--watch(=\\w+)?', with: '--watch=false' }] },
      },
    );
    const ctx = bash('npm test -- --watch');
    const finding = timeout.evaluate(ctx);
    expect(finding).toMatchObject({ verdict: 'modify', score: 0.7, modifiedInput: { command: 'npm test -- --watch=false', timeout: 600000, env: { CI: '1' } } });
    expect(ctx.action.input).toEqual({ command: 'npm test -- --watch' });
  });

  it('replaces with capture groups, and does not fire when its change changes nothing', () => {
    const lease = rule(
      { command: 'git push*' },
      { verdict: 'modify', modify: { replace: [{ field: 'command', pattern: '(\\s)--force(\\s|$)', with: '$1--force-with-lease$2' }] } },
    );
    expect(lease.evaluate(bash('git push --force origin main'))?.modifiedInput).toEqual({ command: 'git push --force-with-lease origin main' });
    expect(lease.evaluate(bash('git push origin main'))).toBeNull();
    const already = rule({ tool: 'Bash' }, { verdict: 'modify', modify: { set: { timeout: 1000 } } });
    expect(already.evaluate(context('Bash', { command: 'ls', timeout: 1000 }))).toBeNull();
  });
});

describe('compileCustomRule: errors', () => {
  const error = (definition: Partial<CustomRuleDefinition>) => {
    try {
      compileCustomRule({ name: 'no_tf', match: {}, verdict: 'block', reason: 'x', ...definition } as CustomRuleDefinition, 'rules.yaml');
    } catch (e) {
      return e as CustomRuleError;
    }
    throw new Error('expected a CustomRuleError');
  };

  it('names the source, the rule and the field of an invalid regular expression', () => {
    const e = error({ match: { command_regex: '(' } });
    expect(e).toBeInstanceOf(CustomRuleError);
    expect(e.message).toBe('rules.yaml: rule "no_tf" match.command_regex: Invalid regular expression: /(/: Unterminated group');
    expect(error({ match: { command_regex: ['ok', '[z-a]'] } }).message).toMatch(/^rules\.yaml: rule "no_tf" match\.command_regex\[1\]: Invalid regular expression/);
    expect(error({ match: { input: { command: '*' } } }).message).toMatch(/match\.input\.command: Invalid regular expression/);
    expect(
      error({ match: { tool: 'Bash' }, verdict: 'modify', modify: { replace: [{ field: 'command', pattern: '(', with: '' }] } }).message,
    ).toMatch(/modify\.replace\[0\]\.pattern: Invalid regular expression/);
  });

  it('refuses a rule without conditions', () => {
    expect(error({ match: {} }).message).toBe('rules.yaml: rule "no_tf" match: a rule needs at least one condition under match, or a when expression');
    expect(error({ match: { input: {} } }).field).toBe('match');
  });

  it('refuses unknown intents and kinds', () => {
    expect(error({ match: { intent: 'file_delete' } }).message).toMatch(/match\.intent: unknown intent "file_delete"/);
    expect(error({ match: { kind: 'shell' } }).message).toMatch(/match\.kind: unknown action kind "shell"/);
  });

  it('refuses a modify rule without changes, and changes without verdict modify', () => {
    expect(error({ match: { tool: 'Bash' }, verdict: 'modify' }).field).toBe('modify');
    expect(error({ match: { tool: 'Bash' }, verdict: 'warn', modify: { set: { a: 1 } } }).message).toMatch(/only a rule with verdict modify/);
  });
});

describe('loadCustomRules', () => {
  const yaml = `
rules:
  - name: no_terraform_apply
    match: { command: "terraform apply*" }
    verdict: require_approval
    reason: Terraform changes need a person.
  - name: github_shadow
    shadow: true
    match:
      tool: mcp__github__*
      intent: [external_tool]
    verdict: warn
    reason: Watching GitHub calls.
  - name: old_rule
    enabled: false
    match: { tool: Bash }
    verdict: block
    reason: Off.
`;

  it('reads a YAML document with a rules list', () => {
    const rules = loadCustomRules(yaml, 'yaml', 'rules.yaml');
    expect(rules.map((r) => r.name)).toEqual(['no_terraform_apply', 'github_shadow', 'old_rule']);
    expect(customRuleSwitches(rules)).toEqual({ disabled: ['old_rule'], shadow: ['github_shadow'] });
  });

  it('reads a bare list, JSON, and an empty document', () => {
    expect(loadCustomRules('- name: a\n  match: { tool: Bash }\n  verdict: warn\n  reason: r\n', 'yaml', 'r.yaml')).toHaveLength(1);
    expect(loadCustomRules(JSON.stringify([{ name: 'a', match: { tool: 'Bash' }, verdict: 'warn', reason: 'r' }]), 'json', 'r.json')).toHaveLength(1);
    expect(loadCustomRules('', 'yaml', 'r.yaml')).toEqual([]);
    expect(loadCustomRules('rules: []', 'yaml', 'r.yaml')).toEqual([]);
  });

  it('names the source, index and field of a rule the schema refuses', () => {
    const text = '- name: ok\n  match: { tool: Bash }\n  verdict: warn\n  reason: r\n- name: bad\n  match: { tool: Bash }\n  verdict: maybe\n  reason: r\n';
    expect(() => loadCustomRules(text, 'yaml', 'rules.yaml')).toThrow(/^rules\.yaml: rules\[1\] \(bad\) \/verdict: /);
    expect(() => loadCustomRules('- name: x\n  match: { colour: red }\n  verdict: warn\n  reason: r\n', 'yaml', 'rules.yaml')).toThrow(/^rules\.yaml: rules\[0\] \(x\) \/match/);
  });

  it('reports a regular expression error with the index', () => {
    const text = JSON.stringify({ rules: [{ name: 'no_tf', match: { command_regex: '(' }, verdict: 'block', reason: 'r' }] });
    expect(() => loadCustomRules(text, 'json', 'rules.json')).toThrow('rules.json: rules[0] (no_tf) match.command_regex: Invalid regular expression: /(/: Unterminated group');
  });

  it('refuses malformed documents, unexpected keys and duplicate names', () => {
    expect(() => loadCustomRules('rules: [', 'yaml', 'rules.yaml')).toThrow(/^rules\.yaml: not valid YAML: /);
    expect(() => loadCustomRules('{', 'json', 'rules.json')).toThrow(/^rules\.json: not valid JSON: /);
    expect(() => loadCustomRules('rules: []\nextra: 1', 'yaml', 'rules.yaml')).toThrow('rules.yaml: extra: unexpected key');
    expect(() => loadCustomRules('name: x', 'yaml', 'rules.yaml')).toThrow(/expected a list of rules/);
    const twice = '- { name: a, match: { tool: Bash }, verdict: warn, reason: r }\n- { name: a, match: { tool: Read }, verdict: warn, reason: r }\n';
    expect(() => loadCustomRules(twice, 'yaml', 'rules.yaml')).toThrow('rules.yaml: rules[1] (a) name: "a" is already used by rules[0]');
  });
});
