import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createMessage, EXAMPLE_PAYLOADS, newMessageId, publishSubject, type PayloadOf } from '@warden/contracts';
import { ServiceProcess, WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { OperatorStore } from '@warden/operator-auth';
import { browser, BusRecorder, operatorHeaders, operatorToken, PHONE, TestNatsServer } from '@warden/testing';
import { FAST_LEASES, PARTITIONS } from './path-fixture.js';

const encoder = new TextEncoder();
const PASSWORD = 'alice has a long phone password';
/** A long command: on a phone it must wrap, never scroll sideways. */
const COMMAND = 'rails db:migrate VERSION=20261129031500 RAILS_ENV=production DISABLE_DATABASE_ENVIRONMENT_CHECK=1 && ./bin/notify-release --channel=ops';
const SHOTS = join(WORKSPACE_ROOT, 'apps/console/docs');

/**
 * The console's approval page of one gate request on a phone (Chromium, 390×844): reached from the
 * link a Slack message or webhook carries, through the login; it shows exactly what is approved (tool,
 * input, why), with big buttons bound to the request's digest; a tap on Approve lets the action run.
 */
describe('the approval page on a phone', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let gate: ServiceProcess;
  let consoleApp: ServiceProcess;
  let phone: Awaited<ReturnType<typeof browser>>;
  let page: Page;
  let dir: string;
  let token: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'approval-page-'));
    writeFileSync(
      join(dir, 'gates.yaml'),
      ['gates:', '  - id: migrations', '    prompt: Migrations need a DBA.', "    summary: 'Migration requested: {action.input.command}'", '    when: { path: action.input.command, matches: migrate }', '    timeout_ms: 600000'].join('\n'),
    );
    nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
    await new OperatorStore(bus.nc).add('alice', 'approver', { password: PASSWORD, createdBy: 'test' });
    token = await operatorToken(bus.nc, 'operator-api', 'approver');
    gate = await ServiceProcess.start({ app: 'gate', nats: nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, GATE_CONFIG: join(dir, 'gates.yaml') } });
    consoleApp = await ServiceProcess.start({ app: 'console', nats: nats.service, partitions: PARTITIONS, env: { CONSOLE_GATE_URL: gate.url, CONSOLE_LIVE_INTERVAL_MS: '50' } });
    phone = await browser(PHONE);
    page = await phone.context.newPage();
  }, 120_000);

  afterAll(async () => {
    await phone?.close();
    await consoleApp?.stop();
    await gate?.stop();
    recorder?.stop();
    await bus?.close();
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  async function held(session: string, command: string): Promise<{ actionId: string; traceId: string; requestId: string }> {
    const actionId = `act-${newMessageId().slice(0, 8)}`;
    const verdict = createMessage('review.verdict', {
      session_id: session,
      agent_id: 'agent-1',
      payload: {
        ...EXAMPLE_PAYLOADS['review.verdict'],
        action_id: actionId,
        verdict: 'allow',
        reasons: ['Command with medium risk'],
        risk: { score: 0.4, severity: 'medium', factors: ['command'] },
        side_effects: undefined,
        rule_hits: [],
        action: { kind: 'tool_use', tool: 'Bash', input: { command } },
      } as PayloadOf<'review.verdict'>,
    });
    await bus.js.publish(publishSubject('verdict', 'agent-1', session), encoder.encode(JSON.stringify(verdict)), { msgID: verdict.id });
    const requested = await recorder.waitFor((m) => m.body.type === 'gate.requested' && m.body.session_id === session, 20_000);
    return { actionId, traceId: verdict.trace_id, requestId: (requested.body.payload as { request_id: string }).request_id };
  }

  const decisionOf = async (session: string, actionId: string) =>
    (await recorder.waitFor((m) => m.body.type === 'decision.made' && m.body.session_id === session && (m.body.payload as { action_id: string }).action_id === actionId, 20_000)).body
      .payload as Record<string, unknown>;

  const gateRequest = async (requestId: string) => (await (await fetch(`${gate.url}/gateway/requests/${requestId}`, { headers: operatorHeaders(token, 'operator-api') })).json()) as Record<string, any>;

  /** Nothing on the page is wider than the phone: no sideways scrolling. */
  const widths = () => page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth, input: document.getElementById('approval-input')!.scrollWidth, inputBox: document.getElementById('approval-input')!.clientWidth }));

  it('from the link, through the login: shows exactly what is approved, fits the screen, and a tap on Approve lets the action run', async () => {
    const session = `phone-${newMessageId().slice(0, 8)}`;
    const { actionId, requestId } = await held(session, COMMAND);
    const request = await gateRequest(requestId);
    const link = `${consoleApp.url}/approvals/${requestId}`;

    // The link of a Slack message: the login first, then the page it named.
    await page.goto(link);
    await page.waitForURL(/\/login\?next=/);
    await page.fill('#operator-id', 'alice');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(link), page.click('button[type="submit"]')]);
    await page.waitForSelector('#approval-request[data-status="pending"]');

    expect(await page.textContent('#approval-tool')).toBe('Bash');
    expect(await page.textContent('#approval-input')).toBe(JSON.stringify({ command: COMMAND }, null, 2));
    expect(await page.textContent('#approval-reason')).toBe(`Migration requested: ${COMMAND}`);
    expect(await page.textContent('#approval-agent')).toBe('agent-1');
    expect(await page.textContent('#approval-session')).toBe(session);
    expect(await page.getAttribute('#approval-digest', 'title')).toBe(request.digest);
    expect(await page.getAttribute('button[data-action="answer"][data-approved="true"]', 'data-digest')).toBe(request.digest);

    const seen = await widths();
    expect(seen.screen).toBe(390);
    expect(seen.page).toBeLessThanOrEqual(seen.screen);
    expect(seen.input).toBeLessThanOrEqual(seen.inputBox);
    // Big buttons: each at least 48 CSS pixels high and a third of the screen wide, fully on screen.
    for (const selector of ['button.approve.big', 'button.reject.big']) {
      const box = (await page.locator(selector).boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(48);
      expect(box.width).toBeGreaterThanOrEqual(390 / 3);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.screenshot({ path: join(SHOTS, 'approval-phone.png'), fullPage: true });

    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/requests/${requestId}/respond`)), page.tap('button.approve.big')]);
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'ok', calls: [{ method: 'POST', path: `/gateway/requests/${requestId}/respond`, status: 200 }] });
    await page.waitForSelector('#approval-request .result:text("Approved: the action runs.")');
    expect(await decisionOf(session, actionId)).toMatchObject({ decision: 'allow', operator_id: 'alice' });
    expect(await gateRequest(requestId)).toMatchObject({ status: 'approved', approver: 'alice', channel: 'console', answered_digest: request.digest });

    // Opened again, the page says how it was answered and offers no buttons.
    await page.reload();
    expect(await page.textContent('#approval-answered')).toBe('Approved by alice via console');
    expect(await page.locator('button[data-action="answer"]').count()).toBe(0);
  });

  it('approves only what it showed: after the action is rewritten, a tap on the old page is refused and nothing runs; the reloaded page approves the new input', async () => {
    const session = `phone-${newMessageId().slice(0, 8)}`;
    const { actionId, traceId, requestId } = await held(session, 'rails db:migrate');
    await page.goto(`${consoleApp.url}/approvals/${requestId}`);
    await page.waitForSelector('#approval-request[data-status="pending"]');
    const shown = await page.getAttribute('button.approve.big', 'data-digest');

    const rewrite = await fetch(`${gate.url}/gateway/sessions/${session}/rewrite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...operatorHeaders(token, 'operator-api') },
      body: JSON.stringify({ agent_id: 'agent-1', timestamp: new Date().toISOString(), original_trace_id: traceId, new_content: JSON.stringify({ command: 'rails db:migrate:status' }) }),
    });
    expect(rewrite.status).toBe(200);
    expect((await gateRequest(requestId)).digest).not.toBe(shown);

    const [stale] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/requests/${requestId}/respond`)), page.tap('button.approve.big')]);
    expect(stale.status()).toBe(409);
    await page.waitForSelector('#approval-request .result.failed:text("The action changed since this page was loaded")');
    expect(await gateRequest(requestId)).toMatchObject({ status: 'pending' });
    expect(recorder.messages.some((m) => m.body.type === 'decision.made' && m.body.session_id === session)).toBe(false);

    await page.reload();
    expect(await page.textContent('#approval-input')).toBe(JSON.stringify({ command: 'rails db:migrate:status' }, null, 2));
    await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/requests/${requestId}/respond`) && r.status() === 200), page.tap('button.approve.big')]);
    // The decision carries the rewritten input (and names the operator who rewrote it); the request, who approved it.
    expect(await decisionOf(session, actionId)).toMatchObject({ decision: 'allow', updated_input: { command: 'rails db:migrate:status' } });
    expect(await gateRequest(requestId)).toMatchObject({ status: 'approved', approver: 'alice', channel: 'console' });
  });
});
