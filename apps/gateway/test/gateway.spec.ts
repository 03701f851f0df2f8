import { readFileSync } from 'node:fs';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually, TestNatsServer } from '@warden/testing';

/**
 * The agent gateway's own guarantees, against nats-server with the reviewer and the gate: an agent is
 * who its token says and nothing else, nothing is published for a refused call, and it answers
 * `/metrics` and `/health/ready` like every service.
 */
describe('the agent gateway', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  const services: ServiceProcess[] = [];
  let gateway: ServiceProcess;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2, agents: ['agent-a', 'agent-b'], monitor: true });
    for (const app of ['reviewer', 'gate', 'gateway']) services.push(await ServiceProcess.start({ app, nats: nats.service, partitions: 2, env: { LOG_LEVEL: 'warn' }, readyTimeoutMs: 60_000 }));
    gateway = services.at(-1)!;
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
  }, 120_000);

  afterAll(async () => {
    recorder?.stop();
    await bus?.close();
    for (const service of services) await service.stop();
    await nats?.stop();
  }, 60_000);

  const token = (agent: string) => `${agent}.${nats.agent(agent).password}`;
  const pre = (sessionId: string, toolUseId: string) => ({
    session_id: sessionId,
    transcript_path: '/tmp/none.jsonl',
    cwd: '/work/app',
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'npm test' },
    tool_use_id: toolUseId,
  });
  async function post(body: unknown, authorization?: string): Promise<{ status: number; body: string }> {
    const response = await fetch(`${gateway.url}/hooks/claude-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.text() };
  }
  const of = (sessionId: string) => recorder.messages.filter((m) => m.body.session_id === sessionId);

  it.each([
    ['no token', undefined, 'missing Authorization header: send "Authorization: Bearer <agent token>" (warden hook install writes it)'],
    ['another scheme', `Basic ${Buffer.from('agent-a:x').toString('base64')}`, 'the Authorization header must be "Bearer <agent token>"'],
    ['a malformed token', 'Bearer agent-a', 'the agent token is malformed: expected <agent id>.<secret>'],
    ['a wrong secret', 'Bearer agent-a.not-the-password', 'NATS refused the token of agent agent-a: the token is not valid'],
    ['an agent that does not exist', 'Bearer nobody.secret', 'NATS refused the token of agent nobody: the token is not valid'],
  ])('refuses %s with 401 and the reason, publishing nothing', async (_name, authorization, reason) => {
    const sessionId = `unauthorized-${Math.random().toString(36).slice(2, 8)}`;
    expect(await post(pre(sessionId, 'toolu_x'), authorization)).toEqual({ status: 401, body: JSON.stringify({ error: reason }) });
    // A call that was answered afterwards shows everything before it has reached the recorder.
    expect(await post(pre('after-refusal', `toolu_${sessionId}`), `Bearer ${token('agent-a')}`)).toEqual({ status: 200, body: '' });
    await recorder.waitFor((m) => m.body.type === 'decision.made' && (m.body.payload as { action_id: string }).action_id === `toolu_${sessionId}`);
    expect(of(sessionId)).toEqual([]);
  }, 30_000);

  it('refuses the service user and an operator presented as agents, with 401, publishing nothing', async () => {
    const service = nats.service;
    const operator = nats.operator;
    for (const [user, password] of [
      [service.user, service.password],
      [operator.user, operator.password],
    ]) {
      const sessionId = `not-an-agent-${user}`;
      expect(await post(pre(sessionId, `toolu_${user}`), `Bearer ${user}.${password}`)).toEqual({
        status: 401,
        body: JSON.stringify({ error: `${user} is not an agent: only an agent's token passes as an agent` }),
      });
      expect(of(sessionId)).toEqual([]);
    }
  }, 30_000);

  it('keeps no NATS connection open for 600 calls whose token NATS refused, among the agent\'s own calls', async () => {
    /** The gateway's connections for agent-a as nats-server lists them (monitoring, /connz). */
    const agentConnections = async () => {
      const connz = (await (await fetch(`${nats.monitorUrl}/connz?limit=1024`)).json()) as { connections?: { cid: number; name?: string; start: string }[] };
      return (connz.connections ?? []).filter((c) => c.name === 'warden-gateway-agent-a').map(({ cid, start }) => ({ cid, start }));
    };
    const refused = JSON.stringify({ error: 'NATS refused the token of agent agent-a: the token is not valid' });
    // Wrong secrets for a real agent while the agent itself keeps working: 12 rounds of 50 at once.
    for (let round = 0; round < 12; round++) {
      expect(await post(pre('among-bad-calls', `toolu_good_${round}`), `Bearer ${token('agent-a')}`)).toEqual({ status: 200, body: '' });
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => post(pre(`bad-${round}-${i}`, `toolu_bad_${round}_${i}`), `Bearer agent-a.wrong-${round}-${i}`)));
      // The whole answer, so that a call answered otherwise shows why.
      expect(answers).toEqual(Array.from({ length: 50 }, () => ({ status: 401, body: refused })));
    }
    expect(await post(pre('among-bad-calls', 'toolu_good_last'), `Bearer ${token('agent-a')}`)).toEqual({ status: 200, body: '' });
    // One connection for the agent, the one its calls use.
    expect(await eventually('the gateway to hold one connection for agent-a', agentConnections, (c) => c.length === 1)).toHaveLength(1);
  }, 300_000);

  it('refuses an agent’s token in a session of another agent, with 403, publishing nothing', async () => {
    expect(await post(pre('session-of-a', 'toolu_a1'), `Bearer ${token('agent-a')}`)).toEqual({ status: 200, body: '' });
    await recorder.waitFor((m) => m.body.type === 'decision.made' && m.body.session_id === 'session-of-a');
    const before = of('session-of-a').length;
    expect(await post(pre('session-of-a', 'toolu_b1'), `Bearer ${token('agent-b')}`)).toEqual({
      status: 403,
      body: JSON.stringify({ error: "session session-of-a belongs to another agent; agent agent-b's token may not act in it" }),
    });
    expect(await post(pre('session-of-a', 'toolu_a2'), `Bearer ${token('agent-a')}`)).toEqual({ status: 200, body: '' });
    await recorder.waitFor((m) => m.body.type === 'decision.made' && (m.body.payload as { action_id: string }).action_id === 'toolu_a2');
    expect(of('session-of-a').filter((m) => m.body.agent_id === 'agent-b')).toEqual([]);
    expect(of('session-of-a').length).toBeGreaterThan(before);
  }, 30_000);

  it('keeps no agent token in nats-server\'s configuration, only its bcrypt hash', () => {
    const config = readFileSync(nats.configPath, 'utf8');
    for (const agent of ['agent-a', 'agent-b']) {
      expect(config).not.toContain(nats.agent(agent).password!);
      expect(config).toMatch(new RegExp(`user: "${agent}", password: "\\$2[aby]\\$06\\$[./A-Za-z0-9]{53}"`));
    }
  });

  it('answers /health/ready and counts its calls in /metrics', async () => {
    expect((await fetch(`${gateway.url}/health/ready`)).status).toBe(200);
    const metrics = await eventually('the gateway to count its calls', async () => {
      const text = await (await fetch(`${gateway.url}/metrics`)).text();
      return /warden_gateway_hook_calls_total\{[^}]*agent_kind="claude-code"[^}]*event="before_tool"[^}]*outcome="answered"[^}]*\} [1-9]/.test(text) ? text : null;
    });
    expect(metrics).toMatch(/warden_gateway_hook_calls_total\{[^}]*event="unknown"[^}]*outcome="unauthorized"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/warden_gateway_hook_calls_total\{[^}]*outcome="forbidden"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/warden_gateway_hook_call_seconds_bucket\{/);
  }, 30_000);
});
