import { createMessage, parseSessionSubject, type MessageOf } from '@warden/contracts';
import { BusConnection, buildDeadLetter } from '@warden/messaging';
import { BusRecorder, eventually, TestNatsServer } from '@warden/testing';
import { InvalidMessageError, WardenClient } from '../src/index.js';

let nats: TestNatsServer;
let bus: BusConnection;
let client: WardenClient;
let actions: BusRecorder;
const encoder = new TextEncoder();

type Action = MessageOf<'action.proposed'>;

/** Plays the services' side: answers each action it is told to, the way the gate does. */
async function answer(action: Action, decision: 'allow' | 'deny', reason = 'because') {
  const message = createMessage('decision.made', {
    session_id: action.session_id,
    agent_id: action.agent_id,
    trace_id: action.trace_id,
    causation_id: action.id,
    payload: {
      action_id: action.payload.action_id,
      decision,
      verdict: decision === 'allow' ? 'allow' : 'block',
      reason,
      reasons: [reason],
      decided_by: 'reviewer',
    },
  });
  await bus.js.publish(`warden.decision.${action.agent_id}.${action.session_id}`, encoder.encode(JSON.stringify(message)), { msgID: message.id });
}

async function received(actionId: string): Promise<Action> {
  return (await actions.waitFor((m) => (m.body as unknown as Action).payload?.action_id === actionId)).body as unknown as Action;
}

beforeAll(async () => {
  nats = await TestNatsServer.start({ partitions: 4, agents: ['agent-1', 'agent-2'] });
  bus = await BusConnection.open(nats.service);
  actions = await BusRecorder.start(bus.nc, 'warden.action.>');
  const agent = nats.agent('agent-1');
  client = await WardenClient.connect({ servers: nats.url, agentId: 'agent-1', password: agent.password, decisionTimeoutMs: 3_000 });
});

afterAll(async () => {
  await client.close();
  actions.stop();
  await bus.close();
  await nats.stop();
});

describe('propose', () => {
  it('resolves with the decision for the action, after the action is stored in JetStream', async () => {
    const session = client.session('sess-propose');
    const decision = session.propose({ tool: 'Read', input: { file_path: 'README.md' }, actionId: 'toolu_read' });
    const action = await received('toolu_read');
    const stored = await bus.jsm.streams.getMessage('WARDEN_ACTION', { last_by_subj: `warden.action.*.agent-1.sess-propose` });
    expect(stored?.json<Action>().id).toBe(action.id);
    await answer(action, 'allow', 'Read: no rule objects');
    expect(await decision).toMatchObject({
      actionId: 'toolu_read',
      allowed: true,
      verdict: 'allow',
      reason: 'Read: no rule objects',
      decidedBy: 'reviewer',
    });
  });

  it('correlates decisions by action id when they come back out of order', async () => {
    const session = client.session('sess-order');
    const first = session.propose({ tool: 'Bash', input: { command: 'ls' }, actionId: 'first' });
    const second = session.propose({ tool: 'Bash', input: { command: 'rm -rf /' }, actionId: 'second' });
    const [a1, a2] = [await received('first'), await received('second')];
    await answer(a2, 'deny', 'never');
    await answer(a1, 'allow', 'fine');
    expect(await first).toMatchObject({ actionId: 'first', allowed: true, reason: 'fine' });
    expect(await second).toMatchObject({ actionId: 'second', allowed: false, reason: 'never' });
  });

  it('stores an action proposed twice once and answers both calls with one decision', async () => {
    const session = client.session('sess-twice');
    const one = session.propose({ tool: 'Read', input: { file_path: 'a' }, actionId: 'twice' });
    const two = session.propose({ tool: 'Read', input: { file_path: 'a' }, actionId: 'twice' });
    await answer(await received('twice'), 'allow');
    expect(await one).toBe(await two);
    const info = await bus.jsm.streams.info('WARDEN_ACTION', { subjects_filter: 'warden.action.*.agent-1.sess-twice' });
    expect(Object.values(info.state.subjects ?? {})).toEqual([1]);
  });

  it('fails closed when no decision comes in time', async () => {
    const decision = await client.session('sess-timeout').propose({ tool: 'Bash', input: { command: 'make' } }, { timeoutMs: 200 });
    expect(decision).toMatchObject({ allowed: false, verdict: null, decidedBy: 'fallback' });
    expect(decision.reason).toBe('no decision within 200 ms; denied: Warden fails closed');
  });

  it('can be told to fail open', async () => {
    const agent = nats.agent('agent-1');
    const open = await WardenClient.connect({ servers: nats.url, agentId: 'agent-1', password: agent.password, onTimeout: 'allow' });
    try {
      const decision = await open.session('sess-open').propose({ tool: 'Read', input: {} }, { timeoutMs: 200 });
      expect(decision).toMatchObject({ allowed: true, decidedBy: 'fallback' });
    } finally {
      await open.close();
    }
  });

  it('refuses an action that does not match its contract before sending it', async () => {
    const session = client.session('sess-invalid');
    await expect(session.propose({ tool: '', input: {} })).rejects.toThrow(InvalidMessageError);
    await expect(session.propose({ tool: '', input: {} })).rejects.toThrow('/payload/tool');
  });

  it('answers with the reason when a service rejects the action', async () => {
    const session = client.session('sess-rejected');
    const decision = session.propose({ tool: 'Bash', input: { command: 'ls' }, actionId: 'rejected' });
    const action = await received('rejected');
    const letter = buildDeadLetter({
      service: 'reviewer',
      reason: 'schema_invalid',
      detail: '/payload/input: must be object',
      subject: `warden.action.0.agent-1.sess-rejected`,
      data: encoder.encode(JSON.stringify(action)),
      messageId: action.id,
      address: parseSessionSubject(`warden.action.0.agent-1.sess-rejected`),
    });
    await bus.js.publish(letter.subject, encoder.encode(JSON.stringify(letter.message)), { msgID: letter.message.id });
    expect(await decision).toMatchObject({
      allowed: false,
      decidedBy: 'rejected',
      reason: 'Warden rejected the action (schema_invalid): /payload/input: must be object',
    });
  });

  it("cannot propose as another agent: NATS refuses, and the SDK fails closed", async () => {
    const agent1 = nats.agent('agent-1');
    const impostor = await WardenClient.connect({ servers: nats.url, agentId: 'agent-2', user: 'agent-1', password: agent1.password });
    try {
      const decision = await impostor.session('sess-x').propose({ tool: 'Read', input: {} }, { timeoutMs: 1_000 });
      expect(decision).toMatchObject({ allowed: false, decidedBy: 'fallback' });
      await nats.waitForLog(/Publish Violation - User "agent-1", Subject "warden\.action\.\d\.agent-2\.sess-x"/);
    } finally {
      await impostor.close();
    }
  });
});

