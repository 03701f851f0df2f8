import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newMessageId } from '@warden/contracts';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { browser, BusRecorder, eventually, logIn, WardenUp } from '@warden/testing';

const CLAUDE = 'claude-code';
const CODEX = 'codex';
const SHOTS = join(WORKSPACE_ROOT, 'apps/console/docs');
const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');
const BUDGET_TEXT =
  "Further changes are held until an operator raises the budget or resets the cost breaker (Reset cost breaker on the session's page in the console, or `warden breaker reset <agent> <session> --breaker cost`).";

type Attribute = { key: string; value: Record<string, unknown> };
const str = (key: string, value: string): Attribute => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): Attribute => ({ key, value: { intValue: String(value) } });
const dbl = (key: string, value: number): Attribute => ({ key, value: { doubleValue: value } });
const nanos = (ms: number) => `${ms}000000`;

/**
 * Claude Code's telemetry, exactly as its monitoring page documents it
 * (https://code.claude.com/docs/en/monitoring-usage; Warden's notes: research/agents/claude-code.md §6):
 * the `claude_code.api_request` event (a log record whose body names the event, with `event.name`
 * `api_request`, `event.timestamp`, `event.sequence`, `session.id`, `prompt.id`, `model`, `cost_usd`,
 * `input_tokens`, `output_tokens`, `cache_read_tokens`, `cache_creation_tokens`, `request_id`) in the
 * `com.anthropic.claude_code.events` scope of the `claude-code` service.
 */
function claudeApiRequests(sessionId: string, requests: { id: string; cost: number; input: number; output: number; cacheRead: number }[]) {
  const now = Date.now();
  return {
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', 'claude-code'), str('service.version', '2.1.300')] },
        scopeLogs: [
          {
            scope: { name: 'com.anthropic.claude_code.events', version: '2.1.300' },
            logRecords: requests.map((r, i) => ({
              timeUnixNano: nanos(now + i),
              body: { stringValue: 'claude_code.api_request' },
              attributes: [
                str('event.name', 'api_request'),
                str('event.timestamp', new Date(now + i).toISOString()),
                int('event.sequence', i + 1),
                str('session.id', sessionId),
                str('prompt.id', '550e8400-e29b-41d4-a716-446655440000'),
                str('terminal.type', 'tmux'),
                str('model', 'claude-opus-4-8'),
                dbl('cost_usd', r.cost),
                int('cost_usd_micros', Math.round(r.cost * 1e6)),
                int('duration_ms', 2310),
                int('input_tokens', r.input),
                int('output_tokens', r.output),
                int('cache_read_tokens', r.cacheRead),
                int('cache_creation_tokens', 0),
                str('request_id', r.id),
                str('speed', 'normal'),
                str('query_source', 'repl_main_thread'),
                str('effort', 'high'),
              ],
            })),
          },
        ],
      },
    ],
  };
}

/**
 * Claude Code's metrics as the same page documents them: `claude_code.cost.usage` (USD) and
 * `claude_code.token.usage` (tokens, attribute `type`: input, output, cacheRead, cacheCreation), sums of
 * the `com.anthropic.claude_code` meter with `session.id`, `model` and `query_source`, in Claude Code's
 * default delta temporality (aggregationTemporality 1).
 */
function claudeUsageMetrics(sessionId: string, cost: number, tokens: { input: number; output: number; cacheRead: number }) {
  const end = Date.now();
  const point = (value: Record<string, unknown>, extra: Attribute[] = []) => ({
    ...value,
    startTimeUnixNano: nanos(end - 60_000),
    timeUnixNano: nanos(end),
    attributes: [str('session.id', sessionId), str('model', 'claude-opus-4-8'), str('query_source', 'main'), ...extra],
  });
  return {
    resourceMetrics: [
      {
        resource: { attributes: [str('service.name', 'claude-code')] },
        scopeMetrics: [
          {
            scope: { name: 'com.anthropic.claude_code' },
            metrics: [
              { name: 'claude_code.cost.usage', unit: 'USD', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [point({ asDouble: cost })] } },
              {
                name: 'claude_code.token.usage',
                unit: 'tokens',
                sum: {
                  aggregationTemporality: 1,
                  isMonotonic: true,
                  dataPoints: [point({ asInt: String(tokens.input) }, [str('type', 'input')]), point({ asInt: String(tokens.output) }, [str('type', 'output')]), point({ asInt: String(tokens.cacheRead) }, [str('type', 'cacheRead')])],
                },
              },
              // Not usage: left alone.
              { name: 'claude_code.session.count', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [point({ asInt: '1' })] } },
            ],
          },
        ],
      },
    ],
  };
}

