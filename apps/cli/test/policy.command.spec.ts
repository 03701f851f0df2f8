import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWarden } from './hook-suite.fixture.js';

/** `warden policy …` as a user runs it: no suite, no NATS. */
const policy = (args: string[]) => runWarden(['policy', ...args]);

const RULES = `- name: infra_after_failures
  when: session.failures >= 2 && action.written.exists(p, glob(p, "**/infra/**"))
  verdict: require_approval
  reason: Infrastructure changes after failures need a person.
`;

describe('warden policy test', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-policy-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A policy folder: reviewer.yaml naming rules.yaml, and one test file. */
  function policyFolder(name: string, rules: string, tests: string): string {
    const folder = join(dir, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'reviewer.yaml'), 'step_reviewer:\n  rules:\n    custom_rules_path: rules.yaml\n');
    writeFileSync(join(folder, 'rules.yaml'), rules);
    writeFileSync(join(folder, 'rules.test.yaml'), tests);
    return folder;
  }

  it("passes on the project's example policy, CEL rules included", async () => {
    const run = await policy(['test', 'deploy/reviewer']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/✓ the same change after three failing commands needs a person: require_approval \(infra_writes_after_failures\)/);
    expect(run.stdout).toMatch(/✓ kubectl delete in production when the task is not a deletion: block \([^)]*kubectl_delete_in_production[^)]*\)/);
    expect(run.stdout).toMatch(/^\d+ cases in 1 file\(s\): (\d+) passed, 0 failed$/m);
    expect(run.code).toBe(0);
  });

  it('runs a session fact at the right point, says which case got another verdict, and writes JUnit XML', async () => {
    const folder = policyFolder(
      'facts',
      RULES,
      `tests:
  - name: one failure is not enough
    tool: Write
    input: { file_path: /work/app/infra/a.tf, content: "x" }
    session: { failures: 1 }
    expect: { verdict: [allow, warn], not_rule: infra_after_failures }
  - name: two failures are
    tool: Write
    input: { file_path: /work/app/infra/a.tf, content: "x" }
    session: { failures: 2 }
    expect: { verdict: require_approval, rule: infra_after_failures }
  - name: a wrong expectation
    command: ls
    expect: { verdict: block }
`,
    );
    const junit = join(dir, 'policy.xml');
    const run = await policy(['test', folder, '--junit', junit]);
    expect(run.stdout).toContain('✓ one failure is not enough');
    expect(run.stdout).toContain('✓ two failures are: require_approval (infra_after_failures)');
    expect(run.stdout).toMatch(/✗ a wrong expectation: verdict allow, expected block/);
    expect(run.stdout).toContain('3 cases in 1 file(s): 2 passed, 1 failed');
    expect(run.code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites name="warden policy test" tests="3" failures="1">');
    expect(xml).toMatch(/<testcase classname="[^"]*rules\.test\.yaml" name="a wrong expectation" time="[\d.]+">\s*<failure message="[^"]*verdict allow, expected block"/);
  });

  it('refuses a policy whose CEL expression does not compile, naming the rule, the field and the position', async () => {
    const folder = policyFolder('broken', RULES.replace('session.failures >= 2', 'session.failurs >= 2'), 'tests:\n  - name: x\n    command: ls\n    expect: { verdict: allow }\n');
    const run = await policy(['test', folder]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/rules\.yaml: rules\[0\] \(infra_after_failures\) when: No such key: failurs/);
    expect(run.stderr).toMatch(/\^/);
  });

  it('refuses a test file it cannot read, with the place of the mistake', async () => {
    const folder = policyFolder('bad-test', RULES, 'tests:\n  - name: x\n    command: ls\n    expect: { verdict: maybe }\n');
    const run = await policy(['test', folder]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/rules\.test\.yaml: \/tests\/0\/expect\/verdict/);
    expect((await policy(['test', join(dir, 'nowhere')])).stderr).toMatch(/does not exist/);
    expect((await policy(['frobnicate', folder])).stderr).toMatch(/unknown policy command "frobnicate": use test, explain, lint/);
    expect((await policy(['test', folder, '--json'])).stderr).toMatch(/--json is not an option of warden policy test/);
  });
});