describe('report', () => {
  it('publishes the outcome in the trace of its action', async () => {
    const outcomes = await BusRecorder.start(bus.nc, 'warden.outcome.>');
    const session = client.session('sess-report');
    const decision = session.propose({ tool: 'Bash', input: { command: 'npm test' }, actionId: 'reported' });
    const action = await received('reported');
    await answer(action, 'allow');
    await decision;
    await session.report({ actionId: 'reported', status: 'error', error: { message: 'ENOENT', class: 'ENOENT' }, durationMs: 12, tokens: { prompt: 10, completion: 2 }, model: 'claude-sonnet-4' });
    const outcome = (await outcomes.waitFor((m) => m.subject.endsWith('.sess-report'))).body as unknown as MessageOf<'action.outcome'>;
    expect(outcome.trace_id).toBe(action.trace_id);
    expect(outcome.payload).toMatchObject({ action_id: 'reported', status: 'error', duration_ms: 12, tokens: { prompt: 10, completion: 2 } });
    outcomes.stop();
  });
});

describe('control messages', () => {
  it('delivers control messages of the session, also those sent before anyone listened, and acknowledges them', async () => {
    const session = client.session('sess-control');
    const send = async (control_id: string) => {
      const control = createMessage('control.issued', {
        session_id: 'sess-control',
        agent_id: 'agent-1',
        payload: { control_id, kind: 'soft_correction', message: "Let's try a different approach.", requires_ack: true },
      });
      await bus.js.publish('warden.control.agent-1.sess-control', encoder.encode(JSON.stringify(control)), { msgID: control.id });
    };
    await send('early');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const seen: string[] = [];
    session.onControl((control) => seen.push(control.payload.control_id));
    await send('late');
    await eventually('both control messages at the handler', () => seen.length >= 2);
    expect(seen).toEqual(['early', 'late']);

    const acks = await BusRecorder.start(bus.nc, 'warden.control_ack.>');
    const unsubscribe = session.onControl(async (control) => {
      if (control.payload.control_id === 'stop-now') await session.acknowledge(control, 'stopped', 'agent halted');
    });
    await send('stop-now');
    const ack = await acks.waitFor(() => true);
    expect(ack.body.payload).toEqual({ control_id: 'stop-now', status: 'stopped', detail: 'agent halted' });
    unsubscribe();
    acks.stop();
  });
});
