import { Kvm } from '@nats-io/kv';
import { newMessageId, PATTERN_SESSION_BUCKET, type MessageOf } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually, WardenUp } from '@warden/testing';

const AGENT = 'claude-code';

type Attribute = { key: string; value: Record<string, unknown> };
const str = (key: string, value: string): Attribute => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): Attribute => ({ key, value: { intValue: String(value) } });

/**
 * Claude Code's tool runs as its monitoring page documents them (https://code.claude.com/docs/en/monitoring-usage,
 * "Tool result event"): a `claude_code.tool_result` log record (`event.name` `tool_result`) per completed tool
 * invocation, with `tool_name`, `success`, `duration_ms`, `decision_type`, `decision_source` and the standard
 * attributes, in the `com.anthropic.claude_code.events` scope of the `claude-code` service.
 */
function toolResults(sessionId: string, runs: { sequence: number; tool: string; at: number }[]) {
  return {
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', 'claude-code'), str('service.version', '2.1.300')] },
        scopeLogs: [
          {
            scope: { name: 'com.anthropic.claude_code.events', version: '2.1.300' },
            logRecords: runs.map((run) => ({
              timeUnixNano: `${run.at}000000`,
              body: { stringValue: 'claude_code.tool_result' },
              attributes: [
                str('event.name', 'tool_result'),
                str('event.timestamp', new Date(run.at).toISOString()),
                int('event.sequence', run.sequence),
                str('session.id', sessionId),
                str('prompt.id', '550e8400-e29b-41d4-a716-446655440000'),
                str('tool_name', run.tool),
                str('success', 'true'),
                int('duration_ms', 40),
                str('decision_type', 'accept'),
                str('decision_source', 'config'),
              ],
            })),
          },
        ],
      },
    ],
  };
}

/**
 * A session whose Warden hook goes silent while the agent keeps working (its hooks removed from the
 * settings, say): the agent's own telemetry keeps reporting tool runs that no hook call proposed, and
 * the pattern detector reports it to the operators as a high bypass_trap. A session whose every run was
 * proposed is not reported.
 */
describe('a hook gone silent', () => {
  let up: WardenUp;
  let bus: BusConnection;
  let recorder: BusRecorder;

  beforeAll(async () => {
    up = await WardenUp.start([AGENT]);
    bus = await BusConnection.open(up.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.pattern.>');
  }, 300_000);

  afterAll(async () => {
    recorder?.stop();
    await bus?.close();
    await up?.stop();
  }, 120_000);

  const authorization = () => `Bearer ${AGENT}.${up.agentPassword(AGENT)}`;

  async function hook(session: string, command: string, toolUseId: string): Promise<void> {
    for (const event of ['PreToolUse', 'PostToolUse'] as const) {
      const response = await fetch(`${up.urls.gateway_url}/hooks/${AGENT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: authorization() },
        body: JSON.stringify({
          session_id: session,
          transcript_path: `/home/dev/.claude/projects/-work-app/${session}.jsonl`,
          cwd: '/work/app',
          permission_mode: 'default',
          hook_event_name: event,
          tool_name: 'Bash',
          tool_input: { command },
          tool_use_id: toolUseId,
          ...(event === 'PostToolUse' ? { tool_response: { stdout: 'ok', exit_code: 0 } } : {}),
        }),
      });
      expect(response.status).toBe(200);
    }
  }

  async function exportLogs(request: unknown): Promise<void> {
    const response = await fetch(`${up.urls.gateway_url}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: authorization() }, body: JSON.stringify(request) });
    expect(response.status).toBe(200);
  }

  const patternOf = (body: unknown) => body as MessageOf<'pattern.detected'>;
  const patternsOf = (session: string) => recorder.messages.filter((m) => m.body.session_id === session).map((m) => patternOf(m.body));

  it('reports tool runs no hook call proposed, and says nothing of a session whose runs were all proposed', async () => {
    const t0 = Date.now();
    const quiet = `hooked-${newMessageId().slice(0, 8)}`;
    const silent = `silent-${newMessageId().slice(0, 8)}`;
    for (let i = 1; i <= 3; i++) await hook(quiet, `npm test -- --shard=${i}`, `toolu_quiet_${i}`);
    await hook(silent, 'npm test', 'toolu_silent_1');

    // The hooked session: its three runs, reported twice (an exporter's retry), 20 s apart on the agent's clock.
    const hooked = toolResults(quiet, [1, 2, 3].map((i) => ({ sequence: i, tool: 'Bash', at: t0 + i * 1_000 })));
    await exportLogs(hooked);
    await exportLogs(hooked);
    await exportLogs(toolResults(quiet, [{ sequence: 4, tool: 'Read', at: t0 + 20_000 }]));
    // The silent one: one run its hook proposed, then the hook is gone and the agent goes on for 20 s.
    await exportLogs(toolResults(silent, [1, 2, 3, 4, 5, 6, 7].map((i) => ({ sequence: i, tool: i % 2 ? 'Bash' : 'Edit', at: t0 + i * 1_000 }))));
    await exportLogs(toolResults(silent, [8, 9].map((i) => ({ sequence: i, tool: 'Bash', at: t0 + 20_000 + i * 1_000 }))));

    const reported = await recorder.waitFor((m) => m.body.session_id === silent && patternOf(m.body).payload.pattern_type === 'bypass_trap', 60_000);
    const pattern = patternOf(reported.body);
    expect(pattern.payload).toMatchObject({ severity: 'high', details: { kind: 'silent_hook', unproposed_runs: 8, reported_runs: 9, proposed: 1 } });
    expect(pattern.payload.description).toMatch(/reports 8 tool runs that no hook call proposed/);

    // The hooked session, as the detector stored it once it had counted its four runs: no gap, nothing reported.
    const sessions = await new Kvm(bus.nc).open(PATTERN_SESSION_BUCKET);
    const stored = await eventually(
      'the hooked session stored with its four runs',
      async () => {
        for await (const key of await sessions.keys()) {
          if (!key.endsWith(quiet)) continue;
          return (await sessions.get(key))?.json<{ state: { proposed?: number; tool_runs?: { runs: number; silent?: unknown; suspect?: unknown } }; outbox: unknown[] }>() ?? null;
        }
        return null;
      },
      (record) => record?.state.tool_runs?.runs === 4,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(stored!.state).toMatchObject({ proposed: 3, tool_runs: { runs: 4 } });
    expect(stored!.state.tool_runs!.silent).toBeUndefined();
    expect(stored!.outbox).toEqual([]);
    expect(patternsOf(quiet).filter((p) => p.payload.details.kind === 'silent_hook')).toEqual([]);
  }, 120_000);
});
