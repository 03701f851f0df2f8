import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, slackInteraction, SlackWebApi, type SlackCall } from '@warden/testing';
import { AGENT, GateFixture, OPERATOR, VIEWER } from './gate-fixture.js';

const BOT_TOKEN = 'xoxb-1111-2222-warden-test-token';
const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const CHANNEL = 'C0APPROVALS';
const CONSOLE = 'https://warden.example.test';
/** Slack users: one mapped to an approver, one to a viewer, one not mapped. */
const SLACK_APPROVER = 'U0XANDER';
const SLACK_VIEWER = 'U0VERA';
const SLACK_STRANGER = 'U0STRANGER';

/**
 * Checks a call against Slack's documented request of the method (docs.slack.dev/reference/methods/
 * chat.postMessage, chat.update): POST, the bot token as a bearer header (never in the body), a form
 * body; the message's Block Kit within Slack's documented limits.
 */
function expectDocumentedRequest(call: SlackCall): void {
  expect(call.httpMethod).toBe('POST');
  expect(call.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
  expect(call.args.token).toBeUndefined();
  expect(['application/x-www-form-urlencoded', 'application/json']).toContain(String(call.headers['content-type']).split(';')[0]);
  expect(typeof call.args.channel).toBe('string');
  // text is the notification's fallback when blocks are given.
  expect(typeof call.args.text).toBe('string');
  expect(call.args.text.length).toBeGreaterThan(0);
  expect(call.args.text.length).toBeLessThanOrEqual(40_000);
  const blocks = call.args.blocks as Record<string, any>[];
  expect(Array.isArray(blocks)).toBe(true);
  expect(blocks.length).toBeGreaterThan(0);
  expect(blocks.length).toBeLessThanOrEqual(50);
  const blockIds = blocks.filter((b) => b.block_id !== undefined).map((b) => b.block_id as string);
  expect(new Set(blockIds).size).toBe(blockIds.length);
  for (const block of blocks) {
    expect(['section', 'context', 'actions']).toContain(block.type);
    if (block.block_id !== undefined) expect(String(block.block_id).length).toBeLessThanOrEqual(255);
    if (block.type === 'section') {
      expect(['mrkdwn', 'plain_text']).toContain(block.text.type);
      expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    if (block.type === 'context') {
      expect(block.elements.length).toBeLessThanOrEqual(10);
      for (const element of block.elements) expect(['mrkdwn', 'plain_text', 'image']).toContain(element.type);
    }
    if (block.type === 'actions') {
      expect(block.elements.length).toBeLessThanOrEqual(25);
      for (const button of block.elements) {
        expect(button.type).toBe('button');
        expect(button.text.type).toBe('plain_text');
        expect(button.text.text.length).toBeLessThanOrEqual(75);
        expect(button.action_id.length).toBeLessThanOrEqual(255);
        if (button.value !== undefined) expect(button.value.length).toBeLessThanOrEqual(2000);
        if (button.url !== undefined) expect(button.url.length).toBeLessThanOrEqual(3000);
        if (button.style !== undefined) expect(['primary', 'danger']).toContain(button.style);
      }
    }
  }
}

/** The request Slack sends when a user clicks a button of the message (docs.slack.dev block_actions payload). */
function click(message: { channel: string; ts: string; blocks: Record<string, any>[] }, actionId: 'approve' | 'reject', user: string): Record<string, unknown> {
  const actions = message.blocks.find((b) => b.type === 'actions')!;
  const button = (actions.elements as Record<string, any>[]).find((e) => e.action_id === actionId)!;
  return {
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: 'T0WARDEN' },
    api_app_id: 'A0WARDEN',
    token: 'deprecated-verification-token',
    container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
    trigger_id: '123.456.abc',
    team: { id: 'T0WARDEN', domain: 'warden-test' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: message.channel, name: 'approvals' },
    message: { type: 'message', ts: message.ts, text: 'Warden asks for an approval', blocks: message.blocks },
    state: { values: {} },
    response_url: 'https://hooks.slack.com/actions/T0WARDEN/1/xyz',
    actions: [{ action_id: button.action_id, block_id: actions.block_id, text: button.text, value: button.value, style: button.style, type: 'button', action_ts: `${Date.now() / 1000}` }],
  };
}

describe('the Slack approval channel', () => {
  let f: GateFixture;
  let dir: string;
  let slack: SlackWebApi;

  beforeAll(async () => {
    slack = await SlackWebApi.start(BOT_TOKEN);
    dir = mkdtempSync(join(tmpdir(), 'gate-slack-'));
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
        '    timeout_ms: 600000',
        'approvals:',
        `  console_url: ${CONSOLE}`,
        '  delivery: { backoff_ms: 100, max_backoff_ms: 400, sweep_ms: 60000 }',
        '  channels:',
        '    - type: slack',
        '      name: oncall',
        `      channel: ${CHANNEL}`,
        '      bot_token_env: TEST_SLACK_BOT_TOKEN',
        `      signing_secret: ${SIGNING_SECRET}`,
        `      api_url: ${slack.url}`,
        '      users:',
        `        ${SLACK_APPROVER}: ${OPERATOR}`,
        `        ${SLACK_VIEWER}: ${VIEWER}`,
      ].join('\n'),
    );
    f = await GateFixture.start({ GATE_CONFIG: config, TEST_SLACK_BOT_TOKEN: BOT_TOKEN });
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
    await slack?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  const interaction = (payload: Record<string, unknown>, options: { secret?: string; timestamp?: number } = {}) => {
    const signed = slackInteraction(options.secret ?? SIGNING_SECRET, payload, options);
    return fetch(`${f.gate.url}/gateway/approvals/slack/oncall`, { method: 'POST', headers: signed.headers, body: signed.body }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, any>,
    }));
  };
  const requestOf = async (requestId: string) => (await f.http('GET', `/gateway/requests/${requestId}`)).body;
  const posted = (session: string) => slack.of('chat.postMessage').filter((c) => String(c.args.text).includes(session));

  it('posts each held action with chat.postMessage as Slack documents it; refuses a wrong signature, an expired timestamp and users who are not approvers; a signed click of an approver approves, and the message is updated', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, { action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rails db:migrate' } }, reasons: ['Command with medium risk'] });
    const post = await eventually('chat.postMessage for the held action', () => posted(session)[0]);

    // The request Warden made, field by field against chat.postMessage's documented arguments.
    expect(post.method).toBe('chat.postMessage');
    expectDocumentedRequest(post);
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(post.args.channel).toBe(CHANNEL);
    expect(post.args.unfurl_links).toBe('false');
    expect(Object.keys(post.args).sort()).toEqual(['blocks', 'channel', 'text', 'unfurl_links']);
    const requestId = ((await f.waitOn('gate', session, 'gate.requested'))[0]!.body.payload as { request_id: string }).request_id;
    const request = await requestOf(requestId);
    expect(request.status).toBe('pending');
    const blocks = post.args.blocks as Record<string, any>[];
    const shown = JSON.stringify(blocks);
    // What the approver is shown: agent, session, gate, tool, the command, why it was held, a link.
    for (const part of [AGENT, session, 'migrations', 'Bash', 'rails db:migrate', 'Migration requested: rails db:migrate', request.digest.slice(0, 16)]) expect(shown).toContain(part);
    const actions = blocks.find((b) => b.type === 'actions')!;
    expect(actions.elements.map((e: Record<string, unknown>) => e.action_id)).toEqual(['approve', 'reject', 'open']);
    expect(actions.elements[0]).toMatchObject({ style: 'primary', text: { type: 'plain_text', text: 'Approve' }, value: `${requestId}:${request.digest}` });
    expect(actions.elements[1]).toMatchObject({ style: 'danger', text: { type: 'plain_text', text: 'Reject' }, value: `${requestId}:${request.digest}` });
    expect(actions.elements[2]).toMatchObject({ url: `${CONSOLE}/approvals/${requestId}` });
    expect(post.answer).toMatchObject({ ok: true, channel: CHANNEL });
    const message = { channel: CHANNEL, ts: post.answer.ts as string, blocks };

    // Three refusals, none of which decides anything.
    const approve = click(message, 'approve', SLACK_APPROVER);
    expect(await interaction(approve, { secret: 'not-the-signing-secret-of-the-app' })).toEqual({ status: 401, body: { status: 'error', reason: 'invalid_signature' } });
    expect(await interaction(approve, { timestamp: Math.floor(Date.now() / 1000) - 301 })).toEqual({ status: 401, body: { status: 'error', reason: 'stale_timestamp' } });
    expect(await interaction(click(message, 'approve', SLACK_STRANGER))).toEqual({ status: 403, body: { status: 'error', reason: 'unmapped_slack_user' } });
    // Refused users are told in Slack, only they see it.
    const told = await eventually('the ephemeral message to the unmapped user', () => slack.of('chat.postEphemeral').find((c) => c.args.user === SLACK_STRANGER));
    expect(told.args).toMatchObject({ channel: CHANNEL, user: SLACK_STRANGER, text: expect.stringContaining('not a Warden approver') });
    expectDocumentedHeaders(told);
    // A viewer mapped to a Slack user may not approve either.
    expect(await interaction(click(message, 'approve', SLACK_VIEWER))).toEqual({ status: 403, body: { status: 'error', reason: 'forbidden: the operator is not an approver' } });
    expect(await requestOf(requestId)).toMatchObject({ status: 'pending' });
    expect(f.toAgent(session)).toEqual([]);
    expect(f.on('gate', session, 'gate.command')).toEqual([]);

    // The approver's signed click approves exactly what the message showed.
    expect(await interaction(approve)).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'allow', operator_id: OPERATOR });
    expect(await requestOf(requestId)).toMatchObject({ status: 'approved', approver: OPERATOR, channel: 'slack', answered_digest: request.digest });

    // The message is updated in place (chat.update of its channel and ts), without the buttons.
    const update = await eventually('chat.update of the message', () => slack.of('chat.update').find((c) => c.args.ts === message.ts));
    expectDocumentedRequest(update);
    expect(update.args.channel).toBe(CHANNEL);
    expect(Object.keys(update.args).sort()).toEqual(['blocks', 'channel', 'text', 'ts']);
    expect(update.args.text).toContain('Approved');
    expect(JSON.stringify(update.args.blocks)).toContain(`Approved by ${OPERATOR} via slack`);
    expect((update.args.blocks as Record<string, any>[]).some((b) => b.type === 'actions')).toBe(false);
    // One message per request, ever.
    expect(posted(session)).toHaveLength(1);
    // A second click on the old message is refused (the request is answered); nothing more is decided.
    expect((await interaction(approve)).status).toBe(409);
    expect(f.toAgent(session).filter((m) => m.body.type === 'decision.made')).toHaveLength(1);
  });

  it('a click on a message showing an action rewritten since is refused (409 digest_mismatch); the updated message approves', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, { action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rake db:migrate' } }, reasons: ['Command with medium risk'] });
    const post = await eventually('chat.postMessage', () => posted(session)[0]);
    const first = { channel: CHANNEL, ts: tsOf(post), blocks: post.args.blocks as Record<string, any>[] };
    await f.command(session, 'rewrite', { original_trace_id: verdict.trace_id, new_content: JSON.stringify({ command: 'rake db:migrate:status' }) });
    const update = await eventually('chat.update with the rewritten input', () => slack.of('chat.update').find((c) => c.args.ts === first.ts && JSON.stringify(c.args.blocks).includes('db:migrate:status')));
    expectDocumentedRequest(update);
    // Slack: "If a message is updated, use a new block_id".
    const actionsOf = (blocks: Record<string, any>[]) => blocks.find((b) => b.type === 'actions')!;
    expect(actionsOf(update.args.blocks).block_id).not.toBe(actionsOf(first.blocks).block_id);

    const stale = await interaction(click(first, 'approve', SLACK_APPROVER));
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toMatch(/^digest_mismatch/);
    await eventually('the user told the action changed', () => slack.of('chat.postEphemeral').find((c) => c.args.user === SLACK_APPROVER && /action changed/.test(c.args.text)));
    expect(f.toAgent(session)).toEqual([]);

    const current = { ...first, blocks: update.args.blocks as Record<string, any>[] };
    expect(await interaction(click(current, 'approve', SLACK_APPROVER))).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'allow', operator_id: OPERATOR, updated_input: { command: 'rake db:migrate:status' } });
    expect(posted(session)).toHaveLength(1);
  });

  it('threads each session: its next request is posted in the thread of its first message', async () => {
    const session = f.newSession();
    const first = await f.verdict(session, { action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rails db:migrate' } }, reasons: ['Command with medium risk'] });
    const opening = await eventually('the first message of the session', () => posted(session)[0]);
    expect(opening.args.thread_ts).toBeUndefined();
    const message = { channel: CHANNEL, ts: tsOf(opening), blocks: opening.args.blocks as Record<string, any>[] };
    expect(await interaction(click(message, 'approve', SLACK_APPROVER))).toEqual({ status: 200, body: { status: 'ok' } });
    await f.waitDecision(session, first.payload.action_id);

    const second = await f.verdict(session, { action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rails db:migrate:redo' } }, reasons: ['Command with medium risk'] });
    const reply = await eventually('the second message of the session', () => posted(session)[1]);
    expectDocumentedRequest(reply);
    expect(reply.args).toMatchObject({ channel: CHANNEL, thread_ts: message.ts });
    expect(Object.keys(reply.args).sort()).toEqual(['blocks', 'channel', 'text', 'thread_ts', 'unfurl_links']);
    expect(tsOf(reply)).not.toBe(message.ts);
    // Its buttons answer the second request, and its update goes to the reply itself.
    const replied = { channel: CHANNEL, ts: tsOf(reply), blocks: reply.args.blocks as Record<string, any>[] };
    expect(await interaction(click(replied, 'reject', SLACK_APPROVER))).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await f.waitDecision(session, second.payload.action_id)).payload).toMatchObject({ decision: 'deny' });
    const update = await eventually('chat.update of the reply', () => slack.of('chat.update').find((c) => c.args.ts === replied.ts));
    expect(update.args.text).toContain('Rejected');
    expect(posted(session)).toHaveLength(2);
  });
});

function tsOf(post: SlackCall): string {
  return post.answer.ts as string;
}

function expectDocumentedHeaders(call: SlackCall): void {
  expect(call.httpMethod).toBe('POST');
  expect(call.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
  expect(call.args.token).toBeUndefined();
}
