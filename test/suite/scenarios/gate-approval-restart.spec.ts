import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessage, EXAMPLE_PAYLOADS, GATE_APPROVAL_BUCKET, newMessageId, publishSubject, type PayloadOf } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection, RecordStore } from '@warden/messaging';
import { BusRecorder, eventually, operatorToken, slackInteraction, SlackWebApi, TestNatsServer } from '@warden/testing';
import { FAST_LEASES, PARTITIONS } from './path-fixture.js';

const encoder = new TextEncoder();
const BOT_TOKEN = 'xoxb-3333-4444-warden-restart-token';
const SIGNING_SECRET = 'restart-test-signing-secret-0123';
const CHANNEL = 'C0RESTART';
const SLACK_APPROVER = 'U0XANDER';

/**
 * A gate killed (SIGKILL, no cleanup) while an approval it posted to Slack is pending: the gate that
 * starts after it finds the request and the Slack message in JetStream, a click on that message
 * approves the action, and Slack sees the message updated, never posted a second time.
 */
describe('a gate killed while an approval is pending in Slack', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let slack: SlackWebApi;
  let dir: string;
  const gates: ServiceProcess[] = [];

  beforeAll(async () => {
    slack = await SlackWebApi.start(BOT_TOKEN);
    dir = mkdtempSync(join(tmpdir(), 'gate-restart-'));
    writeFileSync(
      join(dir, 'gates.yaml'),
      [
        'gates:',
        '  - id: migrations',
        '    prompt: Migrations need a DBA.',
        '    when: { path: action.input.command, matches: migrate }',
        '    timeout_ms: 600000',
        'approvals:',
        // Every replica looks for deliveries left undone every second: the restarted one would resend them.
        '  delivery: { sweep_ms: 1000, claim_ms: 2000, backoff_ms: 100 }',
        '  channels:',
        '    - type: slack',
        '      name: oncall',
        `      channel: ${CHANNEL}`,
        `      bot_token: ${BOT_TOKEN}`,
        `      signing_secret: ${SIGNING_SECRET}`,
        `      api_url: ${slack.url}`,
        '      users:',
        `        ${SLACK_APPROVER}: operator-xander`,
      ].join('\n'),
    );
    nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
    await operatorToken(bus.nc, 'operator-xander', 'approver');
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

  it('after a restart the Slack message still approves the action, and Slack got no second chat.postMessage for it', async () => {
    const first = await startGate('gate-killed');
    const session = `restart-${newMessageId().slice(0, 8)}`;
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
    const postsFor = () => slack.of('chat.postMessage').filter((c) => String(c.args.text).includes(session));
    const post = await eventually('the approval posted to Slack', () => postsFor()[0]);
    expect(post.answer).toMatchObject({ ok: true, channel: CHANNEL });
    const requested = (await recorder.waitFor((m) => m.body.type === 'gate.requested' && m.body.session_id === session, 20_000)).body.payload as { request_id: string };

    // What the delivery recorded (the message's ts) is in JetStream before the kill: wait for the outbox to say so.
    const outbox = new RecordStore<{ message?: { ts: string }; queue: unknown[] }>(bus.nc, GATE_APPROVAL_BUCKET);
    await eventually('the posted message kept with the request', async () => (await outbox.get(`oncall.${requested.request_id}`))?.value, (entry) => entry?.message?.ts === post.answer.ts && entry?.queue.length === 0);

    await first.kill();
    const restarted = await startGate('gate-restarted');

    const blocks = post.args.blocks as Record<string, any>[];
    const actions = blocks.find((b) => b.type === 'actions')!;
    const approve = actions.elements.find((e: Record<string, unknown>) => e.action_id === 'approve');
    const signed = slackInteraction(SIGNING_SECRET, {
      type: 'block_actions',
      user: { id: SLACK_APPROVER, username: 'xander', name: 'xander', team_id: 'T0WARDEN' },
      api_app_id: 'A0WARDEN',
      container: { type: 'message', message_ts: post.answer.ts, channel_id: CHANNEL, is_ephemeral: false },
      trigger_id: '1.2.3',
      team: { id: 'T0WARDEN', domain: 'warden-test' },
      channel: { id: CHANNEL, name: 'approvals' },
      message: { type: 'message', ts: post.answer.ts, text: post.args.text, blocks },
      response_url: 'https://hooks.slack.com/actions/T0WARDEN/1/xyz',
      actions: [{ action_id: 'approve', block_id: actions.block_id, text: approve.text, value: approve.value, style: 'primary', type: 'button', action_ts: `${Date.now() / 1000}` }],
    });
    // The restarted gate owns the session's partition once the killed one's lease lapses; the answer waits for it.
    const answer = await fetch(`${restarted.url}/gateway/approvals/slack/oncall`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    const decision = await recorder.waitFor((m) => m.body.type === 'decision.made' && m.body.session_id === session && (m.body.payload as { action_id: string }).action_id === actionId, 20_000);
    expect(decision.body.payload).toMatchObject({ decision: 'allow', operator_id: 'operator-xander' });

    // The resolution updates the message posted before the kill.
    const update = await eventually('chat.update of the message posted before the kill', () => slack.of('chat.update').find((c) => c.args.ts === post.answer.ts));
    expect(update.args).toMatchObject({ channel: CHANNEL, ts: post.answer.ts, text: expect.stringContaining('Approved') });
    expect(update.answer).toMatchObject({ ok: true });
    // The restarted gate has swept the outbox (every second) by now: still one message for the request.
    await eventually('an outbox sweep of the restarted gate', async () => /warden_gate_approval_deliveries_total\{[^}]*type="gate.request.resolved"[^}]*result="ok"[^}]*\} 1/.test(await (await fetch(`${restarted.url}/metrics`)).text()));
    expect(postsFor()).toHaveLength(1);
  });
});
