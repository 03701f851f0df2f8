import { createMessage } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually, TestNatsServer } from '@warden/testing';
import { WardenClient } from '../src/index.js';

/** JetStream forgets a message id this long after it stored it; short, so that a repeat after it can be shown. */
const DUPLICATE_WINDOW_MS = 1_500;
const encoder = new TextEncoder();

/**
 * One decision per action id, through the real suite (nats-server, the reviewer and the gate as
 * processes): a repeated action id is answered from the decision Warden stored, by a client that never
 * saw it (as each run of the command hook is), within JetStream's de-duplication window and after it;
 * a different action under the same id is refused.
 */
describe('an action id proposed again', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  const services: ServiceProcess[] = [];
  const clients: WardenClient[] = [];

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2, agents: ['agent-1'], topology: { duplicateWindowMs: DUPLICATE_WINDOW_MS } });
    for (const app of ['reviewer', 'gate']) services.push(await ServiceProcess.start({ app, nats: nats.service, partitions: 2, env: { LOG_LEVEL: 'warn' }, readyTimeoutMs: 60_000 }));
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    recorder?.stop();
    await bus?.close();
    for (const service of services) await service.stop();
    await nats?.stop();
  }, 60_000);

  /** A new agent process: nothing of earlier proposals in memory. */
  async function freshClient(): Promise<WardenClient> {
    const client = await WardenClient.connect({ servers: nats.url, agentId: 'agent-1', password: nats.agent('agent-1').password, decisionTimeoutMs: 10_000 });
    clients.push(client);
    return client;
  }

  const decisionsOf = (actionId: string) => recorder.messages.filter((m) => m.body.type === 'decision.made' && (m.body.payload as { action_id: string }).action_id === actionId);
  const push = { tool: 'Bash', input: { command: 'git push --force origin fix/date-parser' }, actionId: 'toolu_repeat_1' };

  it('returns the stored decision at once within the de-duplication window, and refuses a different action', async () => {
    const first = await (await freshClient()).session('repeat-1').propose(push);
    expect(first).toMatchObject({ allowed: true, verdict: 'modify', decidedBy: 'reviewer' });

    const again = await (await freshClient()).session('repeat-1').propose(push);
    expect(again).toMatchObject({ actionId: first.actionId, allowed: true, verdict: 'modify', reason: first.reason, updatedInput: first.updatedInput, decidedBy: 'reviewer' });
    expect(again.message?.id).toBe(first.message?.id);

    const other = await (await freshClient()).session('repeat-1').propose({ ...push, input: { command: 'rm -rf /' } });
    expect(other).toMatchObject({
      allowed: false,
      decidedBy: 'rejected',
      reason: 'Warden rejected the action (rejected): action id toolu_repeat_1 was already decided for a different action in session repeat-1; propose a new action under a new id',
    });
    expect(decisionsOf('toolu_repeat_1')).toHaveLength(1);
  }, 30_000);

  it('stores an action with a secret redacted and sealed, and answers its repeat from the stored decision', async () => {
    const token = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB';
    const call = { tool: 'Bash', input: { command: `git push https://dev:${token}@github.com/acme/app.git main` }, actionId: 'toolu_secret_1' };
    const first = await (await freshClient()).session('repeat-secret').propose(call);
    expect(first.decidedBy).toBe('reviewer');
    // Warden decided the action as stored (its digest is of the redacted input): a fresh client's repeat is the same action.
    const again = await (await freshClient()).session('repeat-secret').propose(call);
    expect(again).toMatchObject({ allowed: first.allowed, verdict: first.verdict, decidedBy: 'reviewer' });
    expect(again.message?.id).toBe(first.message?.id);
    const [stored] = recorder.messages.filter((m) => m.body.type === 'action.proposed' && (m.body.payload as { action_id: string }).action_id === 'toolu_secret_1');
    const payload = stored!.body.payload as { input: { command: string }; sealed?: string };
    expect(payload.input.command).toBe('git push https://dev:[REDACTED:github_token]@github.com/acme/app.git main');
    expect(payload.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(recorder.messages.map((m) => m.body))).not.toContain(token);
  }, 30_000);

  it('answers from the stored decision after the window too, through the gate, and refuses a different action there', async () => {
    const session = 'repeat-2';
    const first = await (await freshClient()).session(session).propose({ ...push, actionId: 'toolu_repeat_2' });
    // Once a message published after the proposal is no longer a duplicate, the proposal's window is over too.
    const probe = createMessage('action.proposed', { session_id: 'window-probe', agent_id: 'agent-1', payload: { action_id: 'probe', kind: 'tool_use', tool: 'Read', input: { file_path: 'README.md' } } });
    const publishProbe = () => bus.js.publish('warden.action.agent-1.window-probe', encoder.encode(JSON.stringify(probe)), { msgID: probe.id });
    await publishProbe();
    await eventually('the de-duplication window of the proposal to pass', async () => !(await publishProbe()).duplicate, { timeoutMs: 10_000, intervalMs: 200 });

    const again = await (await freshClient()).session(session).propose({ ...push, actionId: 'toolu_repeat_2' });
    expect(again).toMatchObject({ allowed: true, verdict: 'modify', reason: first.reason, updatedInput: first.updatedInput });
    expect(again.message?.id).toBe(first.message?.id);
    // The gate sent the stored decision again (JetStream drops it from the stream), and decided nothing new.
    expect(new Set(decisionsOf('toolu_repeat_2').map((m) => m.body.id))).toEqual(new Set([first.message!.id]));

    await eventually('the de-duplication window of the repeat to pass', async () => !(await publishProbe()).duplicate, { timeoutMs: 10_000, intervalMs: 200 });
    const other = await (await freshClient()).session(session).propose({ ...push, actionId: 'toolu_repeat_2', input: { command: 'ls' } });
    expect(other).toMatchObject({ allowed: false, decidedBy: 'rejected' });
    expect(other.reason).toBe(
      'Warden rejected the action (rejected): action id toolu_repeat_2 was already decided for a different action in session repeat-2; propose a new action under a new id',
    );
  }, 60_000);
});
