import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lintPolicy, lintRulesFile, type LintFinding } from './policy-lint.js';

/** Files in memory: lint reads through the function it is given. */
function files(entries: Record<string, string>) {
  return (path: string) => {
    const text = entries[path];
    if (text === undefined) throw new Error(`ENOENT: no such file ${path}`);
    return text;
  };
}

const CONFIG = '/policy/reviewer.yaml';
const RULES = '/policy/rules.yaml';
const lintRules = (rules: string) => lintRulesFile(RULES, files({ [RULES]: rules }));
const only = (findings: LintFinding[], code: string) => findings.filter((f) => f.code === code);
const shape = (f: LintFinding) => ({ level: f.level, code: f.code, rule: f.rule, field: f.field, line: f.line });

describe('lintPolicy: unknown fields, with the field meant', () => {
  it('names an unknown field of a rule, of its match, of its modify and of the rules document, with the line', () => {
    const findings = lintRules(`rules:
  - name: no_tf
    match:
      comand: terraform apply*
    verdict: block
    reason: Plan first.
  - name: rewrite
    match: { command: 'npm i *' }
    verdict: modify
    modify: { replace: [{ field: command, pattern: x, with: y, flags: g }] }
    reason: x
    severity: high
version: 2
`);
    expect(findings.map(shape)).toEqual([
      { level: 'error', code: 'unknown_field', rule: 'no_tf', field: 'rules[0].match.comand', line: 4 },
      { level: 'error', code: 'unknown_field', rule: 'rewrite', field: 'rules[1].modify.replace[0].flags', line: 10 },
      { level: 'error', code: 'unknown_field', rule: 'rewrite', field: 'rules[1].severity', line: 12 },
      { level: 'error', code: 'unknown_field', rule: undefined, field: 'version', line: 13 },
    ]);
    expect(findings[0]!.message).toBe('unknown field "comand"; did you mean "command"?');
    expect(findings[2]!.message).toMatch(/^unknown field "severity" \(known: name, description, enabled, shadow, when, match, verdict, reason, score/);
  });

  it('names unknown fields of the reviewer configuration, and names in rules.disabled that no rule has', () => {
    const findings = lintPolicy(
      CONFIG,
      files({
        [CONFIG]: `step_reviewer:
  rules:
    bultin: all
    disabled: [force_push, force_psuh]
  pipelines:
    ci:
      agents: ['ci-*']
      rules: { shadow: [no_such_rule] }
  cache: { enabled: true, ttl: 5 }
`,
      }),
    );
    expect(findings.map(shape)).toEqual([
      { level: 'error', code: 'unknown_field', rule: undefined, field: 'step_reviewer.rules.bultin', line: 3 },
      { level: 'warning', code: 'unknown_rule_name', rule: undefined, field: 'step_reviewer.rules.disabled[1]', line: 4 },
      { level: 'warning', code: 'unknown_rule_name', rule: undefined, field: 'step_reviewer.pipelines.ci.rules.shadow[0]', line: 8 },
      { level: 'error', code: 'unknown_field', rule: undefined, field: 'step_reviewer.cache.ttl', line: 9 },
    ]);
    expect(findings[0]!.message).toBe('unknown field "bultin"; did you mean "builtin"?');
    expect(findings[1]!.message).toBe('no rule or validator is named "force_psuh": it switches nothing off');
  });
});

describe('lintPolicy: rules that cannot be used', () => {
  it('reports every broken rule, not only the first: a bad regex, a CEL error with its position, a reused name', () => {
    const findings = lintRules(`- name: bad_regex
  match: { command_regex: ['ok', 'a(b'] }
  verdict: block
  reason: x
- name: bad_cel
  when: session.failurs > 2
  verdict: warn
  reason: x
- name: bad_regex
  match: { tool: Bash }
  verdict: warn
  reason: x
`);
    expect(findings.map(shape)).toEqual([
      { level: 'error', code: 'invalid', rule: 'bad_regex', field: '[0].match.command_regex[1]', line: 2 },
      { level: 'error', code: 'invalid', rule: 'bad_cel', field: '[1].when', line: 6 },
      { level: 'error', code: 'invalid', rule: 'bad_regex', field: '[2].name', line: 9 },
    ]);
    expect(findings[1]!.message).toMatch(/No such key: failurs/);
  });
});

describe('lintPolicy: rules that never match', () => {
  it('finds a when that is always false, a part of it that is, and parts that contradict each other', () => {
    const findings = lintRules(`- name: constant
  when: 1 == 2
  verdict: block
  reason: x
- name: dead_part
  when: session.failures > 2 && (false || 2 < 1)
  verdict: block
  reason: x
- name: two_places
  when: session.environment == "production" && action.tool == "Bash" && session.environment == "staging"
  verdict: block
  reason: x
`);
    expect(only(findings, 'never_matches').map((f) => [f.rule, f.field, f.message])).toEqual([
      ['constant', '[0].when', 'never matches: "1 == 2" is always false: it reads nothing of the action, the agent or the session'],
      ['dead_part', '[1].when', 'never matches: its part "false || 2 < 1" is always false'],
      ['two_places', '[2].when', 'never matches: session.environment cannot be both "production" and "staging"'],
    ]);
    expect(findings.every((f) => f.level === 'error')).toBe(true);
  });

  it('finds a command asked of a tool that runs none, and says when a tool is one no agent has', () => {
    const findings = lintRules(`- name: write_cmd
  match: { tool: [Write, Edit], command: 'rm *' }
  verdict: block
  reason: x
- name: typo_tool
  match: { tool: Bsh }
  verdict: warn
  reason: x
- name: typo_in_when
  when: action.tool == "Wirte" && action.written.size() > 0
  verdict: warn
  reason: x
- name: mcp_tool
  match: { tool: mcp__github__delete_repository }
  verdict: block
  reason: x
`);
    expect(findings.map((f) => [f.code, f.rule, f.message])).toEqual([
      ['never_matches', 'write_cmd', 'never matches: match.command needs a command line, and Write, Edit never runs one'],
      ['unknown_tool', 'typo_tool', 'no supervised agent has a tool named "Bsh": the rule matches only a tool of that name (an SDK agent\'s own tool)'],
      ['unknown_tool', 'typo_in_when', 'no supervised agent has a tool named "Wirte": the rule matches only a tool of that name (an SDK agent\'s own tool)'],
    ]);
    expect(only(findings, 'unknown_tool').every((f) => f.level === 'warning')).toBe(true);
  });
});

describe('lintPolicy: rules that always match, and patterns that match everything', () => {
  it('finds a when that is always true and a match of catch-all patterns only, in any spelling', () => {
    const findings = lintRules(`- name: always_when
  when: 'true'
  verdict: warn
  reason: x
- name: any_command
  match: { command_regex: '.*' }
  verdict: block
  reason: x
- name: any_path
  match: { path: '**', command: '*' }
  verdict: require_approval
  reason: x
- name: or_true
  when: session.failures > 2 || 1 < 2
  verdict: warn
  reason: x
- name: empty_regex
  match: { command_regex: '' }
  verdict: warn
  reason: x
`);
    expect(findings.map((f) => [f.code, f.level, f.rule])).toEqual([
      ['always_matches', 'error', 'always_when'],
      ['always_matches', 'error', 'any_command'],
      ['always_matches', 'error', 'any_path'],
      ['always_matches', 'error', 'or_true'],
      ['always_matches', 'error', 'empty_regex'],
    ]);
    expect(findings[1]!.message).toBe('always matches (match.command_regex ".*" matches everything): the rule gives block to every action it looks at; say what it is about');
    expect(findings[3]!.message).toMatch(/its part "1 < 2" is always true/);
  });

  it('warns of one catch-all pattern among narrower conditions: it narrows nothing', () => {
    const findings = lintRules(`- name: tf
  match: { tool: Bash, command: ['terraform apply*', '*'] }
  verdict: block
  reason: x
- name: anything_in_scope
  match: { written_path: '/**', out_of_scope: true }
  verdict: warn
  reason: x
`);
    expect(findings.map((f) => [f.code, f.level, f.rule, f.field, f.message])).toEqual([
      ['matches_everything', 'warning', 'tf', '[0].match.command', 'match.command "*" matches everything: it narrows nothing; remove it or say what it is about'],
      ['matches_everything', 'warning', 'anything_in_scope', '[1].match.written_path', 'match.written_path "/**" matches everything: it narrows nothing; remove it or say what it is about'],
    ]);
  });
});

describe('lintPolicy: rules shadowed by an earlier one with the same verdict', () => {
  it('finds a later rule whose matches an earlier, broader or equal rule always matches with the same verdict', () => {
    const findings = lintRules(`- name: no_terraform
  match: { command: 'terraform *' }
  verdict: block
  reason: x
- name: no_terraform_apply
  match: { command: 'terraform apply*', path: '/work/**' }
  verdict: block
  reason: x
- name: terraform_apply_approval
  match: { command: 'terraform apply*' }
  verdict: require_approval
  reason: x
- name: generated
  match: { written_path: '/work/app/generated/**' }
  when: session.failures > 1
  verdict: warn
  reason: x
- name: generated_again
  match: { written_path: '/work/app/generated/api/**', tool: Write }
  when: session.failures>1
  verdict: warn
  reason: x
- name: generated_without_when
  match: { written_path: '/work/app/generated/api/**' }
  verdict: warn
  reason: x
- name: trial
  shadow: true
  match: { command: 'kubectl *' }
  verdict: block
  reason: x
- name: kubectl
  match: { command: 'kubectl delete*' }
  verdict: block
  reason: x
`);
    expect(findings.map((f) => [f.code, f.level, f.rule, f.line])).toEqual([
      ['shadowed', 'warning', 'no_terraform_apply', 5],
      ['shadowed', 'warning', 'generated_again', 18],
    ]);
    expect(findings[0]!.message).toBe(
      'shadowed by rule "no_terraform" (line 1): it gives block to every action this rule matches, earlier, so this rule never changes a verdict; remove it, or make it narrower or stronger',
    );
  });

  it('sees rules of the configuration and of its rules file as one list, inline ones first', () => {
    const findings = lintPolicy(
      CONFIG,
      files({
        [CONFIG]: "rules:\n  custom_rules_path: rules.yaml\n  custom:\n    - { name: no_rm, match: { command: 'rm *' }, verdict: block, reason: x }\n",
        [RULES]: "- { name: no_rm_rf, match: { command: 'rm -rf*' }, verdict: block, reason: x }\n",
      }),
    );
    expect(findings.map((f) => [f.code, f.file, f.rule, f.line])).toEqual([['shadowed', RULES, 'no_rm_rf', 1]]);
    expect(findings[0]!.message).toMatch(/^shadowed by rule "no_rm" \(\/policy\/reviewer\.yaml:4\): it gives block/);
  });
});

describe('lintPolicy: overrides of built-in rules', () => {
  it('checks each override beside the rules as the reviewer does, and names the one that is wrong', () => {
    const findings = lintPolicy(
      CONFIG,
      files({
        [CONFIG]: 'rules:\n  custom_rules_path: rules.yaml\n',
        [RULES]: [
          'rules: []',
          'overrides:',
          '- { rule: secret_file_read, verdict: warn, paths: ["**/fixtures/**"] }',
          '- { rule: no_such_rule, verdict: warn }',
          '- { rule: secret_file_write, verdict: maybe }',
        ].join('\n'),
      }),
    );
    expect(findings.map((f) => [f.code, f.file, f.line])).toEqual([
      ['invalid', RULES, 4],
      ['invalid', RULES, 5],
    ]);
    expect(findings[0]!.message).toMatch(/overrides\[1\] \(no_such_rule\)/);
    expect(findings[1]!.message).toMatch(/overrides\[2\] \(secret_file_write\)/);
  });
});

describe('lintPolicy: a clean policy', () => {
  it("finds nothing in the project's example policy (deploy/reviewer)", () => {
    const policy = fileURLToPath(new URL('../../../../deploy/reviewer/reviewer.yaml', import.meta.url));
    expect(lintPolicy(policy, (path) => readFileSync(path, 'utf8'))).toEqual([]);
  });

  it('says a file it cannot read or parse is an error, with the place', () => {
    expect(lintPolicy(CONFIG, files({ [CONFIG]: 'rules:\n  custom_rules_path: gone.yaml\n' })).map(shape)).toEqual([
      { level: 'error', code: 'invalid', rule: undefined, field: 'rules.custom_rules_path', line: 2 },
    ]);
    expect(lintRules('- name: x\n  verdict: [block\n').map((f) => [f.code, f.line])).toEqual([['invalid', 3]]);
  });
});
