import { Kvm, type KV } from '@nats-io/kv';
import { HOOK_SESSION_BUCKET } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually, TestNatsServer } from '@warden/testing';

const AGENT = 'agent-droid';

/** Fields Droid sends with every event (Factory-AI/factory docs/reference/hooks-reference.mdx, "Hook Input"): no tool_use_id. */
const common = (sessionId: string) => ({ session_id: sessionId, transcript_path: `/work/app/.factory-sessions/${sessionId}.jsonl`, cwd: '/work/app', permission_mode: 'auto-medium' });
const pre = (sessionId: string, command: string) => ({ ...common(sessionId), hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command } });
const post = (sessionId: string, command: string) => ({ ...common(sessionId), hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: { command }, tool_response: 'done' });

/**
 * Calls an agent names no id for (Factory Droid: the same command twice is the same payload twice)
 * through two gateway replicas on one nats-server, with the reviewer and the gate: each call's id is
 * its own, its outcome finds it through either replica and after a restart, and a hook delivered again
 * keeps it.
 */
describe('the ids of calls an agent names none for, across gateway replicas', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let kv: KV;
  const services: ServiceProcess[] = [];
  const gateways: ServiceProcess[] = [];

  const startGateway = async () => {
    const gateway = await ServiceProcess.start({ app: 'gateway', nats: nats.service, partitions: 2, env: { LOG_LEVEL: 'warn' }, readyTimeoutMs: 60_000 });
    services.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2, agents: [AGENT] });
    for (const app of ['reviewer', 'gate']) services.push(await ServiceProcess.start({ app, nats: nats.service, partitions: 2, env: { LOG_LEVEL: 'warn' }, readyTimeoutMs: 60_000 }));
    gateways.push(await startGateway(), await startGateway());
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
    kv = await new Kvm(bus.nc).open(HOOK_SESSION_BUCKET);
  }, 180_000);

  afterAll(async () => {
    recorder?.stop();
    await bus?.close();
    for (const service of services) if (service.running) await service.stop();
    await nats?.stop();
  }, 60_000);

  async function hook(gateway: ServiceProcess, body: unknown): Promise<{ status: number; body: string }> {
    const response = await fetch(`${gateway.url}/hooks/factory`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${AGENT}.${nats.agent(AGENT).password}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.text() };
  }

  const actionIds = (sessionId: string, type: string) =>
    recorder.messages.filter((m) => m.body.type === type && m.body.session_id === sessionId).map((m) => (m.body.payload as { action_id: string }).action_id);
  const outcomes = (sessionId: string, count: number) =>
    recorder.waitForCount(count, 10_000, (m) => m.body.type === 'action.outcome' && m.body.session_id === sessionId);
  /** The session's state as stored, once `ready` holds for it (a call's record follows its answer). */
  const stored = (sessionId: string, ready: (calls: Record<string, { closed?: boolean }>) => boolean) =>
    eventually(`the state of ${sessionId} to be stored`, async () => (await kv.get(`state.${AGENT}.${sessionId}`))?.json<{ derivedCalls?: Record<string, { closed?: boolean }> }>(), (state) => !!state && ready(state.derivedCalls ?? {}));
  const openCalls = (calls: Record<string, { closed?: boolean }>) => Object.values(calls).filter((c) => !c.closed).length;

  it('gives each call its own id and each outcome its proposal’s, the session’s hooks alternating between two replicas', async () => {
    const sessionId = 'alternating';
    const commands = ['npm test', 'npm test', 'git status --short', 'npm test', 'git status --short', 'npm test'];
    for (const [i, command] of commands.entries()) {
      // Each replica proposes and reports in turn, so each finds its own view of the session out of date.
      expect(await hook(gateways[i % 2]!, pre(sessionId, command))).toEqual({ status: 200, body: '' });
      expect(await hook(gateways[(i + 1) % 2]!, post(sessionId, command))).toEqual({ status: 200, body: '' });
    }
    await outcomes(sessionId, commands.length);
    const proposed = actionIds(sessionId, 'action.proposed');
    expect(proposed).toHaveLength(commands.length);
    expect(new Set(proposed).size).toBe(commands.length);
    expect(actionIds(sessionId, 'action.outcome')).toEqual(proposed);
    expect(actionIds(sessionId, 'action.ran_against_decision')).toEqual([]);
  }, 60_000);

  it('finds a call’s id after the replica that proposed it stopped (its record stored on the way out) or was killed once it had stored it', async () => {
    const sessionId = 'restarted';
    expect(await hook(gateways[0]!, pre(sessionId, 'npm run build'))).toEqual({ status: 200, body: '' });
    // Stopped at once: what follows the answers it gave is stored before it closes.
    await gateways[0]!.stop();
    gateways[0] = await startGateway();
    expect(await hook(gateways[0]!, post(sessionId, 'npm run build'))).toEqual({ status: 200, body: '' });

    expect(await hook(gateways[1]!, pre(sessionId, 'npm run lint'))).toEqual({ status: 200, body: '' });
    await stored(sessionId, (calls) => openCalls(calls) === 1);
    await gateways[1]!.kill();
    gateways[1] = await startGateway();
    expect(await hook(gateways[0]!, post(sessionId, 'npm run lint'))).toEqual({ status: 200, body: '' });

    await outcomes(sessionId, 2);
    const proposed = actionIds(sessionId, 'action.proposed');
    expect(new Set(proposed).size).toBe(2);
    expect(actionIds(sessionId, 'action.outcome')).toEqual(proposed);
    expect(actionIds(sessionId, 'action.ran_against_decision')).toEqual([]);
  }, 120_000);

  it('keeps the id of a hook delivered again, through either replica, and of an outcome delivered again', async () => {
    const sessionId = 'delivered-again';
    const payload = pre(sessionId, 'npm run e2e');
    expect(await hook(gateways[0]!, payload)).toEqual({ status: 200, body: '' });
    expect(await hook(gateways[0]!, payload)).toEqual({ status: 200, body: '' });
    // Through the other replica, once the first delivery's record is stored.
    await stored(sessionId, (calls) => openCalls(calls) === 1);
    expect(await hook(gateways[1]!, payload)).toEqual({ status: 200, body: '' });
    expect(await hook(gateways[1]!, post(sessionId, 'npm run e2e'))).toEqual({ status: 200, body: '' });
    expect(await hook(gateways[0]!, post(sessionId, 'npm run e2e'))).toEqual({ status: 200, body: '' });
    // The same command again, after its outcome: a call of its own.
    expect(await hook(gateways[0]!, payload)).toEqual({ status: 200, body: '' });
    expect(await hook(gateways[1]!, post(sessionId, 'npm run e2e'))).toEqual({ status: 200, body: '' });

    await outcomes(sessionId, 3);
    const [first, second, ...others] = new Set(actionIds(sessionId, 'action.proposed'));
    expect({ second, others }).toEqual({ second: expect.not.stringMatching(first!), others: [] });
    // Each delivery under the call's one id (the same message id: JetStream keeps the proposal once), the outcome's too.
    expect(actionIds(sessionId, 'action.outcome')).toEqual([first, first, second]);
    const decided = recorder.messages.filter((m) => m.body.type === 'decision.made' && m.body.session_id === sessionId).map((m) => (m.body.payload as { action_id: string }).action_id);
    expect([...new Set(decided)]).toEqual([first, second]);
    expect(actionIds(sessionId, 'action.ran_against_decision')).toEqual([]);
  }, 60_000);

  it('takes the same payload after a deny as a call of its own: the agent did not run the first', async () => {
    const sessionId = 'denied-twice';
    for (const gateway of gateways) {
      const answer = await hook(gateway, pre(sessionId, 'rm -rf /'));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    }
    const proposed = (await recorder.waitForCount(2, 10_000, (m) => m.body.type === 'action.proposed' && m.body.session_id === sessionId)).map((m) => (m.body.payload as { action_id: string }).action_id);
    expect(new Set(proposed).size).toBe(2);
  }, 60_000);
});
