import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWarden } from './hook-suite.fixture.js';

/** `warden policy explain …` as a user runs it: no suite, no NATS. */
const explain = (args: string[], stdin?: string) => runWarden(['policy', 'explain', ...args], stdin === undefined ? {} : { stdin });

const RULES = `- name: infra_after_failures
  when: session.failures >= 2 && action.written.exists(p, glob(p, "**/infra/**"))
  verdict: require_approval
  reason: Infrastructure changes after failures need a person.
- name: no_force_push
  match: { command: 'git push --force*' }
  verdict: block
  reason: Never force-push here.
`;

interface Explained {
  policy: string;
  verdict: string;
  decided_by: string;
  decided_by_name?: string;
  why: string[];
  session: { failures: number; goal: string };
  rules: { rule: string; origin: string; result: string; verdict?: string; conditions?: { condition: string; value?: unknown; parts?: { condition: string; value?: unknown; parts?: { condition: string; value?: unknown }[] }[] }[] }[];
}

describe('warden policy explain', () => {
  let dir: string;
  let policy: string;
  let call: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-explain-'));
    policy = join(dir, 'policy');
    mkdirSync(policy);
    writeFileSync(join(policy, 'reviewer.yaml'), 'step_reviewer:\n  rules:\n    custom_rules_path: rules.yaml\n');
    writeFileSync(join(policy, 'rules.yaml'), RULES);
    call = join(dir, 'write.json');
    writeFileSync(call, JSON.stringify({ tool: 'Write', input: { file_path: '/work/app/infra/main.tf', content: 'resource "x" "y" {}\n' } }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('explains a command with the deployment policy: the verdict, the rule that decided and why, every rule evaluated', async () => {
    const run = await explain(['--', 'terraform', 'apply', '-auto-approve']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Bash: terraform apply -auto-approve\nPolicy: deploy/reviewer/reviewer.yaml\n');
    expect(run.stdout).toContain('Verdict: require_approval, decided by rule infrastructure_destruction\n');
    expect(run.stdout).toMatch(/Rule infrastructure_destruction decides: require_approval is the strongest verdict weighed, and it comes first among those that give it; it is stronger than the matrix's \w+\./);
    expect(run.stdout).toMatch(/✓ terraform_apply_needs_approval {2}custom {2}require_approval 0\.80\n {6}match\.command: \["terraform apply\*","tofu apply\*"\] {2}→ true\n/);
    expect(run.stdout).toMatch(/✗ infra_writes_after_failures {2}custom\n {6}when: session\.failures >= 3 && action\.written\.exists\(p, glob\(p, "\*\*\/infra\/\*\*"\)\) {2}→ false\n {10}session\.failures >= 3 {2}→ false\n {14}session\.failures = 0\n/);
    expect(run.stdout).toMatch(/Built-in rules that did not match \(\d+\):\n {4}supervision_tampering, destructive_root_deletion/);
  });

  it('explains a JSON tool call with what the session has been through: the CEL parts and the values they compared', async () => {
    const once = JSON.parse((await explain(['--policy', policy, '--failures', '1', '--goal', 'Fix CI', '--tool-call', call, '--json'])).stdout) as Explained;
    expect(once).toMatchObject({ policy: join(policy, 'reviewer.yaml'), session: { failures: 1, goal: 'Fix CI' } });
    const quiet = once.rules.find((r) => r.rule === 'infra_after_failures')!;
    expect(quiet).toMatchObject({ origin: 'custom', result: 'not_matched' });
    expect(quiet.conditions![0]!.parts![0]).toEqual({ condition: 'session.failures >= 2', value: false, parts: [{ condition: 'session.failures', value: 1 }] });
    expect(quiet.conditions![0]!.parts![1]).toEqual({ condition: 'action.written.exists(p, glob(p, "**/infra/**"))', value: true, parts: [{ condition: 'action.written', value: ['/work/app/infra/main.tf'] }] });

    const twice = JSON.parse((await explain(['--policy', policy, '--failures', '2', '--tool-call', call, '--json'])).stdout) as Explained;
    expect(twice).toMatchObject({ verdict: 'require_approval', decided_by: 'rule', decided_by_name: 'infra_after_failures' });
    expect(twice.rules.filter((r) => r.origin === 'built-in').length).toBeGreaterThan(50);
    // A rule whose program the action does not run is not evaluated (the engine's index), and says so.
    const push = twice.rules.find((r) => r.rule === 'no_force_push')!;
    expect(push).toMatchObject({ origin: 'custom', result: 'not_needed' });
    expect(push.conditions).toBeUndefined();
  });

  it("reads an agent hook's tool call from stdin", async () => {
    const run = await explain(['--policy', policy, '--failures', '2', '--tool-call', '-'], JSON.stringify({ tool_name: 'Write', tool_input: { file_path: '/work/app/infra/vars.tf', content: 'x' } }));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Write {"file_path":"/work/app/infra/vars.tf","content":"x"}\nPolicy: ${join(policy, 'reviewer.yaml')}\n`);
    expect(run.stdout).toContain('Session: no goal declared · 2 action(s) before this one, 2 failed\n');
    expect(run.stdout).toContain('Verdict: require_approval, decided by rule infra_after_failures\n');
    expect(run.stdout).toMatch(/ {10}session\.failures >= 2 {2}→ true\n {14}session\.failures = 2\n/);
  });

  it("takes the session's spend: the deployment policy holds a helm upgrade of a session past $20", async () => {
    const cheap = await explain(['--spend', '3.20', '--', 'helm', 'upgrade', 'shop', 'charts/shop']);
    expect(cheap.code).toBe(0);
    expect(cheap.stdout).toContain('Session: no goal declared · 0 action(s) before this one, 0 failed · spent $3.20\n');
    expect(cheap.stdout).toMatch(/✗ deploys_of_a_costly_session {2}custom\n {6}when: .* {2}→ false\n {10}session\.spend_usd > 20\.0 {2}→ false\n {14}session\.spend_usd = 3\.2\n/);
    const costly = await explain(['--spend', '$24.75', '--', 'helm', 'upgrade', 'shop', 'charts/shop']);
    expect(costly.stdout).toMatch(/✓ deploys_of_a_costly_session {2}custom {2}require_approval/);
    expect((await explain(['--spend', 'lots', '--', 'ls'])).stderr).toMatch(/--spend must be an amount in USD, such as 12\.50 \(got "lots"\)/);
  });

  it('refuses what it cannot explain, saying why', async () => {
    const twoSources = await explain(['--tool-call', call, '--', 'ls']);
    expect([twoSources.code, twoSources.stderr]).toEqual([2, expect.stringMatching(/explain one action: a command, --tool-call FILE \(or -\), or --action ID --session S/)]);
    expect((await explain(['--action', 'a1'])).stderr).toMatch(/--action needs --session/);
    const noAudit = await runWarden(['policy', 'explain', '--action', 'a1', '--session', 's1', '--audit-url', 'http://127.0.0.1:9'], { env: { WARDEN_OPERATOR_TOKEN: 'wdn_not_a_token' } });
    expect([noAudit.code, noAudit.stderr]).toEqual([1, expect.stringMatching(/cannot reach the audit service at http:\/\/127\.0\.0\.1:9 .*set --audit-url or WARDEN_AUDIT_URL/)]);
    expect((await explain(['--tool-call', '-'], '{"tool": "Bash"}')).stderr).toMatch(/stdin: give the tool's input as an object/);
    expect((await explain(['--tool-call', '-'], 'not json')).stderr).toMatch(/stdin is not JSON/);
    expect((await explain(['--phase', 'lunch', '--', 'ls'])).stderr).toMatch(/--phase must be one of/);
    expect((await explain(['--help'])).stdout).toMatch(/^Usage:\n {2}warden policy explain \[options\] \[--\] <command\.\.\.>[\s\S]*--action ID {12}the action's id/);
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'reviewer.yaml'), 'rules:\n  custom: [{ name: x, when: "session.failurs > 1", verdict: warn, reason: x }]\n');
    const refused = await explain(['--policy', broken, '--', 'ls']);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/reviewer\.yaml: .*No such key: failurs/)]);
  });
});
