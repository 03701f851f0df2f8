import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newMessageId, OPERATOR_REJECTION_PROMPT } from '@warden/contracts';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { WardenClient, type ActionDecision, type AgentSession, type ControlMessage } from '@warden/sdk';
import { browser, BusRecorder, eventually, logIn, measureFirstRender, WardenUp, type RecordedMessage } from '@warden/testing';

const AGENT = 'browser-agent';
const SHOTS = join(WORKSPACE_ROOT, 'apps/console/docs');
/** The reviewer asks a person to approve a publish (require_approval). */
const HELD_COMMAND = 'npm publish';

/**
 * The operator console in Debian's Chromium against the suite started by `warden up`, with an agent
 * of the SDK proposing actions: log in, the approvals queue, Approve / Rewrite / Reject making the
 * calls of FR-11.10 and the agent getting what the FRD says, the causal graph of FR-11.11, a viewer who
 * cannot approve, an emergency stop the SDK confirms. Takes the README's screenshots on the way.
 */
describe('operator console in Chromium', () => {
  let up: WardenUp;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let agent: WardenClient;
  let approver: Awaited<ReturnType<typeof browser>>;
  let page: Page;
  let approverPassword: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    up = await WardenUp.start([AGENT]);
    bus = await BusConnection.open(up.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
    agent = await WardenClient.connect({ servers: up.service.servers, agentId: AGENT, password: up.agentPassword(AGENT), decisionTimeoutMs: 120_000 });
    const added = await up.warden(['operator', 'add', 'alice', '--role', 'approver']);
    expect(added.code).toBe(0);
    approverPassword = /console password\s+(\S+)/.exec(added.stdout)![1]!;
    approver = await browser();
    page = await approver.context.newPage();
  }, 240_000);

  afterAll(async () => {
    await approver?.close();
    await agent?.close();
    recorder?.stop();
    await bus?.close();
    await up?.stop();
  }, 90_000);

  const onBus = (type: string, session: string) => recorder.messages.filter((m) => m.body.type === type && m.body.session_id === session);
  const commandsOf = (session: string) => onBus('gate.command', session).map((m) => m.body.payload as { command_type: string; operator_id: string; prompt?: string; resolution?: string; new_content?: string });
  const byId = (id: string) => `[id="${id}"]`;

  /** A session of the agent that proposes `npm publish`, which the reviewer holds for approval. */
  async function heldSession(prefix: string, before: string[] = []): Promise<{ session: AgentSession; decision: Promise<ActionDecision>; controls: ControlMessage[]; paused: RecordedMessage }> {
    const session = agent.session(`${prefix}-${newMessageId().slice(0, 8)}`);
    const controls: ControlMessage[] = [];
    session.onControl((control) => controls.push(control));
    await session.start({ context: { goal: 'Release the parser fix', expected_paths: ['/work/app/**'], cwd: '/work/app' } });
    for (const [i, file] of before.entries()) {
      expect(await session.propose({ tool: 'Read', input: { file_path: `/work/app/${file}` }, actionId: `read-${i + 1}` })).toMatchObject({ allowed: true });
    }
    const decision = session.propose({ tool: 'Bash', input: { command: HELD_COMMAND }, actionId: 'publish' });
    const paused = await recorder.waitFor((m) => m.body.type === 'hitl.paused' && m.body.session_id === session.sessionId, 30_000);
    return { session, decision, controls, paused };
  }

  /** Clicks a button of a card and returns the console's answer: the gate calls it made. */
  async function click(selector: string): Promise<{ status: string; calls: { method: string; path: string; status: number }[] }> {
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().includes('/api/sessions/') && r.request().method() === 'POST'), page.click(selector)]);
    return (await response.json()) as { status: string; calls: { method: string; path: string; status: number }[] };
  }

  it('logs in: the login form, then the live sessions page', async () => {
    const login = await approver.context.newPage();
    await login.goto(up.consoleUrl);
    await login.waitForURL(/\/login\?next=%2F$/);
    await login.fill('#operator-id', 'alice');
    await login.fill('#password', 'not her password at all');
    await Promise.all([login.waitForLoadState(), login.click('button[type="submit"]')]);
    expect(await login.textContent('#login-error')).toBe('Unknown operator or wrong password.');
    await login.screenshot({ path: join(SHOTS, 'login.png') });
    await login.close();
    await logIn(page, up.consoleUrl, 'alice', approverPassword);
    expect(await page.textContent('#operator')).toContain('alice');
    const cookies = await approver.context.cookies();
    expect(cookies.find((c) => c.name === 'warden_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('shows a session paused by a require_approval verdict in the queue within a second, and Approve makes the FRD call', async () => {
    await page.goto(`${up.consoleUrl}/approvals`);
    await page.waitForSelector('#live-state[data-state="live"]');
    const { session, decision, paused } = await heldSession('approve');
    const seenAt = Date.now();
    const card = byId(`approval-${AGENT}.${session.sessionId}`);
    await page.waitForSelector(card, { timeout: 1_000 });
    console.log(`approval card shown ${Date.now() - seenAt} ms after hitl.paused reached the test`);
    expect(paused.body.payload).toMatchObject({ trigger: 'require_approval' });
    expect(await page.textContent(`${card} pre.input`)).toContain(HELD_COMMAND);
    expect(await page.textContent(`${card} .reasons`)).toMatch(/A person must approve it/);
    await page.screenshot({ path: join(SHOTS, 'approvals.png'), fullPage: true });

    const answer = await click(`${card} button[data-action="approve"]`);
    expect(answer).toEqual({ status: 'ok', calls: [{ method: 'POST', path: `/gateway/sessions/${session.sessionId}/unpause`, status: 200, body: { status: 'ok' } }] });
    expect(await decision).toMatchObject({ allowed: true, decidedBy: 'operator' });
    expect(commandsOf(session.sessionId)).toEqual([expect.objectContaining({ command_type: 'hitl_unpause', operator_id: 'alice' })]);
    await page.waitForSelector(card, { state: 'detached' });
  });

  it('Rewrite validates the JSON, calls rewrite then unpause, and the agent runs the rewritten input; the graph is FR-11.11', async () => {
    const { session, decision } = await heldSession('rewrite', ['README.md', 'package.json']);
    await page.goto(`${up.consoleUrl}/sessions/${session.sessionId}?agent=${AGENT}`);
    await page.waitForSelector('#live-state[data-state="live"]');
    const gate = `#session-gate ${byId(`approval-${AGENT}.${session.sessionId}`)}`;
    await page.waitForSelector(gate);
    await page.click(`${gate} details.rewrite summary`);
    const editor = `${gate} details.rewrite textarea`;
    await page.fill(editor, '{"command": "npm publish --dry-run"');
    expect(await page.textContent(`${gate} .invalid`)).toMatch(/^Not valid JSON/);
    expect(await page.isDisabled(`${gate} button[data-action="rewrite"]`)).toBe(true);
    await page.fill(editor, '["npm", "publish"]');
    expect(await page.textContent(`${gate} .invalid`)).toContain('must be a JSON object');
    const rewritten = { command: 'npm publish --dry-run', description: 'See what would be published' };
    await page.fill(editor, JSON.stringify(rewritten));
    expect(await page.textContent(`${gate} .invalid`)).toBe('');

    const answer = await click(`${gate} button[data-action="rewrite"]`);
    expect(answer.calls.map((c) => [c.path, c.status])).toEqual([
      [`/gateway/sessions/${session.sessionId}/rewrite`, 200],
      [`/gateway/sessions/${session.sessionId}/unpause`, 200],
    ]);
    expect(await decision).toMatchObject({ allowed: true, decidedBy: 'operator', updatedInput: rewritten });
    expect(commandsOf(session.sessionId).map((c) => c.command_type)).toEqual(['hitl_rewrite', 'hitl_unpause']);
    expect(JSON.parse(commandsOf(session.sessionId)[0]!.new_content!)).toEqual(rewritten);

    // FR-11.11 positive path: rect(T1) → rect(T2) → diamond(1 command) → rect(T3 rewritten), live on this page.
    const decisions = await recorder.waitForCount(3, 20_000, (m) => m.body.type === 'decision.made' && m.body.session_id === session.sessionId);
    const [t1, t2, t3] = decisions.map((m) => m.body.trace_id as string);
    await page.waitForSelector(`.graph .node.rect.rewritten[data-trace="${t3}"]`);
    const nodes = await page.$$eval('.graph > .node', (elements) =>
      elements.map((e) => ({ shape: e.getAttribute('data-shape'), trace: e.getAttribute('data-trace'), count: e.getAttribute('data-count'), at: e.getAttribute('data-at'), rewritten: e.classList.contains('rewritten') })),
    );
    expect(nodes.map((n) => (n.shape === 'rect' ? `rect(${n.trace === t1 ? 'T1' : n.trace === t2 ? 'T2' : n.trace === t3 ? 'T3' : '?'}${n.rewritten ? ' rewritten' : ''})` : `${n.shape}${n.count ? `(${n.count})` : ''}`))).toEqual([
      'circle',
      'rect(T1)',
      'rect(T2)',
      'diamond(1)',
      'rect(T3 rewritten)',
    ]);
    const records = onBus('hitl.intervention_recorded', session.sessionId).map((m) => m.body.payload as { command_type: string; operator_id: string; occurred_at: string });
    const rewrite = records.find((r) => r.command_type === 'hitl_rewrite')!;
    await page.hover('.graph .node.diamond');
    const tooltip = await page.textContent('.graph .node.diamond .tip');
    expect(tooltip).toContain(`operator_id: alice · command_type: hitl_rewrite · ${rewrite.occurred_at}`);
    expect(await page.isVisible('.graph .node.diamond .tip')).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'session.png'), fullPage: true });

    // FR-11.11 negative path: the diamond sits where the interventions' timestamps put it, although the
    // unpause's record reached the bus after T3's decision (the gate records it once the flush is done).
    const arrival = (predicate: (m: RecordedMessage) => boolean) => recorder.messages.findIndex(predicate);
    const t3Arrived = arrival((m) => m.body.type === 'decision.made' && m.body.trace_id === t3);
    const unpauseArrived = arrival((m) => m.body.type === 'hitl.intervention_recorded' && m.body.session_id === session.sessionId && (m.body.payload as { command_type: string }).command_type === 'hitl_unpause');
    expect(unpauseArrived).toBeGreaterThan(t3Arrived);
    const diamond = nodes.find((n) => n.shape === 'diamond')!;
    expect(diamond.at).toBe(rewrite.occurred_at);
    expect(diamond.at! > nodes[2]!.at! && diamond.at! < nodes[4]!.at!).toBe(true);
  });

  it('Reject injects the rejection prompt, then unpauses: the agent is told first and the action is denied', async () => {
    await page.goto(`${up.consoleUrl}/approvals`);
    await page.waitForSelector('#live-state[data-state="live"]');
    const { session, decision, controls } = await heldSession('reject');
    const card = byId(`approval-${AGENT}.${session.sessionId}`);
    await page.waitForSelector(card);
    const answer = await click(`${card} button[data-action="reject"]`);
    expect(answer.calls.map((c) => [c.path, c.status])).toEqual([
      [`/gateway/sessions/${session.sessionId}/inject`, 200],
      [`/gateway/sessions/${session.sessionId}/unpause`, 200],
    ]);
    expect(commandsOf(session.sessionId)).toEqual([
      expect.objectContaining({ command_type: 'hitl_inject', prompt: OPERATOR_REJECTION_PROMPT, operator_id: 'alice' }),
      expect.objectContaining({ command_type: 'hitl_unpause', resolution: 'reject', operator_id: 'alice' }),
    ]);
    expect(await decision).toMatchObject({ allowed: false, decidedBy: 'operator' });
    await eventually('the rejection prompt at the agent', () => controls.find((c) => c.payload.kind === 'operator_message')?.payload.message);
    expect(controls.find((c) => c.payload.kind === 'operator_message')!.payload.message).toBe(OPERATOR_REJECTION_PROMPT);
    const sent = recorder.messages.filter((m) => m.body.session_id === session.sessionId && (m.body.type === 'control.issued' || m.body.type === 'decision.made'));
    expect(sent.map((m) => m.body.type)).toEqual(['control.issued', 'decision.made']);
  });

  it('does not let a viewer approve: no buttons, 403 from the API, and the session stays paused', async () => {
    const added = await up.warden(['operator', 'add', 'victor', '--role', 'viewer']);
    const password = /console password\s+(\S+)/.exec(added.stdout)![1]!;
    const viewer = await browser();
    try {
      const held = await heldSession('viewer');
      const viewerPage = await viewer.context.newPage();
      await logIn(viewerPage, up.consoleUrl, 'victor', password);
      await viewerPage.goto(`${up.consoleUrl}/approvals`);
      const card = byId(`approval-${AGENT}.${held.session.sessionId}`);
      await viewerPage.waitForSelector(card);
      expect(await viewerPage.$$(`${card} button[data-action]`)).toHaveLength(0);
      expect(await viewerPage.textContent(card)).toContain('Your role can watch this session, not decide on it');
      const refused = await viewerPage.evaluate(async ([session, agentId]) => {
        const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
        const response = await fetch(`/api/sessions/${session}/approve`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ agent_id: agentId }) });
        return { status: response.status, body: await response.json() };
      }, [held.session.sessionId, AGENT] as const);
      expect(refused).toEqual({ status: 403, body: { status: 'error', reason: 'forbidden', detail: 'operator victor is a viewer; this needs approver (decide)' } });
      expect(commandsOf(held.session.sessionId)).toEqual([]);
      expect(await viewerPage.isVisible(card)).toBe(true);
      await viewerPage.goto(`${up.consoleUrl}/`);
      await viewerPage.waitForSelector(`${byId(`row-${AGENT}.${held.session.sessionId}`)}[data-status="paused"]`);
      await viewerPage.screenshot({ path: join(SHOTS, 'sessions.png'), fullPage: true });
      // The approver can, from the queue.
      await page.goto(`${up.consoleUrl}/approvals`);
      await page.waitForSelector(card);
      await click(`${card} button[data-action="approve"]`);
      expect(await held.decision).toMatchObject({ allowed: true, decidedBy: 'operator' });
    } finally {
      await viewer.close();
    }
  });

  it('stops the agent from the console (the SDK confirms), and resumes it', async () => {
    const session = agent.session(`stop-${newMessageId().slice(0, 8)}`);
    const stops: ControlMessage[] = [];
    session.onStop((control) => {
      stops.push(control);
    });
    await session.start({ context: { goal: 'Refactor the parser', expected_paths: ['/work/app/**'], cwd: '/work/app' } });
    expect(await session.propose({ tool: 'Read', input: { file_path: '/work/app/src/parser.ts' } })).toMatchObject({ allowed: true });
    await page.goto(`${up.consoleUrl}/sessions/${session.sessionId}?agent=${AGENT}`);
    await page.waitForSelector('#live-state[data-state="live"]');
    const answer = await click('#session-header button[data-action="stop"]');
    expect(answer.calls.map((c) => [c.path, c.status])).toEqual([[`/gateway/sessions/${session.sessionId}/stop`, 200]]);
    await eventually('the agent stopped', () => session.stopped);
    const ack = await recorder.waitFor((m) => m.body.type === 'control.acknowledged' && m.body.session_id === session.sessionId, 20_000);
    expect(ack.body.payload).toMatchObject({ status: 'stopped' });
    expect(stops[0]!.payload).toMatchObject({ kind: 'emergency_stop', message: expect.stringContaining('Emergency stop by operator alice') });
    expect(await session.propose({ tool: 'Read', input: { file_path: '/work/app/src/lexer.ts' } })).toMatchObject({ allowed: false, decidedBy: 'stopped' });
    await page.waitForSelector('#session-status:text("stopped")');

    const resumed = await click('#session-header button[data-action="resume"]');
    expect(resumed.calls.map((c) => [c.path, c.status])).toEqual([[`/gateway/sessions/${session.sessionId}/unpause`, 200]]);
    await eventually('the agent resumed', () => !session.stopped);
    expect(await session.propose({ tool: 'Read', input: { file_path: '/work/app/src/lexer.ts' } })).toMatchObject({ allowed: true });
  });

  it('shows the sessions and agents pages, and lets an admin pin a level', async () => {
    await page.goto(`${up.consoleUrl}/`);
    await page.waitForSelector('#live-state[data-state="live"]');
    expect(await page.$$('#session-rows > [role=row]')).not.toHaveLength(0);
    await page.selectOption('#status-filter', 'ended');
    expect(await page.$$eval('#session-rows > [role=row]:not([hidden])', (rows) => rows.length)).toBe(0);
    await page.selectOption('#status-filter', '');
    await page.fill('#session-search', 'rewrite-');
    const visible = await page.$$eval('#session-rows > [role=row]:not([hidden])', (rows) => rows.map((r) => r.getAttribute('data-key')));
    expect(visible.length).toBe(1);
    expect(visible[0]).toMatch(new RegExp(`^${AGENT}\\.rewrite-`));
    await page.fill('#session-search', '');

    const admin = await browser();
    try {
      const adminPage = await admin.context.newPage();
      await logIn(adminPage, up.consoleUrl, 'admin', up.adminPassword);
      await adminPage.goto(`${up.consoleUrl}/agents`);
      const row = byId(`agent-${AGENT}`);
      await adminPage.waitForSelector(row);
      await adminPage.selectOption(`${row} select`, '2');
      const [response] = await Promise.all([adminPage.waitForResponse((r) => r.url().endsWith(`/api/agents/${AGENT}/level`)), adminPage.click(`${row} button[data-command="pin"]`)]);
      expect(await response.json()).toMatchObject({ status: 'ok' });
      await adminPage.waitForSelector(`${row}[data-level="2"]`, { timeout: 20_000 });
      expect(await adminPage.textContent(`${row}`)).toContain('pinned by admin');
      await adminPage.screenshot({ path: join(SHOTS, 'agents.png'), fullPage: true });
    } finally {
      await admin.close();
    }
  });

  // How fast it renders is measured by the benchmark (`--console-only`); here, that it renders them all.
  it('renders the sessions page with 1,000 live sessions, each a row', async () => {
    const before = await up.sessionsFollowed();
    const sessions = Array.from({ length: 1000 }, (_, i) => agent.session(`load-${String(i).padStart(4, '0')}-${newMessageId().slice(0, 6)}`));
    for (let i = 0; i < sessions.length; i += 50) {
      await Promise.all(
        sessions.slice(i, i + 50).map(async (session, j) => {
          await session.start({ context: { goal: `Load session ${i + j}`, expected_paths: ['/work/app/**'], cwd: '/work/app' } });
          await session.propose({ tool: 'Read', input: { file_path: `/work/app/src/file-${i + j}.ts` } });
        }),
      );
    }
    await eventually('the console following every session', () => up.sessionsFollowed(), (n) => n >= before + 1000, { timeoutMs: 60_000 });
    const timing = await measureFirstRender(approver.context, up.consoleUrl);
    console.log(`sessions page with ${timing.rows} sessions: ${JSON.stringify(timing)}`);
    expect(timing.rows).toBeGreaterThanOrEqual(1000);
  });
});
