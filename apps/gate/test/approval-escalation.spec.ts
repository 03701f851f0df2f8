import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATE_APPROVAL_BUCKET, validateMessage } from '@warden/contracts';
import { RecordStore } from '@warden/messaging';
import { eventually, SlackWebApi } from '@warden/testing';
import { GateFixture, OPERATOR } from './gate-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const BOT_TOKEN = 'xoxb-5555-6666-warden-escalation-token';
const SIGNING_SECRET = 'escalation-test-signing-secret-01';
const CHANNEL = 'C0ONCALL';
const SECRET = 'webhook-secret-of-the-pager-bot';
/** An agent whose requests have a deadline of their own, before the escalation step. */
const NIGHT_AGENT = 'agent-night';

/**
 * Deadlines and escalation over real NATS, a stand-in for Slack's Web API and a signed webhook
 * receiver, with deadlines of a few hundred milliseconds: a held action is asked in Slack at once, sent
 * to the pager's webhook when nobody answered by the escalation step, and denied at the final deadline
 * with a reason that names both. The test waits for each of these events; it measures no time.
 */
describe('approval deadlines and escalation', () => {
  let f: GateFixture;
  let dir: string;
  let slack: SlackWebApi;
  let pager: WebhookReceiver;
  let outbox: RecordStore<{ queue: unknown[] }>;

  beforeAll(async () => {
    slack = await SlackWebApi.start(BOT_TOKEN);
    pager = await startWebhookReceiver(SECRET);
    dir = mkdtempSync(join(tmpdir(), 'gate-escalation-'));
    const config = join(dir, 'gates.yaml');
    writeFileSync(
      config,
      [
        'standard_gates:',
        '  cost_overrun: { enabled: false }',
        'gates:',
        '  - id: migrations',
        '    prompt: Database migrations need a DBA.',
        "    summary: 'Migration requested: {action.input.command}'",
        "    when: { path: action.input.command, matches: '\\bmigrate\\b' }",
        // The step comes well before the final deadline, so that a slow machine still sees the step first.
        '    timeout_ms: 5000',
        '    escalation: dba',
        // The same escalation with an hour to answer: an answer through the escalated channel never races the deadline.
        '  - id: schema_loads',
        '    prompt: Loading a schema needs a DBA.',
        "    summary: 'Schema load requested: {action.input.command}'",
        "    when: { path: action.input.command, matches: '\\bschema:load\\b' }",
        '    timeout_ms: 3600000',
        '    escalation: dba',
        'approvals:',
        '  delivery: { backoff_ms: 100, max_backoff_ms: 400, sweep_ms: 60000 }',
        '  channels:',
        '    - type: slack',
        '      name: oncall',
        `      channel: ${CHANNEL}`,
        `      bot_token: ${BOT_TOKEN}`,
        `      signing_secret: ${SIGNING_SECRET}`,
        `      api_url: ${slack.url}`,
        '    - type: webhook',
        '      name: pager',
        `      url: ${pager.url}`,
        `      secret: ${SECRET}`,
        '  escalation:',
        '    dba:',
        '      - { after_ms: 300, channels: [pager] }',
        '  agents:',
        `    ${NIGHT_AGENT}: { timeout_ms: 250 }`,
      ].join('\n'),
    );
    f = await GateFixture.start({ GATE_CONFIG: config });
    outbox = new RecordStore(f.bus.nc, GATE_APPROVAL_BUCKET);
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
    await slack?.close();
    pager?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  const migrate = (command: string) => ({ action: { kind: 'tool_use', tool: 'Bash', input: { command } }, reasons: ['Command with medium risk'] });
  const posted = (session: string) => slack.of('chat.postMessage').filter((c) => String(c.args.text).includes(session));
  const paged = (session: string) => pager.received.filter((r) => r.body.request.session_id === session);
  const requestIdOf = async (session: string) => ((await f.waitOn('gate', session, 'gate.requested'))[0]!.body.payload as { request_id: string }).request_id;

  it('asks Slack at once, sends the request to the pager at the escalation step, and denies it at the final deadline saying who was asked', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, migrate('rails db:migrate'));
    const requestId = await requestIdOf(session);
    const post = await eventually('the request posted in Slack', () => posted(session)[0]);
    expect(post.args.channel).toBe(CHANNEL);

    // The escalation step: announced with its channels, and the pager receives the request, signed.
    const [step] = await f.waitOn('gate', session, 'gate.escalated');
    expect(validateMessage(step!.body)).toMatchObject({ ok: true });
    expect(step!.body.payload).toMatchObject({ request_id: requestId, gate_id: 'migrations', escalation: 'dba', reason: 'ESCALATION_DEADLINE', step: 1, after_ms: 300, channels: ['pager'] });
    const escalated = await eventually('the escalated request at the pager', () => paged(session).find((r) => r.body.type === 'gate.request.escalated'));
    expect(escalated.verified).toBe(true);
    expect(escalated.body.request).toMatchObject({ request_id: requestId, status: 'pending', asked: ['oncall', 'pager'], escalations: [{ step: 1, after_ms: 300, channels: ['pager'] }] });
    expect(escalated.body.answer).toEqual({ method: 'POST', path: `/gateway/requests/${requestId}/respond`, body: { approved: true, digest: escalated.body.digest } });

    // The final deadline: denied, the agent told nobody answered and which channels were asked.
    const reason = 'Nobody answered the approval request of gate migrations within 5 s (asked: oncall, then pager); the action is denied: nothing is approved without an answer.';
    const decision = await f.waitDecision(session, verdict.payload.action_id, 20_000);
    expect(decision.payload).toMatchObject({ decision: 'deny', decided_by: 'gate_timeout', reason });
    const told = f.toAgent(session).find((m) => m.body.type === 'control.issued')!;
    expect(told.body.payload).toMatchObject({ kind: 'operator_message', message: `${reason} Do not retry it without an approval.` });
    const [responded] = await f.waitOn('gate', session, 'gate.responded');
    expect(validateMessage(responded!.body)).toMatchObject({ ok: true });
    expect(responded!.body.payload).toMatchObject({ request_id: requestId, approved: false, approver: 'system', outcome: 'timed_out', reason: 'TIMEOUT', asked_channels: ['oncall', 'pager'] });
    const escalations = f.on('gate', session, 'gate.escalated');
    // The step, then the final deadline's (seed 002: escalated, then denied).
    expect(escalations.map((m) => (m.body.payload as { step?: number; reason: string }).reason)).toEqual(['ESCALATION_DEADLINE', 'TIMEOUT']);
    expect(escalations[1]!.body.payload).toMatchObject({ channels: ['oncall', 'pager'] });
    expect(f.recorder.messages.indexOf(escalations[1]!)).toBeLessThan(f.recorder.messages.indexOf(responded!));
    expect((await f.http('GET', `/gateway/requests/${requestId}`)).body).toMatchObject({ status: 'timed_out', approver: 'system', reason, asked: ['oncall', 'pager'] });

    // Both channels hear of the denial: Slack's message is updated, the pager gets the resolution.
    const update = await eventually('chat.update of the Slack message', () => slack.of('chat.update').find((c) => c.args.ts === post.answer.ts && String(c.args.text).includes('Denied')));
    expect(JSON.stringify(update.args.blocks)).toContain('asked: oncall, then pager');
    const resolved = await eventually('the resolution at the pager', () => paged(session).find((r) => r.body.type === 'gate.request.resolved'));
    expect(resolved.body.request).toMatchObject({ status: 'timed_out', reason });
    // One message in each channel, one escalation: nothing was sent twice.
    expect(posted(session)).toHaveLength(1);
    expect(paged(session).map((r) => r.body.type)).toEqual(['gate.request.escalated', 'gate.request.resolved']);
    expect(f.on('decision', session)).toHaveLength(1);
  });

  it('the escalated channel may answer: the pager approves with the digest it was sent, and nothing is denied', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, migrate('rake db:schema:load'));
    const requestId = await requestIdOf(session);
    const escalated = await eventually('the escalated request at the pager', () => paged(session).find((r) => r.body.type === 'gate.request.escalated'));
    const answer = await f.http('POST', escalated.body.answer.path as string, { body: { ...escalated.body.answer.body, channel: 'pager' } });
    expect(answer).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'allow', operator_id: OPERATOR });
    expect((await f.http('GET', `/gateway/requests/${requestId}`)).body).toMatchObject({ status: 'approved', channel: 'pager', asked: ['oncall', 'pager'] });
    await eventually('the resolution at the pager', () => paged(session).find((r) => r.body.type === 'gate.request.resolved'));
    expect(f.on('gate', session, 'gate.escalated')).toHaveLength(1);
  });

  it('an agent with a deadline of its own is denied at it; the escalation step after it never runs and the pager hears nothing', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, migrate('rails db:migrate:redo'), { agentId: NIGHT_AGENT });
    const requestId = await requestIdOf(session);
    const decision = await f.waitDecision(session, verdict.payload.action_id, 20_000);
    expect(decision.payload).toMatchObject({
      decision: 'deny',
      decided_by: 'gate_timeout',
      reason: 'Nobody answered the approval request of gate migrations within 250 ms (asked: oncall); the action is denied: nothing is approved without an answer.',
    });
    expect((await f.http('GET', `/gateway/requests/${requestId}`)).body).toMatchObject({ timeout_ms: 250, status: 'timed_out', asked: ['oncall'] });
    expect(f.on('gate', session, 'gate.escalated').map((m) => (m.body.payload as { reason: string }).reason)).toEqual(['TIMEOUT']);
    // Slack was asked and told; the pager was never asked, so nothing was queued for it.
    await eventually('the denial in Slack', () => slack.of('chat.update').find((c) => String(c.args.text).includes(session) && String(c.args.text).includes('Denied')));
    expect(await outbox.get(`oncall.${requestId}`)).toBeDefined();
    expect(await outbox.get(`pager.${requestId}`)).toBeUndefined();
    expect(paged(session)).toEqual([]);
  });
});
