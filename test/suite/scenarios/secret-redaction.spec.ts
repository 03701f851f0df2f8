import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newMessageId, SEAL_KEY_BUCKET, SEAL_PRIVATE_KEY, type MessageOf } from '@warden/contracts';
import { Kvm } from '@nats-io/kv';
import { BusConnection } from '@warden/messaging';
import { openSealed, publicHalfOf } from '@warden/secrets';
import { browser, eventually, logIn, WardenUp } from '@warden/testing';

const AGENT = 'claude-code';
// Fakes of the right shape: an AWS access key id and an Anthropic API key.
const AWS_KEY = 'AKIAQ7ZR2XW5TLMN3KPD';
const ANTHROPIC_KEY = 'sk-ant-api03-Zq8vN2xW4kL7mP9rT1yB3cF6hJ0dG5sA8eU2iO4wR7t';
const COMMAND = `AWS_ACCESS_KEY_ID=${AWS_KEY} ANTHROPIC_API_KEY=${ANTHROPIC_KEY} aws s3 cp build.tar.gz s3://releases/ && curl -H "x-api-key: ${ANTHROPIC_KEY}" https://api.anthropic.com/v1/models`;
const RAW = [AWS_KEY, ANTHROPIC_KEY, ANTHROPIC_KEY.slice(0, 24)];

const decoder = new TextDecoder();
const leaks = (text: string) => RAW.filter((secret) => text.includes(secret));

/**
 * An agent runs a command with two secrets in it. Whatever Warden stores or shows of it (every stream, the
 * agent's own included, every KV bucket, the console's pages, the services' logs) holds the redacted forms
 * only; the action the agent sent carries its secrets sealed, which the reviewer's key opens to the
 * command as it was sent.
 */
describe('secrets in an action', () => {
  let up: WardenUp;
  let bus: BusConnection;

  beforeAll(async () => {
    up = await WardenUp.start([AGENT]);
    bus = await BusConnection.open(up.service);
  }, 300_000);

  afterAll(async () => {
    await bus?.close();
    await up?.stop();
  }, 120_000);

  it('stores and shows only [REDACTED:…] forms of an AWS key and an Anthropic key', async () => {
    const session = `secrets-${newMessageId().slice(0, 8)}`;
    const hook = async (event: 'PreToolUse' | 'PostToolUse', extra: Record<string, unknown> = {}) => {
      const response = await fetch(`${up.urls.gateway_url}/hooks/${AGENT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${AGENT}.${up.agentPassword(AGENT)}` },
        body: JSON.stringify({
          session_id: session,
          transcript_path: `/home/dev/.claude/projects/-work-app/${session}.jsonl`,
          cwd: '/work/app',
          permission_mode: 'default',
          hook_event_name: event,
          tool_name: 'Bash',
          tool_input: { command: COMMAND },
          tool_use_id: 'toolu_secret_1',
          ...extra,
        }),
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    // The reviewer judges the command as sent (opened from its seal): it finds the secrets and says so,
    // redacted, to the agent. With the markers alone it would see no secret and only warn of the request.
    const answer = await hook('PreToolUse');
    expect(leaks(answer)).toEqual([]);
    const reason = (JSON.parse(answer) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
    expect(reason.permissionDecision).toBe('deny');
    expect(reason.permissionDecisionReason).toMatch(/carries a secret in clear text \(aws_access_key, anthropic_key/);
    await hook('PostToolUse', { tool_response: { stdout: 'upload: build.tar.gz', exit_code: 0 } });

    // Until the action went through the suite: verdict, decision and the audit's row.
    await eventually('the decision stored', async () => (await bus.jsm.streams.info('WARDEN_DECISION')).state.messages, (n) => n > 0);
    const operator = await browser();
    const pages: string[] = [];
    try {
      const page = await operator.context.newPage();
      await logIn(page, up.consoleUrl, 'admin', up.adminPassword);
      await page.goto(`${up.consoleUrl}/sessions/${session}?agent=${AGENT}`);
      await page.waitForSelector('#live-state[data-state="live"]');
      await eventually('the action on the session page', async () => ((await page.content()).includes('s3://releases/') ? true : null), { timeoutMs: 30_000, intervalMs: 200 });
      for (const path of ['/', '/approvals', '/agents']) {
        await page.goto(`${up.consoleUrl}${path}`);
        pages.push(await page.content());
      }
      await page.goto(`${up.consoleUrl}/sessions/${session}?agent=${AGENT}`);
      await page.waitForSelector('#live-state[data-state="live"]');
      pages.push(await page.content());
    } finally {
      await operator.close();
    }

    const found: { where: string; secrets: string[] }[] = [];
    let redactedSeen = 0;
    // Every message of every stream: the KV buckets' (every revision) too; the agent's checkpoints are its own files.
    for await (const stream of bus.jsm.streams.names()) {
      if (stream.startsWith('OBJ_')) continue;
      const info = await bus.jsm.streams.info(stream);
      for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
        const stored = await bus.jsm.streams.getMessage(stream, { seq }).catch(() => null);
        if (!stored) continue;
        const text = decoder.decode(stored.data);
        if (text.includes('[REDACTED:aws_access_key]')) redactedSeen += 1;
        const secrets = leaks(text);
        if (secrets.length > 0) found.push({ where: `${stream} #${seq} ${stored.subject}`, secrets });
      }
    }
    for (const [i, html] of pages.entries()) {
      const secrets = leaks(html);
      if (secrets.length > 0) found.push({ where: `console page ${i}`, secrets });
    }
    const logDir = join(up.stateDir, 'logs');
    for (const file of readdirSync(logDir)) {
      const secrets = leaks(readFileSync(join(logDir, file), 'utf8'));
      if (secrets.length > 0) found.push({ where: `log ${file}`, secrets });
    }

    expect(found).toEqual([]);
    // The redacted forms are there: the verdict, the decision and the console name what was found.
    expect(redactedSeen).toBeGreaterThan(0);
    expect(pages.at(-1)).toContain('[REDACTED:anthropic_key]');
    // The action as the agent's edge stored it: markers, and the secrets sealed for the reviewer, whose key opens them.
    const stored = await bus.jsm.streams.getMessage('WARDEN_ACTION', { last_by_subj: `warden.action.*.${AGENT}.${session}` });
    const action = JSON.parse(decoder.decode(stored!.data)) as MessageOf<'action.proposed'>;
    expect(action.payload.input.command).toContain('AWS_ACCESS_KEY_ID=[REDACTED:');
    expect(action.payload.sealed).toMatch(/^v1\./);
    const { privateKey } = (await (await new Kvm(bus.nc).open(SEAL_KEY_BUCKET)).get(SEAL_PRIVATE_KEY))!.json<{ privateKey: string }>();
    const { sealed, ...redacted } = action.payload;
    expect(openSealed(redacted, sealed!, { privateKey, publicKey: publicHalfOf(privateKey) }).input.command).toBe(COMMAND);
  }, 240_000);
});
