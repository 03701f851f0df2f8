import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessage, EXAMPLE_PAYLOADS, newMessageId, OPERATOR_REJECTION_PROMPT, publishSubject, type PayloadOf } from '@warden/contracts';
import { ServiceProcess, WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually, operatorToken, TestNatsServer } from '@warden/testing';
import { FAST_LEASES, PARTITIONS } from './path-fixture.js';

const encoder = new TextEncoder();
const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

/** The operator CLI (`warden gate …`) against a gate process, with flags and interactively. */
describe('warden gate', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let gate: ServiceProcess;
  let dir: string;
  let token: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gate-cli-'));
    writeFileSync(
      join(dir, 'gates.yaml'),
      ['gates:', '  - id: migrations', '    prompt: Migrations need a DBA.', '    when: { path: action.input.command, matches: migrate }', '    timeout_ms: 600000', '    escalation: dba'].join('\n'),
    );
    nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
    token = await operatorToken(bus.nc, 'operator-cli', 'approver');
    gate = await ServiceProcess.start({ app: 'gate', nats: nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, GATE_CONFIG: join(dir, 'gates.yaml') } });
  }, 60_000);

  afterAll(async () => {
    await gate?.stop();
    recorder?.stop();
    await bus?.close();
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  function warden(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const { FORCE_COLOR: _forced, ...inherited } = process.env;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [WARDEN, 'gate', ...args], {
        env: { ...inherited, NO_COLOR: '1', WARDEN_GATE_URL: gate.url, WARDEN_OPERATOR_TOKEN: token, WARDEN_OPERATOR_ID: 'operator-cli' },
        cwd: WORKSPACE_ROOT,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.stdin.end(input ?? '');
      child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  async function verdict(session: string, command: string, extra: Partial<PayloadOf<'review.verdict'>> = {}) {
    const message = createMessage('review.verdict', {
      session_id: session,
      agent_id: 'agent-1',
      payload: {
        ...EXAMPLE_PAYLOADS['review.verdict'],
        action_id: `act-${newMessageId().slice(0, 8)}`,
        verdict: 'allow',
        reasons: ['Command with medium risk'],
        risk: { score: 0.4, severity: 'medium', factors: ['command'] },
        side_effects: undefined,
        rule_hits: [],
        action: { kind: 'tool_use', tool: 'Bash', input: { command } },
        ...extra,
      } as PayloadOf<'review.verdict'>,
    });
    await bus.js.publish(publishSubject('verdict', 'agent-1', session), encoder.encode(JSON.stringify(message)), { msgID: message.id });
    return message;
  }

  const decisionOf = async (session: string, actionId: string) =>
    (await recorder.waitFor((m) => m.body.type === 'decision.made' && m.body.session_id === session && (m.body.payload as { action_id: string }).action_id === actionId, 20_000)).body
      .payload as Record<string, unknown>;
  const requestOf = async (session: string) =>
    ((await recorder.waitFor((m) => m.body.type === 'gate.requested' && m.body.session_id === session, 20_000)).body.payload as { request_id: string }).request_id;
  const session = () => `cli-${newMessageId().slice(0, 8)}`;

  it('lists pending requests and paused sessions with their buffered messages', async () => {
    const s = session();
    const held = await verdict(s, 'rails db:migrate');
    const requestId = await requestOf(s);
    const { code, stdout } = await warden(['list']);
    expect(code).toBe(0);
    expect(stdout).toContain(requestId);
    expect(stdout).toContain(`${s} (agent-1)`);
    expect(stdout).toContain(`trace ${held.trace_id}: Bash {"command":"rails db:migrate"} → allow (needs approval)`);
    const json = JSON.parse((await warden(['list', '--json'])).stdout) as { sessions: { session_id: string }[]; requests: { request_id: string }[] };
    expect(json.sessions.map((x) => x.session_id)).toContain(s);
    expect(json.requests.map((x) => x.request_id)).toContain(requestId);

    expect(await warden(['approve', '--request', requestId, '--condition', 'Backup first', '--condition', 'On staging first'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`approved request ${requestId} with 2 condition(s)`),
    });
    expect(await decisionOf(s, held.payload.action_id)).toMatchObject({ decision: 'allow', operator_id: 'operator-cli', reasons: expect.arrayContaining(['Condition: Backup first']) });
    expect(await warden(['approve', '--request', requestId])).toMatchObject({ code: 1, stderr: expect.stringContaining('409: request_already_answered') });
  });

  it('rewrites and approves, rejects, injects, pauses and unpauses sessions', async () => {
    const s = session();
    expect((await warden(['pause', s, '--agent', 'agent-1', '--reason', 'Hold on'])).code).toBe(0);
    const first = await verdict(s, 'rm -rf build');
    const second = await verdict(s, 'ls');
    await eventually('the second decision in `warden gate show`', async () => (await warden(['show', s])).stdout.includes(second.trace_id));
    expect((await warden(['inject', s, '--prompt', 'Only delete dist'])).code).toBe(0);
    expect((await warden(['rewrite', s, '--trace', first.trace_id, '--content', '{"command":"rm -rf dist"}', '--approve'])).stdout).toContain(`rewrote ${first.trace_id} and approved`);
    expect(await decisionOf(s, first.payload.action_id)).toMatchObject({ decision: 'allow', updated_input: { command: 'rm -rf dist' }, operator_id: 'operator-cli' });
    await decisionOf(s, second.payload.action_id);

    const r = session();
    const held = await verdict(r, 'deploy', { verdict: 'require_approval' });
    await eventually('the held decision in `warden gate show`', async () => (await warden(['show', r])).stdout.includes(held.trace_id));
    expect((await warden(['reject', r, '--reason', 'Freeze'])).code).toBe(0);
    expect(await decisionOf(r, held.payload.action_id)).toMatchObject({ decision: 'deny', reason: 'Rejected by operator operator-cli: Freeze' });
    const control = recorder.messages.find((m) => m.body.type === 'control.issued' && m.body.session_id === r);
    expect(control!.body.payload).toMatchObject({ message: OPERATOR_REJECTION_PROMPT });

    expect(await warden(['unpause', session()])).toMatchObject({ code: 2, stderr: expect.stringContaining('--agent') });
    expect(await warden(['rewrite', s])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs --trace') });
  });

  it('asks about each pending request interactively', async () => {
    const s = session();
    const held = await verdict(s, './bin/migrate up');
    await requestOf(s);
    const { code, stdout } = await warden(['interactive'], 'r\nNot today\n');
    expect(code).toBe(0);
    expect(stdout).toContain('GATE migrations');
    expect(stdout).toContain('[a]pprove, approve with [c]onditions, [r]eject, [s]kip?');
    expect(await decisionOf(s, held.payload.action_id)).toMatchObject({ decision: 'deny', reason: 'Rejected by operator operator-cli: Not today' });
  });

  it('reports an unreachable gate and unknown requests', async () => {
    expect(await warden(['approve', '--request', 'nope'])).toMatchObject({ code: 1, stderr: expect.stringContaining('404: unknown_request') });
    expect(await bare(['gate', 'list', '--url', 'http://127.0.0.1:9'], { WARDEN_OPERATOR_TOKEN: token })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('cannot reach the gate at http://127.0.0.1:9'),
    });
  });

  it('sends credentials: none is a usage error, a viewer may list but not approve, another operator id is refused', async () => {
    expect(await bare(['gate', 'list', '--url', gate.url], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('WARDEN_OPERATOR_TOKEN') });
    const viewer = await operatorToken(bus.nc, 'viewer-cli', 'viewer');
    const tokenFile = join(dir, 'viewer-token');
    writeFileSync(tokenFile, `${viewer}\n`, { mode: 0o600 });
    expect((await bare(['gate', 'list', '--url', gate.url, '--token-file', tokenFile], {})).code).toBe(0);
    const s = session();
    const held = await verdict(s, 'deploy', { verdict: 'require_approval' });
    await eventually('the held decision', async () => (await warden(['show', s])).stdout.includes(held.trace_id));
    expect(await bare(['gate', 'approve', s, '--url', gate.url, '--token-file', tokenFile], {})).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('403: forbidden'),
    });
    expect(await bare(['gate', 'approve', s, '--url', gate.url, '--operator', 'someone-else'], { WARDEN_OPERATOR_TOKEN: token })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('401: operator_id_mismatch'),
    });
    expect(recorder.messages.some((m) => m.body.type === 'gate.command' && m.body.session_id === s)).toBe(false);
    expect((await warden(['approve', s])).code).toBe(0);
    expect(await decisionOf(s, held.payload.action_id)).toMatchObject({ decision: 'allow', operator_id: 'operator-cli' });
  });

  /** `warden …` with only the given variables besides the inherited environment's non-Warden ones. */
  function bare(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
    const { FORCE_COLOR: _forced, WARDEN_OPERATOR_TOKEN: _token, WARDEN_OPERATOR_ID: _id, ...inherited } = process.env;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [WARDEN, ...args], { env: { ...inherited, NO_COLOR: '1', ...env } });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (code) => resolve({ code: code ?? -1, stderr }));
    });
  }
});