/**
 * Codex's telemetry as openai/codex docs/config.md ("Observability and telemetry") documents it, in the
 * OTLP/JSON shape of its logs exporter (Warden's notes: research/agents/codex.md §6): `codex.sse_event`
 * log records of the `codex_otel` scope with `event.kind` `response.completed` and the response's
 * `input_token_count`, `output_token_count`, `cached_token_count`, `reasoning_token_count`,
 * `tool_token_count` (values as strings, as Codex sends them), `conversation.id` and `model`.
 */
function codexResponses(conversationId: string, responses: { input: number; cached: number; output: number }[]) {
  const now = Date.now();
  return {
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', 'codex_cli_rs'), str('service.version', '0.170.0'), str('env', 'dev')] },
        scopeLogs: [
          {
            scope: { name: 'codex_otel' },
            logRecords: responses.map((r, i) => ({
              timeUnixNano: nanos(now + i),
              observedTimeUnixNano: nanos(now + i),
              severityNumber: 9,
              severityText: 'INFO',
              body: { stringValue: 'codex.sse_event' },
              attributes: [
                str('event.name', 'codex.sse_event'),
                str('event.timestamp', new Date(now + i).toISOString()),
                str('conversation.id', conversationId),
                str('app.version', '0.170.0'),
                str('auth_mode', 'ApiKey'),
                str('model', 'gpt-5.5'),
                str('slug', 'gpt-5.5'),
                str('event.kind', 'response.completed'),
                str('duration_ms', '2310'),
                str('input_token_count', String(r.input)),
                str('output_token_count', String(r.output)),
                str('cached_token_count', String(r.cached)),
                str('reasoning_token_count', '256'),
                str('tool_token_count', '0'),
              ],
            })),
          },
        ],
      },
    ],
  };
}

/**
 * Budgets on live agents, through the suite `warden up` starts: Claude Code's and Codex's own telemetry
 * (OTLP/HTTP to the gateway) raise a session's spend, the breaker holds the session's next change with the
 * figures once its run budget is spent, and the console shows the spend (Chromium). An action that ran
 * although Warden denied it is an incident: audited, shown, and the session stopped; one Warden never saw
 * proposed is an incident too.
 */
