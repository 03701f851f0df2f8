import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWarden } from './hook-suite.fixture.js';

/** `warden policy lint …` as a user (or CI) runs it. */
const lint = (args: string[]) => runWarden(['policy', 'lint', ...args]);

/** A policy with one of each finding, each on a line the test names. */
const DIRTY_CONFIG = `step_reviewer:
  rules:
    custom_rules_path: rules.yaml
    disabled: [force_psuh]
  cach: { enabled: true }
`;
const DIRTY_RULES = `- name: no_tf
  match:
    comand: terraform apply*
  verdict: block
  reason: x
- name: bad_regex
  match: { command_regex: 'a(b' }
  verdict: block
  reason: x
- name: never
  when: session.environment == "production" && session.environment == "staging"
  verdict: block
  reason: x
- name: always
  match: { command_regex: '.*' }
  verdict: warn
  reason: x
- name: catch_all_part
  match: { tool: Bash, command: ['git push*', '*'] }
  verdict: warn
  reason: x
- name: no_rm
  match: { command: 'rm *' }
  verdict: block
  reason: x
- name: no_rm_rf
  match: { command: 'rm -rf*' }
  verdict: block
  reason: x
- name: typo_tool
  match: { tool: Bsh }
  verdict: warn
  reason: x
`;

interface Finding {
  level: string;
  code: string;
  file: string;
  line: number;
  rule?: string;
  field?: string;
  message: string;
}

describe('warden policy lint', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-lint-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function folder(name: string, config: string, rules: string): string {
    const path = join(dir, name);
    mkdirSync(path);
    writeFileSync(join(path, 'reviewer.yaml'), config);
    writeFileSync(join(path, 'rules.yaml'), rules);
    return path;
  }

  it('finds each kind of mistake with file, line and rule, and fails', async () => {
    const dirty = folder('dirty', DIRTY_CONFIG, DIRTY_RULES);
    const run = await lint([dirty]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n').map((l) => l.replace(dir, '<dir>'));
    expect(lines).toEqual([
      expect.stringMatching(/^<dir>\/dirty\/reviewer\.yaml:4:\d+ {2}warning {2}unknown_rule_name step_reviewer\.rules\.disabled\[0\]: no rule or validator is named "force_psuh"/),
      expect.stringMatching(/^<dir>\/dirty\/reviewer\.yaml:5:3 {2}error {4}unknown_field step_reviewer\.cach: unknown field "cach"; did you mean "cache"\?$/),
      expect.stringMatching(/^<dir>\/dirty\/rules\.yaml:3:5 {2}error {4}unknown_field rule no_tf \[0\]\.match\.comand: unknown field "comand"; did you mean "command"\?$/),
      expect.stringMatching(/^<dir>\/dirty\/rules\.yaml:7:\d+ {2}error {4}invalid rule bad_regex \[1\]\.match\.command_regex: .*(Unterminated group|unterminated)/i),
      expect.stringMatching(/^<dir>\/dirty\/rules\.yaml:11:3 {2}error {4}never_matches rule never \[2\]\.when: never matches: session\.environment cannot be both "production" and "staging"$/),
      expect.stringMatching(/^<dir>\/dirty\/rules\.yaml:15:3 {2}error {4}always_matches rule always \[3\]\.match: always matches \(match\.command_regex "\.\*" matches everything\)/),
      expect.stringMatching(/^<dir>\/dirty\/rules\.yaml:19:\d+ {2}warning {2}matches_everything rule catch_all_part \[4\]\.match\.command: match\.command "\*" matches everything/),
      expect.stringMatching(/^<dir>\/dirty\/rules\.yaml:26:3 {2}warning {2}shadowed rule no_rm_rf \[6\]: shadowed by rule "no_rm" \(line 22\)/),
      expect.stringMatching(/^<dir>\/dirty\/rules\.yaml:31:3 {2}warning {2}unknown_tool rule typo_tool \[7\]\.match: no supervised agent has a tool named "Bsh"/),
      expect.stringMatching(/^5 error\(s\), 4 warning\(s\) in <dir>\/dirty\/reviewer\.yaml$/),
    ]);
  });

  it('prints the findings as JSON', async () => {
    const run = await lint([join(dir, 'dirty'), '--json']);
    expect(run.code).toBe(1);
    const findings = JSON.parse(run.stdout) as Finding[];
    expect(findings.map((f) => f.code)).toEqual(['unknown_rule_name', 'unknown_field', 'unknown_field', 'invalid', 'never_matches', 'always_matches', 'matches_everything', 'shadowed', 'unknown_tool']);
    expect(findings[2]).toEqual({ level: 'error', code: 'unknown_field', file: expect.stringMatching(/dirty\/rules\.yaml$/), line: 3, column: 5, rule: 'no_tf', field: '[0].match.comand', message: 'unknown field "comand"; did you mean "command"?' });
  });

  it('passes with warnings alone, unless told to fail on them; a rules file can be linted alone', async () => {
    const rules = `- name: no_rm
  match: { command: 'rm *' }
  verdict: block
  reason: x
- name: no_rm_rf
  match: { command: 'rm -rf*' }
  verdict: block
  reason: x
`;
    const warned = folder('warned', 'rules:\n  custom_rules_path: rules.yaml\n', rules);
    const run = await lint([warned]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/0 error\(s\), 1 warning\(s\)/);
    expect((await lint([warned, '--fail-on-warnings'])).code).toBe(1);
    const alone = await lint([join(warned, 'rules.yaml')]);
    expect([alone.code, alone.stdout]).toEqual([0, expect.stringMatching(/rules\.yaml:5:3 {2}warning {2}shadowed rule no_rm_rf/)]);
  });

  it("finds nothing in the project's example policy", async () => {
    const run = await lint(['deploy/reviewer', '--fail-on-warnings']);
    expect(run.stdout).toBe('deploy/reviewer/reviewer.yaml: no findings\n');
    expect(run.code).toBe(0);
    expect((await lint([join(dir, 'nowhere')])).code).toBe(2);
    const help = await lint(['--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringMatching(/^Usage: warden policy lint \[options\] \[<dir or file>\]\n[\s\S]*shadowed {12}a rule an earlier one covers with the same verdict/)]);
  });
});
