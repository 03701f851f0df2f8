import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessage, EXAMPLE_PAYLOADS, GATE_APPROVAL_BUCKET, GATE_SESSION_BUCKET, newMessageId, publishSubject, type PayloadOf } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection, RecordStore } from '@warden/messaging';
import { BusRecorder, eventually, SlackWebApi, TestNatsServer } from '@warden/testing';
import { FAST_LEASES, PARTITIONS } from './path-fixture.js';

const encoder = new TextEncoder();
const BOT_TOKEN = 'xoxb-7777-8888-warden-escalation-restart';
const SIGNING_SECRET = 'escalation-restart-signing-secret';
/** The Slack channel asked at once, and the one the escalation step asks. */
const ONCALL = 'C0ONCALL';
const LEADS = 'C0LEADS';

interface StoredState {
  requests: { request_id: string; escalated?: number; escalation_steps?: unknown[] }[];
}

/**
 * A gate killed (SIGKILL, no cleanup) while an approval waits for its escalation step: the gate that
 * starts after it re-arms the deadlines from JetStream, runs the step once (the second Slack channel
 * gets one message), denies the action once at the final deadline, and the first channel's message is
 * updated, never posted again. The deadlines are seconds, not milliseconds: a process restart and the
 * lease of the killed gate come between the request and its step (10 s, so that a slow machine kills the
 * gate before it), and the restarted gate takes over well before the final deadline (30 s).
 */
describe('a gate killed while an escalation is pending', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let slack: SlackWebApi;
  let dir: string;
  const gates: ServiceProcess[] = [];

  beforeAll(async () => {
    slack = await SlackWebApi.start(BOT_TOKEN);
    dir = mkdtempSync(join(tmpdir(), 'gate-escalation-restart-'));
    const channel = (name: string, id: string) => [
      '    - type: slack',
      `      name: ${name}`,
      `      channel: ${id}`,
      `      bot_token: ${BOT_TOKEN}`,
      `      signing_secret: ${SIGNING_SECRET}`,
      `      api_url: ${slack.url}`,
    ];
    writeFileSync(
      join(dir, 'gates.yaml'),
      [
        'gates:',
        '  - id: migrations',
        '    prompt: Migrations need a DBA.',
        '    when: { path: action.input.command, matches: migrate }',
        '    timeout_ms: 30000',
        '    escalation: dba',
        'approvals:',
        // Every replica looks for deliveries left undone every second: the restarted one would resend them.
        '  delivery: { sweep_ms: 1000, claim_ms: 2000, backoff_ms: 100 }',
        '  channels:',
        ...channel('oncall', ONCALL),
        ...channel('leads', LEADS),
        '  escalation:',
        '    dba: [{ after_ms: 10000, channels: [leads] }]',
      ].join('\n'),
    );
    nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
  }, 60_000);

  afterAll(async () => {
    for (const gate of gates) await gate.stop().catch(() => undefined);
    recorder?.stop();
    await bus?.close();
    await nats?.stop();
    await slack?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  const startGate = async (replicaId: string) => {
    const gate = await ServiceProcess.start({ app: 'gate', nats: nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, WARDEN_REPLICA_ID: replicaId, GATE_CONFIG: join(dir, 'gates.yaml') } });
    gates.push(gate);
    return gate;
  };

  it('after the restart the step runs once, the action is denied once at the final deadline, and no Slack message is sent twice', async () => {
    const first = await startGate('gate-killed');
    const session = `escalate-${newMessageId().slice(0, 8)}`;
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
        action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rails db:migrate' } },
      } as PayloadOf<'review.verdict'>,
    });
    await bus.js.publish(publishSubject('verdict', 'agent-1', session), encoder.encode(JSON.stringify(verdict)), { msgID: verdict.id });
    const postsIn = (channel: string) => slack.of('chat.postMessage').filter((c) => c.args.channel === channel && String(c.args.text).includes(session));
    const post = await eventually('the approval posted in the on-call channel', () => postsIn(ONCALL)[0]);
    const requested = (await recorder.waitFor((m) => m.body.type === 'gate.requested' && m.body.session_id === session, 20_000)).body.payload as { request_id: string };
    const outbox = new RecordStore<{ message?: { ts: string }; queue: unknown[] }>(bus.nc, GATE_APPROVAL_BUCKET);
    await eventually('the posted message kept with the request', async () => (await outbox.get(`oncall.${requested.request_id}`))?.value, (entry) => entry?.message?.ts === post.answer.ts);

    await first.kill();
    // Killed with the step still to run: the stored request says none ran, and nothing was escalated.
    const states = new RecordStore<StoredState>(bus.nc, GATE_SESSION_BUCKET);
    const stored = (await states.get(`state.agent-1.${session}`))!.value.requests[0]!;
    expect(stored).toMatchObject({ request_id: requested.request_id, escalated: 0, escalation_steps: [expect.objectContaining({ channels: ['leads'] })] });
    expect(recorder.messages.filter((m) => m.body.type === 'gate.escalated' && m.body.session_id === session)).toEqual([]);

    await startGate('gate-restarted');
    const step = await recorder.waitFor((m) => m.body.type === 'gate.escalated' && m.body.session_id === session, 60_000);
    expect(step.body.payload).toMatchObject({ request_id: requested.request_id, step: 1, channels: ['leads'], reason: 'ESCALATION_DEADLINE' });
    const escalatedPost = await eventually('the request posted in the leads channel', () => postsIn(LEADS)[0], { timeoutMs: 60_000 });
    expect(escalatedPost.answer).toMatchObject({ ok: true, channel: LEADS });

    const decision = await recorder.waitFor((m) => m.body.type === 'decision.made' && m.body.session_id === session, 60_000);
    expect(decision.body.payload).toMatchObject({ action_id: actionId, decision: 'deny', decided_by: 'gate_timeout', reason: expect.stringContaining('(asked: oncall, then leads)') });

    // Both messages are updated with the denial. The restarted gate has swept its outbox every second
    // since it started: an entry it would deliver again would have been posted by now.
    for (const ts of [post.answer.ts, escalatedPost.answer.ts]) {
      await eventually('chat.update with the denial', () => slack.of('chat.update').find((c) => c.args.ts === ts && String(c.args.text).includes('Denied')), { timeoutMs: 60_000 });
    }
    expect(postsIn(ONCALL)).toHaveLength(1);
    expect(postsIn(LEADS)).toHaveLength(1);
    expect(recorder.messages.filter((m) => m.body.type === 'gate.escalated' && m.body.session_id === session).map((m) => (m.body.payload as { reason: string }).reason)).toEqual([
      'ESCALATION_DEADLINE',
      'TIMEOUT',
    ]);
    expect(recorder.messages.filter((m) => m.body.type === 'decision.made' && m.body.session_id === session)).toHaveLength(1);
  }, 180_000);
});