describe('budgets on live agents, from their own telemetry', () => {
  let up: WardenUp;
  let gateway: string;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let operator: Awaited<ReturnType<typeof browser>>;
  let page: Page;

  beforeAll(async () => {
    mkdirSafe();
    up = await WardenUp.start([CLAUDE, CODEX]);
    gateway = up.urls.gateway_url!;
    bus = await BusConnection.open(up.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
    operator = await browser();
    page = await operator.context.newPage();
    await logIn(page, up.consoleUrl, 'admin', up.adminPassword);
  }, 300_000);

  afterAll(async () => {
    await operator?.close();
    recorder?.stop();
    await bus?.close();
    await up?.stop();
  }, 120_000);

  const token = (agent: string) => `Bearer ${agent}.${up.agentPassword(agent)}`;
  let counter = 0;
  const callId = (prefix: string) => `${prefix}_${++counter}_${newMessageId().slice(0, 6)}`;

  async function hook(agent: string, payload: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    const response = await fetch(`${gateway}/hooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token(agent) }, body: JSON.stringify(payload) });
    expect(response.status).toBe(200);
    const text = await response.text();
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  }

  async function exportTelemetry(agent: string, path: '/v1/logs' | '/v1/metrics', body: unknown): Promise<void> {
    const response = await fetch(`${gateway}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token(agent) }, body: JSON.stringify(body) });
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 200, body: '{}' });
  }

  /** A Claude Code hook payload (code.claude.com/docs/en/hooks), as its HTTP hooks post it. */
  const claude = (session: string, event: 'PreToolUse' | 'PostToolUse', id: string, tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    session_id: session,
    prompt_id: '550e8400-e29b-41d4-a716-446655440000',
    transcript_path: `/home/dev/.claude/projects/-work-app/${session}.jsonl`,
    cwd: '/work/app',
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
    ...extra,
  });

  /** A Codex hook payload (codex-rs/hooks/schema/generated), as its command shim posts it. */
  const codex = (session: string, id: string, command: string) => ({
    session_id: session,
    turn_id: '3',
    transcript_path: `/home/dev/.codex/sessions/2026/11/28/rollout-${session}.jsonl`,
    cwd: '/work/app',
    model: 'gpt-5.5',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: id,
  });

  const costs = (session: string, source: string) => recorder.messages.filter((m) => m.body.type === 'breaker.cost_recorded' && m.body.session_id === session && (m.body.payload as { source?: string }).source === source);

  /** Proposes a change until the session's open cost breaker reaches the reviewer; returns Warden's reason. */
  async function deniedChange(agent: string, propose: () => Promise<Record<string, unknown> | null>): Promise<string> {
    return eventually(`${agent}'s next change to be denied`, async () => {
      const answer = (await propose()) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } } | null;
      return answer?.hookSpecificOutput?.permissionDecision === 'deny' ? answer.hookSpecificOutput.permissionDecisionReason! : null;
    }, { timeoutMs: 30_000, intervalMs: 200 });
  }

  async function sessionPage(agent: string, session: string): Promise<void> {
    await page.goto(`${up.consoleUrl}/sessions/${session}?agent=${agent}`);
    await page.waitForSelector('#live-state[data-state="live"]');
  }

  it("Claude Code: its OTLP metrics and events raise the session's spend, the next change past the budget is denied with the figures, the console shows the spend", async () => {
    const session = `cc-spend-${newMessageId().slice(0, 8)}`;
    expect(await hook(CLAUDE, claude(session, 'PreToolUse', callId('toolu_read'), 'Read', { file_path: '/work/app/src/date.ts' }))).toBeNull();
    await sessionPage(CLAUDE, session);
    expect(await page.textContent('#session-spend')).toMatch(/^No spend data at all/);

    // Metrics first (a minute's sums): $20.00.
    await exportTelemetry(CLAUDE, '/v1/metrics', claudeUsageMetrics(session, 20, { input: 12_000, output: 3_000, cacheRead: 400_000 }));
    await recorder.waitFor((m) => costs(session, 'telemetry_metric').includes(m), 20_000);
    // Polled from here: the console's CSP refuses the eval that waitForFunction needs.
    await eventually('the console to show $20.00', async () => ((await page.textContent('#session-spend')) === '$20.00' ? true : null), { timeoutMs: 10_000, intervalMs: 100 });

    // Then its events, one per request with the cost Claude Code computed: they take over, $35.00 more.
    await exportTelemetry(CLAUDE, '/v1/logs', claudeApiRequests(session, [
      { id: 'req_011CV1', cost: 20, input: 1834, output: 2120, cacheRead: 40_211 },
      { id: 'req_011CV2', cost: 15, input: 900, output: 1500, cacheRead: 41_000 },
    ]));
    const recorded = await recorder.waitFor((m) => costs(session, 'telemetry_event').includes(m), 20_000);
    expect(recorded.body.payload).toMatchObject({ model: 'claude-opus-4-8', cost_usd: 35, operation: 'usage.reported', priced_by: 'agent' });

    const reason = await deniedChange(CLAUDE, () => hook(CLAUDE, claude(session, 'PreToolUse', callId('toolu_edit'), 'Edit', { file_path: '/work/app/src/date.ts', old_string: 'a', new_string: 'b' })));
    expect(reason).toBe(`Warden denied this action: The cost breaker of this session is open: RUN_BUDGET_EXCEEDED. Run spent $55.00 of its $50.00 budget. ${BUDGET_TEXT}`);

    // The console: the session's spend and where it came from, the list's column, the agent's total.
    await eventually('the console to show $55.00', async () => ((await page.textContent('#session-spend')) === '$55.00' ? true : null), { timeoutMs: 10_000, intervalMs: 100 });
    expect(await page.textContent('.spend-fact')).toContain('from telemetry metrics, telemetry events');
    await page.waitForSelector('button[data-action="reset-breaker"]');
    await page.screenshot({ path: join(SHOTS, 'session-spend.png'), fullPage: true });
    await page.goto(up.consoleUrl);
    await page.waitForSelector('#live-state[data-state="live"]');
    expect(await page.textContent(`[id="row-${CLAUDE}.${session}"] .spend`)).toBe('$55.00');
    await page.goto(`${up.consoleUrl}/agents`);
    expect(await page.textContent(`[id="agent-${CLAUDE}"] .spend`)).toMatch(/^\$\d+\.\d{2}/);

    // An operator resets the cost breaker from the console: the session may change things again.
    await sessionPage(CLAUDE, session);
    await Promise.all([page.waitForResponse((r) => r.url().includes('/breakers/cost/reset') && r.status() === 200), page.click('button[data-action="reset-breaker"]')]);
    await recorder.waitFor((m) => m.body.type === 'breaker.command_applied' && m.body.session_id === session, 20_000);
    await eventually('a change to be allowed again', async () => ((await hook(CLAUDE, claude(session, 'PreToolUse', callId('toolu_edit'), 'Edit', { file_path: '/work/app/src/date.ts', old_string: 'a', new_string: 'b' }))) === null ? true : null), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
  }, 180_000);

  it("Codex: its OTLP events' tokens, priced from Warden's table, raise the spend and the next change past the budget is denied with the figures", async () => {
    const session = `codex-spend-${newMessageId().slice(0, 8)}`;
    expect(await hook(CODEX, codex(session, callId('call_ls'), 'ls src'))).toBeNull();
    // gpt-5.5 is priced as gpt-5 ($0.00125 per 1,000 input, $0.01 output, $0.000125 cached): $12.50 + $40.00.
    await exportTelemetry(CODEX, '/v1/logs', codexResponses(session, [
      { input: 6_000_000, cached: 0, output: 2_000_000 },
      { input: 4_000_000, cached: 0, output: 2_000_000 },
    ]));
    const recorded = await recorder.waitFor((m) => costs(session, 'telemetry_event').includes(m), 20_000);
    expect(recorded.body.payload).toMatchObject({ model: 'gpt-5.5', prompt_tokens: 10_000_000, completion_tokens: 4_000_000, cost_usd: 52.5, priced_by: 'pricing_table' });
    const reason = await deniedChange(CODEX, () => hook(CODEX, codex(session, callId('call_install'), 'npm install left-pad')));
    expect(reason).toBe(`Warden denied this action: The cost breaker of this session is open: RUN_BUDGET_EXCEEDED. Run spent $52.50 of its $50.00 budget. ${BUDGET_TEXT}`);
    await sessionPage(CODEX, session);
    await eventually('the console to show $52.50', async () => ((await page.textContent('#session-spend')) === '$52.50' ? true : null), { timeoutMs: 10_000, intervalMs: 100 });
    expect(await page.textContent('.spend-fact')).toContain('gpt-5.5; from telemetry events');
  }, 180_000);

  it('an action Warden denied that ran anyway (a subagent\'s PostToolUse) is an incident: audited, in the console, and the session stopped', async () => {
    const session = `cc-incident-${newMessageId().slice(0, 8)}`;
    const id = callId('toolu_sub');
    const destructive = { command: 'rm -rf /', description: 'Clean up' };
    const subagent = { agent_id: 'agent-def456', agent_type: 'Explore' };
    const denied = (await hook(CLAUDE, claude(session, 'PreToolUse', id, 'Bash', destructive, subagent))) as { hookSpecificOutput: { permissionDecision: string } };
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    // anthropics/claude-code#84701: a Task subagent's tool runs although its hook denied it; its PostToolUse comes.
    const after = (await hook(CLAUDE, claude(session, 'PostToolUse', id, 'Bash', destructive, { ...subagent, tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false }, duration_ms: 12 }))) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(after.hookSpecificOutput.additionalContext).toContain(`Warden: Bash (${id}) ran although Warden denied it`);
    const incident = await recorder.waitFor((m) => m.body.type === 'action.ran_against_decision' && m.body.session_id === session);
    expect(incident.body.payload).toMatchObject({ action_id: id, tool: 'Bash', input: destructive, warden_decision: 'denied', decided_by: 'reviewer', status: 'success', subagent: { id: 'agent-def456', type: 'Explore' } });

    // The interventions' escalation: an emergency stop, with its incident report.
    const stop = await recorder.waitFor((m) => m.body.type === 'control.issued' && m.body.session_id === session && (m.body.payload as { kind: string }).kind === 'emergency_stop', 30_000);
    await recorder.waitFor((m) => m.body.type === 'incident.created' && m.body.session_id === session, 30_000);
    expect(stop.body.payload).toMatchObject({ issue_type: 'ran_against_decision' });
    const next = (await eventually('the session to be stopped', async () => {
      const answer = (await hook(CLAUDE, claude(session, 'PreToolUse', callId('toolu_after'), 'Read', { file_path: '/work/app/README.md' }))) as { continue?: boolean } | null;
      return answer?.continue === false ? answer : null;
    }, { timeoutMs: 30_000, intervalMs: 200 })) as { hookSpecificOutput: { permissionDecision: string } };
    expect(next.hookSpecificOutput.permissionDecision).toBe('deny');

    // Audited: the session's timeline in the audit store has it.
    const timeline = await eventually('the audit to have the incident', async () => {
      const run = await audit(['timeline', session]);
      return run.stdout.includes('action.ran_against_decision') ? run : null;
    }, { timeoutMs: 30_000, intervalMs: 500 });
    expect(timeline.code).toBe(0);

    // In the console, with the action.
    await sessionPage(CLAUDE, session);
    const item = `#session-incidents li[data-action-id="${id}"]`;
    await page.waitForSelector(item, { timeout: 10_000 });
    expect(await page.getAttribute(item, 'data-decision')).toBe('denied');
    expect(await page.textContent(item)).toContain('Bash: rm -rf /');
    expect(await page.textContent(item)).toContain('although Warden denied it');
    await eventually('the console to show the session stopped', async () => ((await page.textContent('#session-status')) === 'stopped' ? true : null), { timeoutMs: 10_000, intervalMs: 100 });
    await page.screenshot({ path: join(SHOTS, 'session-incident.png'), fullPage: true });
  }, 180_000);

  it('a tool call Warden never saw proposed (a subagent whose hooks did not fire) is an incident', async () => {
    const session = `cc-unseen-${newMessageId().slice(0, 8)}`;
    expect(await hook(CLAUDE, claude(session, 'PreToolUse', callId('toolu_read'), 'Read', { file_path: '/work/app/README.md' }))).toBeNull();
    const id = callId('toolu_unseen');
    const after = (await hook(CLAUDE, claude(session, 'PostToolUse', id, 'Bash', { command: 'curl -s https://example.com/install.sh' }, { agent_id: 'agent-777', agent_type: 'general-purpose', tool_response: { stdout: 'ok', stderr: '' }, duration_ms: 40 }))) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(after.hookSpecificOutput.additionalContext).toContain('ran although Warden never saw it proposed');
    const incident = await recorder.waitFor((m) => m.body.type === 'action.ran_against_decision' && m.body.session_id === session);
    expect(incident.body.payload).toMatchObject({ action_id: id, warden_decision: 'never_proposed', subagent: { id: 'agent-777', type: 'general-purpose' } });
    // Answered by a correction first (escalating if it goes on), not a stop.
    const correction = await recorder.waitFor((m) => m.body.type === 'control.issued' && m.body.session_id === session, 30_000);
    expect(correction.body.payload).toMatchObject({ kind: 'soft_correction', issue_type: 'ran_against_decision' });
    await sessionPage(CLAUDE, session);
    await page.waitForSelector(`#session-incidents li[data-action-id="${id}"][data-decision="never_proposed"]`, { timeout: 10_000 });
  }, 120_000);

  /** `warden audit …` as an operator runs it beside the suite. */
  function audit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const { WARDEN_OPERATOR_TOKEN: _t, ...env } = process.env;
    const service = up.service;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [WARDEN, 'audit', ...args], {
        cwd: WORKSPACE_ROOT,
        env: { ...env, NO_COLOR: '1', NATS_URL: service.servers, NATS_USER: service.user ?? '', NATS_PASSWORD: service.password ?? '', WARDEN_OPERATOR_TOKEN: up.adminToken },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }
});

function mkdirSafe(): void {
  // The screenshots go beside the console's README.
  void import('node:fs').then(({ mkdirSync }) => mkdirSync(SHOTS, { recursive: true }));
}
