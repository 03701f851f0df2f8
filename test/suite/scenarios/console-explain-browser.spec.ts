import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newMessageId } from '@warden/contracts';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { WardenClient, type AgentSession } from '@warden/sdk';
import { browser, BusRecorder, eventually, logIn, WardenUp } from '@warden/testing';

const AGENT = 'why-agent';
const SHOTS = join(WORKSPACE_ROOT, 'apps/console/docs');
/** The deployment's example policy: its CEL rule infra_writes_after_failures asks a person after three failed commands. */
const POLICY = join(WORKSPACE_ROOT, 'deploy/reviewer/reviewer.yaml');
const INFRA_WRITE = { file_path: '/work/app/infra/main.tf', content: 'resource "null_resource" "x" {}\n' };

/**
 * "Why this verdict" in Debian's Chromium against the suite started by `warden up` with the deployment's
 * policy: an SDK agent fails three commands, then writes infrastructure code, which the policy's CEL rule
 * holds for approval; the action's page shows the reviewer's explanation, and `warden policy explain
 * --action` reads the same action from the audit and explains it alike.
 */
describe('"Why this verdict" in the console, in Chromium', () => {
  let up: WardenUp;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let agent: WardenClient;
  let operator: Awaited<ReturnType<typeof browser>>;
  let page: Page;
  let session: AgentSession;
  let dir: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'warden-why-'));
    up = await WardenUp.start([AGENT], { REVIEWER_CONFIG: POLICY });
    bus = await BusConnection.open(up.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
    agent = await WardenClient.connect({ servers: up.service.servers, agentId: AGENT, password: up.agentPassword(AGENT), decisionTimeoutMs: 120_000 });
    operator = await browser();
    page = await operator.context.newPage();
    await logIn(page, up.consoleUrl, 'admin', up.adminPassword);

    session = agent.session(`why-${newMessageId().slice(0, 8)}`);
    await session.start({ context: { goal: 'Make the nightly build pass', expected_paths: ['/work/app/**'], cwd: '/work/app' } });
    for (const i of [1, 2, 3]) {
      expect(await session.propose({ tool: 'Bash', input: { command: `false # step ${i}` }, actionId: `fail-${i}` })).toMatchObject({ allowed: true });
      await session.report({ actionId: `fail-${i}`, status: 'error', error: { message: 'exit code 1' } });
      // The reviewer counts a failure when the outcome arrives: the next proposal waits for it.
      await recorder.waitFor((m) => m.body.type === 'action.outcome' && m.body.session_id === session.sessionId && (m.body.payload as { action_id: string }).action_id === `fail-${i}`, 20_000);
    }
    // Held for approval by the CEL rule: the decision waits for a person, and is not awaited here.
    void session.propose({ tool: 'Write', input: INFRA_WRITE, actionId: 'infra-1' }).catch(() => undefined);
    const verdict = await recorder.waitFor((m) => m.body.type === 'review.verdict' && m.body.session_id === session.sessionId && (m.body.payload as { action_id: string }).action_id === 'infra-1', 30_000);
    expect(verdict.body.payload).toMatchObject({ verdict: 'require_approval', rule_hits: expect.arrayContaining(['infra_writes_after_failures']) });
  }, 300_000);

  afterAll(async () => {
    await operator?.close();
    await agent?.close();
    recorder?.stop();
    await bus?.close();
    await up?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 90_000);

  it("opens from the held action's approval card and shows the reviewer's explanation: the CEL rule, its parts and their values, and how the engine decided", async () => {
    await page.goto(`${up.consoleUrl}/approvals`);
    const card = `[id="approval-${AGENT}.${session.sessionId}"]`;
    await page.waitForSelector(`${card} section.held[data-action-id="infra-1"]`);
    await Promise.all([page.waitForURL(/\/actions\/infra-1\?agent=/), page.click(`${card} section.held[data-action-id="infra-1"] a.why`)]);

    expect(await page.textContent('#recorded-verdict')).toMatch(/require_approval.*decided by rule; rules [^\n]*infra_writes_after_failures/s);
    const explained = page.locator('#explained-verdict');
    expect(await explained.getAttribute('data-verdict')).toBe('require_approval');
    expect(await explained.getAttribute('data-decided-by')).toBe('rule infra_writes_after_failures');
    expect(await explained.textContent()).toContain('The same verdict as recorded.');
    expect(await page.textContent('#why-verdict')).toContain('Session as replayed: goal "Make the nightly build pass" · 3 action(s) before it, 3 failed.');
    expect(await page.textContent('#why-verdict .why')).toMatch(/Rule infra_writes_after_failures decides: require_approval is the strongest verdict weighed/);

    const rule = '#explain-matched li[data-rule="infra_writes_after_failures"]';
    // Each condition's own line, without the parts listed under it.
    const conditions = await page.$$eval(`${rule} .conditions li`, (items) => items.map((li) => [...li.childNodes].filter((n) => n.nodeName !== 'UL').map((n) => n.textContent).join('').trim()));
    expect(conditions).toEqual([
      expect.stringMatching(/^when: session\.failures >= 3 && action\.written\.exists\(p, glob\(p, "\*\*\/infra\/\*\*"\)\) → true/),
      expect.stringMatching(/^session\.failures >= 3 → true/),
      'session.failures = 3',
      expect.stringMatching(/^action\.written\.exists\(p, glob\(p, "\*\*\/infra\/\*\*"\)\) → true/),
      'action.written = ["/work/app/infra/main.tf"]',
    ]);
    // Every rule the reviewer evaluated is there: the policy's other rules, and the built-in ones by name.
    expect(await page.getAttribute('#explain-custom li[data-rule="no_edits_to_generated_code"]', 'data-result')).toBe('not_matched');
    expect(await page.getAttribute('#explain-custom li[data-rule="kubectl_delete_in_production"]', 'data-result')).toBe('not_needed');
    expect(await page.locator('.built-in .names [data-rule]').count()).toBeGreaterThan(50);
    await page.screenshot({ path: join(SHOTS, 'why-verdict.png'), fullPage: true });
  });

  it('is linked from every decision of the session\'s causal graph; an action the console never saw is a 404 page', async () => {
    await page.goto(`${up.consoleUrl}/sessions/${session.sessionId}?agent=${AGENT}`);
    await page.waitForSelector('.graph .node.rect[data-action-id="fail-1"] a.why');
    await Promise.all([page.waitForURL(/\/actions\/fail-1\?agent=/), page.click('.graph .node.rect[data-action-id="fail-1"] a.why')]);
    const recorded = (await page.textContent('#recorded-verdict .verdict'))!.trim();
    expect(await page.getAttribute('#explained-verdict', 'data-verdict')).toBe(recorded);
    expect(await page.textContent('#explained-verdict')).toContain('The same verdict as recorded.');
    expect(await page.textContent('#why-verdict')).toContain('Session as replayed: goal "Make the nightly build pass" · 0 action(s) before it, 0 failed.');
    const missing = await page.goto(`${up.consoleUrl}/sessions/${session.sessionId}/actions/never-seen?agent=${AGENT}`);
    expect(missing!.status()).toBe(404);
    expect(await page.textContent('main')).toContain('The console has seen no action never-seen');
  });

  it('warden policy explain --action reads the same action from the audit and explains it alike', async () => {
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, up.adminToken, { mode: 0o600 });
    const args = ['policy', 'explain', '--action', 'infra-1', '--session', session.sessionId, '--policy', 'deploy/reviewer', '--audit-url', up.urls.audit_url!, '--token-file', tokenFile, '--json'];
    const run = await eventually('the action in the audit with its verdict', () => up.warden(args), (r) => r.code === 0 && (JSON.parse(r.stdout) as { recorded?: unknown }).recorded !== undefined, { timeoutMs: 30_000 });
    const explanation = JSON.parse(run.stdout) as { verdict: string; decided_by_name: string; session: { failures: number; actions: number }; recorded: { verdict: string; rule_hits: string[] } };
    expect(explanation).toMatchObject({ verdict: 'require_approval', decided_by_name: 'infra_writes_after_failures', session: { failures: 3, actions: 3 }, recorded: { verdict: 'require_approval' } });
    expect(explanation.recorded.rule_hits).toContain('infra_writes_after_failures');
  });
});
