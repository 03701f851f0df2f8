import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@warden/testing';
import { AGENT, GateFixture, OPERATOR } from './gate-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const SECRET = 'webhook-secret-for-the-test-receiver';

describe('the signed webhook approval channel', () => {
  let f: GateFixture;
  let dir: string;
  let hook: WebhookReceiver;

  beforeAll(async () => {
    // It fails its first delivery: the gate's retry is seen.
    hook = await startWebhookReceiver(SECRET, { failFirst: true });
    dir = mkdtempSync(join(tmpdir(), 'gate-webhook-'));
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
        '  console_url: https://warden.example.test',
        '  delivery: { backoff_ms: 100, max_backoff_ms: 400, sweep_ms: 60000 }',
        '  channels:',
        '    - type: webhook',
        '      name: oncall',
        `      url: ${hook.url}`,
        '      secret_env: TEST_WEBHOOK_SECRET',
        // A receiver that is down: its failures are retried and counted, and hold nothing up.
        '    - type: webhook',
        '      name: down',
        '      url: http://127.0.0.1:9/nobody-listens',
        '      secret: another-secret-value',
      ].join('\n'),
    );
    f = await GateFixture.start({ GATE_CONFIG: config, TEST_WEBHOOK_SECRET: SECRET });
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
    hook?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('POSTs each new request signed, retried after a failure; the receiver approves through the API: a stale digest is refused, the current one accepted', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, { action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rails db:migrate' } }, reasons: ['Command with medium risk'] });
    const created = await eventually('the created event at the receiver', () => hook.received.find((r) => r.body.type === 'gate.request.created' && r.body.request.session_id === session));
    // The first delivery got 503: it was retried, and the retry verified.
    expect(hook.answers[0]).toBe(503);
    expect(created.verified).toBe(true);
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.headers['x-warden-event-id']).toBe(created.body.id);
    const request = created.body.request as Record<string, any>;
    expect(request).toMatchObject({ gate_id: 'migrations', session_id: session, agent_id: AGENT, status: 'pending', summary: 'Migration requested: rails db:migrate' });
    expect(request.details.action).toMatchObject({ tool: 'Bash', input: { command: 'rails db:migrate' } });
    expect(created.body.digest).toBe(request.digest);
    expect(created.body.links).toEqual({ approval: `https://warden.example.test/approvals/${request.request_id}` });
    expect(created.body.answer).toEqual({ method: 'POST', path: `/gateway/requests/${request.request_id}/respond`, body: { approved: true, digest: request.digest } });

    // An operator rewrites the held action: the receiver is told, with the new digest.
    await f.command(session, 'rewrite', { original_trace_id: verdict.trace_id, new_content: JSON.stringify({ command: 'rails db:migrate:status' }) });
    const changed = await eventually('the changed event', () => hook.received.find((r) => r.body.type === 'gate.request.changed' && r.body.request.session_id === session));
    expect(changed.verified).toBe(true);
    expect(changed.body.request.details.action.input).toEqual({ command: 'rails db:migrate:status' });

    // The receiver answers what it showed first: refused; then what it shows now: accepted.
    const stale = await f.http('POST', `/gateway/requests/${request.request_id}/respond`, { body: { approved: true, digest: request.digest } });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toMatch(/^digest_mismatch: the action changed since it was shown/);
    const current = await f.http('POST', `/gateway/requests/${request.request_id}/respond`, { body: { approved: true, digest: changed.body.digest } });
    expect(current).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'allow', operator_id: OPERATOR, updated_input: { command: 'rails db:migrate:status' } });

    const resolved = await eventually('the resolved event', () => hook.received.find((r) => r.body.type === 'gate.request.resolved' && r.body.request.session_id === session));
    expect(resolved.body.request).toMatchObject({ status: 'approved', approver: OPERATOR, channel: 'api', answered_digest: changed.body.digest });
    expect(hook.received.filter((r) => r.body.request.session_id === session).map((r) => r.body.type)).toEqual(['gate.request.created', 'gate.request.changed', 'gate.request.resolved']);
  });

  it('never holds the decision path up: with a receiver down, actions pass at once and the failures are counted', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session);
    expect((await f.waitDecision(session, verdict.payload.action_id, 5_000)).payload).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });
    await eventually('failed deliveries to the receiver that is down', async () =>
      /warden_gate_approval_deliveries_total\{[^}]*channel="down"[^}]*result="failed"[^}]*\} [1-9]/.test(await (await fetch(`${f.gate.url}/metrics`)).text()),
    );
  });
});
