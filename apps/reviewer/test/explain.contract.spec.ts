import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeServiceContract, eventually, operatorToken } from '@warden/testing';
import { ReviewerAppModule } from '../src/app.module.js';
import { loadReviewerConfig, REVIEWER_JSON_BODY_LIMIT } from '../src/config.js';

const configDir = mkdtempSync(join(tmpdir(), 'warden-reviewer-explain-'));
const configPath = join(configDir, 'reviewer.yaml');
const rulesPath = join(configDir, 'rules.yaml');
const rule = (failures: number) => `- name: infra_after_failures
  when: session.failures >= ${failures} && action.written.exists(p, glob(p, "**/infra/**"))
  verdict: require_approval
  reason: Infrastructure changes after failures need a person.
`;
writeFileSync(rulesPath, rule(3));
writeFileSync(configPath, 'step_reviewer:\n  rules:\n    custom_rules_path: rules.yaml\n');

const minute = (n: number) => new Date(Date.UTC(2026, 10, 1, 12, n)).toISOString();
const WRITE = { action_id: 'w1', kind: 'tool_use', tool: 'Write', input: { file_path: '/work/app/infra/main.tf', content: 'resource "x" "y" {}\n' } };

/** The session's messages: its declaration, then `n` commands that failed. */
function history(n: number): { type: string; at: string; payload: Record<string, unknown> }[] {
  const started = { type: 'session.started', at: minute(0), payload: { context: { goal: 'Fix the build', cwd: '/work/app', expected_paths: ['/work/app/**'] } } };
  const failures = Array.from({ length: n }, (_, i) => [
    { type: 'action.proposed', at: minute(i + 1), payload: { action_id: `f${i}`, kind: 'tool_use', tool: 'Bash', input: { command: `npm run step-${i}` } } },
    { type: 'action.outcome', at: minute(i + 1), payload: { action_id: `f${i}`, status: 'error', error: { message: 'exit code 1' } } },
  ]).flat();
  return [started, ...failures];
}

describeServiceContract(
  {
    service: 'reviewer',
    createModule: (env, logger) => ReviewerAppModule.forRoot(loadReviewerConfig(env), logger),
    prepare: async () => ({
      env: { REVIEWER_CONFIG: configPath, REVIEWER_CONFIG_RELOAD_MS: '100' },
      cleanup: async () => rmSync(configDir, { recursive: true, force: true }),
    }),
    jsonBodyLimit: REVIEWER_JSON_BODY_LIMIT,
    operatorBodies: true,
  },
  (harness) => {
    let token = '';
    beforeAll(async () => {
      token = await operatorToken(harness.bus.nc, 'explain-viewer', 'viewer');
    });

    async function explain(body: unknown, bearer: string | null = token): Promise<{ status: number; body: Record<string, any> }> {
      const response = await fetch(`${harness.service.url}/review/explain`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    }
    const request = (failures: number, action: Record<string, unknown> = WRITE) => ({ agent_id: 'agent-1', session_id: 'sess-explain', action, at: minute(30), history: history(failures) });

    it('explains an action in its session with the policy the reviewer runs: the CEL rule fires after the third failure', async () => {
      const two = await explain(request(2));
      expect(two.status).toBe(200);
      expect(two.body.session).toMatchObject({ goal: 'Fix the build', actions: 2, failures: 2 });
      const quiet = (two.body.rules as { rule: string; result: string; conditions: { parts: unknown[] }[] }[]).find((r) => r.rule === 'infra_after_failures')!;
      expect(quiet.result).toBe('not_matched');
      expect(quiet.conditions[0]!.parts[0]).toEqual({ condition: 'session.failures >= 3', value: false, parts: [{ condition: 'session.failures', value: 2 }] });

      const three = await explain(request(3));
      expect(three.body).toMatchObject({ verdict: 'require_approval', decided_by: 'rule', decided_by_name: 'infra_after_failures' });
      expect(three.body.why.at(-1)).toMatch(/^Rule infra_after_failures decides: require_approval is the strongest verdict weighed/);
    });

    it('explains with the policy as reloaded, as the reviewer then reviews', async () => {
      writeFileSync(rulesPath, rule(2));
      await eventually('the reloaded policy to explain', () => explain(request(2)), (answer) => answer.body.decided_by_name === 'infra_after_failures', { timeoutMs: 10_000 });
    });

    it('reads an action with a large input (a whole file written)', async () => {
      const big = { ...WRITE, input: { file_path: '/work/app/src/data.json', content: 'x'.repeat(1_000_000) } };
      const answer = await explain(request(0, big));
      expect(answer.status).toBe(200);
      expect(answer.body.action.input.file_path).toBe('/work/app/src/data.json');
    });

    it('refuses a request without a token (401) and one the contracts refuse (400, with the place)', async () => {
      const anonymous = await explain(request(1), null);
      expect([anonymous.status, anonymous.body.reason]).toEqual([401, 'missing_credentials']);
      const broken = request(1);
      broken.history[2]!.payload = { action_id: 'f0', status: 'maybe' };
      const refused = await explain(broken);
      expect(refused.status).toBe(400);
      expect(refused.body.reason).toMatch(/^invalid_request: \/history\/2\/payload \(action\.outcome\) \/status: /);
      expect((await explain({ agent_id: 'agent-1' })).status).toBe(400);
    });

    it('checks the credentials before it reads a body, and refuses a body nested too deep unparsed', async () => {
      // Larger than the body limit: without a token it is refused for the token (401), not read (413).
      const huge = { ...request(0), action: { ...WRITE, input: { file_path: '/work/app/a.txt', content: 'x'.repeat(5_000_000) } } };
      const anonymous = await explain(huge, null);
      expect([anonymous.status, anonymous.body.reason]).toEqual([401, 'missing_credentials']);
      expect((await explain(huge)).status).toBe(413);
      const deep = await fetch(`${harness.service.url}/review/explain`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      });
      expect(deep.status).toBe(400);
      expect(((await deep.json()) as { reason: string }).reason).toBe('body_too_deep');
    });
  },
);
