import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATOR_REJECTION_PROMPT, validateMessage } from '@warden/contracts';
import { approvalDigest } from '@warden/gate';
import { eventually } from '@warden/testing';
import { AGENT, GateFixture, OPERATOR } from './gate-fixture.js';

/**
 * Human gates (seed 002 §6) over real NATS and HTTP: conditions from a configuration file, approval
 * requests with summary and details, answers that must name a pending request, and final deadlines
 * that escalate and deny (short deadlines here).
 */
describe('human gates', () => {
  let f: GateFixture;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gate-config-'));
    const config = join(dir, 'gates.yaml');
    writeFileSync(
      config,
      [
        'standard_gates:',
        '  production_deploy: { timeout_ms: 600000 }',
        '  cost_overrun: { enabled: false }',
        'gates:',
        '  - id: migrations',
        '    prompt: Database migrations need a DBA.',
        "    summary: 'Migration requested: {action.input.command}'",
        '    when:',
        '      all:',
        '        - { path: action.tool, equals: Bash }',
        "        - { path: action.input.command, matches: '\\bmigrate\\b' }",
        '    timeout_ms: 600000',
        '    escalation: dba_on_call',
        '  - id: quick_deny',
        '    prompt: Publishing needs an answer within a moment.',
        '    when: { path: action.input.command, matches: "^npm publish" }',
        '    timeout_ms: 1500',
        '    escalation: release_manager',
      ].join('\n'),
    );
    f = await GateFixture.start({ GATE_CONFIG: config });
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  const bash = (command: string) => ({ action: { kind: 'tool_use', tool: 'Bash', input: { command } }, verdict: 'allow' as const, reasons: ['Command with medium risk'] });

  async function requested(session: string) {
    const [event] = await f.waitOn('gate', session, 'gate.requested');
    return event!.body as Record<string, any>;
  }

  it('lists the gates in effect: the standard ones with overrides, without the disabled one, and the custom ones', async () => {
    const { status, body } = await f.http('GET', '/gateway/gates');
    expect(status).toBe(200);
    const ids = body.gates.map((g: { id: string }) => g.id);
    expect(ids).toEqual(['architecture_approval', 'production_deploy', 'security_findings', 'migrations', 'quick_deny']);
    expect(body.gates[1]).toEqual(expect.objectContaining({ id: 'production_deploy', timeout_ms: 600000, escalation: 'deployment_lead' }));
    expect(body.gates[1].on_timeout).toBeUndefined();
  });

  it('pauses the session when a custom gate condition holds and asks for approval with a summary and details', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, bash('npx prisma migrate deploy'));
    const request = await requested(session);
    expect(validateMessage(request)).toMatchObject({ ok: true });
    expect(request.payload).toMatchObject({
      gate_id: 'migrations',
      prompt: 'Database migrations need a DBA.',
      summary: 'Migration requested: npx prisma migrate deploy',
      timeout_ms: 600000,
      escalation: 'dba_on_call',
      expires_at: expect.any(String),
      action_id: verdict.payload.action_id,
      details: { action: { tool: 'Bash', input: { command: 'npx prisma migrate deploy' } }, review: { verdict: 'allow' } },
    });
    const view = await f.waitBuffered(session, 1);
    expect(view).toMatchObject({ status: 'paused', trigger: 'gate', paused_by: 'system' });
    expect(view.messages[0]).toMatchObject({ trace_id: verdict.trace_id, needs_approval: true, holds: ['gate'], gate_ids: ['migrations'] });
    const [open] = await f.waitOn('gate', session, 'hitl.paused');
    expect(open!.body.payload).toMatchObject({ trigger: 'gate', request_id: request.payload.request_id });

    const pending = await f.http('GET', '/gateway/requests');
    expect(pending.body.requests.map((r: { request_id: string }) => r.request_id)).toContain(request.payload.request_id);
    const one = await f.http('GET', `/gateway/requests/${request.payload.request_id}`);
    expect(one.body).toMatchObject({ status: 'pending', session_id: session, agent_id: AGENT, gate_id: 'migrations' });
    expect(f.on('decision', session)).toHaveLength(0);

    const answer = await f.http('POST', `/gateway/requests/${request.payload.request_id}/respond`, {
      body: { approved: true, digest: request.payload.digest, conditions: ['Take a backup first', 'Run it on staging before'] },
    });
    expect(answer).toEqual({ status: 200, body: { status: 'ok' } });
    const decision = await f.waitDecision(session, verdict.payload.action_id);
    expect(decision.payload).toMatchObject({ decision: 'allow', decided_by: 'operator', operator_id: OPERATOR });
    expect(decision.payload.reason).toContain('with conditions: Take a backup first; Run it on staging before');
    expect(decision.payload.reasons.slice(0, 2)).toEqual(['Condition: Take a backup first', 'Condition: Run it on staging before']);
    const [responded] = await f.waitOn('gate', session, 'gate.responded');
    expect(responded!.body.payload).toMatchObject({
      request_id: request.payload.request_id,
      gate_id: 'migrations',
      approved: true,
      approver: OPERATOR,
      conditions: ['Take a backup first', 'Run it on staging before'],
      outcome: 'approved_with_conditions',
    });
    expect((await f.http('GET', `/gateway/requests/${request.payload.request_id}`)).body).toMatchObject({ status: 'approved_with_conditions', approver: OPERATOR });
  });

  it('rejects: the agent is told first, the held action is denied with the reason', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, bash('rake db:migrate'.replace('db:migrate', 'migrate')));
    const request = await requested(session);
    const answer = await f.http('POST', `/gateway/requests/${request.payload.request_id}/respond`, { body: { approved: false, reason: 'Not during the release freeze' } });
    expect(answer.body).toEqual({ status: 'ok' });
    await f.waitDecision(session, verdict.payload.action_id);
    const sent = f.toAgent(session).map((m) => m.body as Record<string, any>);
    expect(sent.map((m) => m.type)).toEqual(['control.issued', 'decision.made']);
    expect(sent[0]!.payload.message).toBe(OPERATOR_REJECTION_PROMPT);
    expect(sent[1]!.payload).toMatchObject({ decision: 'deny', decided_by: 'operator', reason: `Rejected by operator ${OPERATOR}: Not during the release freeze` });
    expect((await f.waitOn('gate', session, 'gate.responded'))[0]!.body.payload).toMatchObject({ approved: false, outcome: 'rejected', reason: 'Not during the release freeze' });
  });

  it('refuses an answer to an unknown request (404) and to one already answered (409), changing nothing', async () => {
    expect(await f.http('POST', '/gateway/requests/no-such-request/respond', { body: { approved: true, digest: '0'.repeat(64) } })).toEqual({
      status: 404,
      body: { status: 'error', reason: 'unknown_request' },
    });
    const session = f.newSession();
    const verdict = await f.verdict(session, bash('./manage.py migrate'));
    const request = await requested(session);
    const id = request.payload.request_id as string;
    expect((await f.http('POST', `/gateway/requests/${id}/respond`, { body: {} })).body).toEqual({ status: 'error', reason: 'missing_required_field: approved' });
    expect((await f.http('POST', `/gateway/requests/${id}/respond`, { body: { approved: false, conditions: ['x'] } })).status).toBe(422);
    expect((await f.http('POST', `/gateway/requests/${id}/respond`, { body: { approved: true } })).body).toEqual({
      status: 'error',
      reason: 'missing_required_field: digest (approve exactly what was shown: send the digest of the request you read)',
    });
    expect((await f.http('POST', `/gateway/requests/${id}/respond`, { body: { approved: true, digest: request.payload.digest } })).body).toEqual({ status: 'ok' });
    await f.waitDecision(session, verdict.payload.action_id);
    expect(await f.http('POST', `/gateway/requests/${id}/respond`, { body: { approved: false } })).toEqual({
      status: 409,
      body: { status: 'error', reason: 'request_already_answered: approved' },
    });
    expect(f.on('decision', session)).toHaveLength(1);
    expect(f.on('gate', session, 'gate.responded')).toHaveLength(1);
    // An unpause that names a request it does not hold is refused the same way.
    expect((await f.command(session, 'unpause', { request_id: id, digest: request.payload.digest })).body).toEqual({ status: 'error', reason: 'request_already_answered: approved' });
  });

  it('at the final deadline: escalates, then denies, telling the agent nobody answered and who was asked', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, bash('npm publish --access public'));
    const request = await requested(session);
    const decision = await f.waitDecision(session, verdict.payload.action_id, 20_000);
    const reason = "Nobody answered the approval request of gate quick_deny within 1.5 s (asked: the operators' queue only (no approval channel)); the action is denied: nothing is approved without an answer.";
    expect(decision.payload).toMatchObject({ decision: 'deny', decided_by: 'gate_timeout', reason });
    const [escalated] = await f.waitOn('gate', session, 'gate.escalated');
    expect(escalated!.body.payload).toMatchObject({ request_id: request.payload.request_id, gate_id: 'quick_deny', escalation: 'release_manager', reason: 'TIMEOUT', timeout_ms: 1500 });
    const [responded] = await f.waitOn('gate', session, 'gate.responded');
    expect(responded!.body.payload).toMatchObject({ approved: false, approver: 'system', reason: 'TIMEOUT', outcome: 'timed_out' });
    const sent = f.toAgent(session);
    expect(sent.map((m) => m.body.type)).toEqual(['control.issued', 'decision.made']);
    expect(sent[0]!.body.payload).toMatchObject({ kind: 'operator_message', message: `${reason} Do not retry it without an approval.` });
    expect((await f.http('GET', `/gateway/requests/${request.payload.request_id}`)).body).toMatchObject({ status: 'timed_out', approver: 'system', reason, asked: [] });
    const record = f.recorder.messages.findIndex((m) => m.body.type === 'gate.escalated' && m.body.session_id === session);
    const answer = f.recorder.messages.findIndex((m) => m.body.type === 'gate.responded' && m.body.session_id === session);
    expect(record).toBeLessThan(answer);
    expect((await f.http('POST', `/gateway/requests/${request.payload.request_id}/respond`, { body: { approved: true, digest: request.payload.digest } })).status).toBe(409);
  });

  it('asks the standard production deploy gate in a production deployment phase, once per phase', async () => {
    const session = f.newSession();
    await f.sessionEvent(session, 'session.started', { context: { goal: 'Ship 1.2' }, phase: 'deployment', environment: 'production' });
    await f.waitProcessed('session', 'session.started', 1);
    const first = await f.verdict(session, bash('kubectl apply -f deploy/'));
    const request = await requested(session);
    expect(request.payload).toMatchObject({ gate_id: 'production_deploy', phase: 'deployment', summary: 'Production deployment requested: Bash kubectl apply -f deploy/' });
    expect(request.payload.details).toMatchObject({ phase: 'deployment', environment: 'production' });
    await f.http('POST', `/gateway/requests/${request.payload.request_id}/respond`, { body: { approved: true, digest: request.payload.digest } });
    await f.waitDecision(session, first.payload.action_id);
    // Approved for the rest of this phase: the next deployment action passes.
    const second = await f.verdict(session, bash('kubectl rollout status deploy/app'));
    expect((await f.waitDecision(session, second.payload.action_id)).payload).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });
    // A new phase asks again.
    await f.sessionEvent(session, 'session.phase_changed', { phase: 'testing', previous_phase: 'deployment' });
    await f.sessionEvent(session, 'session.phase_changed', { phase: 'deployment', previous_phase: 'testing' });
    await f.waitProcessed('session', 'session.phase_changed', 2);
    await f.verdict(session, bash('kubectl apply -f deploy/'));
    await f.waitOn('gate', session, 'gate.requested', 2);
  });

  it('does not ask outside the gate\'s phase or when the condition fails', async () => {
    const session = f.newSession();
    await f.sessionEvent(session, 'session.started', { context: {}, phase: 'implementation', environment: 'production' });
    await f.waitProcessed('session', 'session.started', 2);
    const verdict = await f.verdict(session, bash('kubectl apply -f deploy/'));
    expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'allow' });
    expect(f.on('gate', session, 'gate.requested')).toHaveLength(0);
  });

  it('asks the security gate for a critical security finding that the reviewer let through', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, {
      verdict: 'warn',
      reasons: ['Reads a credentials file'],
      risk: { score: 0.9, severity: 'critical', factors: ['secret_file_read'] },
      action: { kind: 'tool_use', tool: 'Read', input: { file_path: '/home/me/.aws/credentials' } },
    });
    const request = await requested(session);
    expect(request.payload).toMatchObject({ gate_id: 'security_findings', summary: '1 critical security finding(s) detected: Read /home/me/.aws/credentials' });
    await f.http('POST', `/gateway/requests/${request.payload.request_id}/respond`, { body: { approved: false } });
    expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'deny' });
  });

  it('never gates a blocked action: it is denied at once', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, { ...bash('npm publish'), verdict: 'block', reasons: ['Publishing is blocked'] });
    expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'deny', decided_by: 'reviewer' });
    expect(f.on('gate', session, 'gate.requested')).toHaveLength(0);
  });

  it('lets one answer serve every action a gate held in the window', async () => {
    const session = f.newSession();
    const first = await f.verdict(session, bash('./migrate up 1'));
    const request = await requested(session);
    const second = await f.verdict(session, bash('./migrate up 2'));
    await f.waitBuffered(session, 2);
    await f.http('POST', `/gateway/requests/${request.payload.request_id}/respond`, { body: { approved: true, digest: request.payload.digest } });
    await f.waitDecision(session, second.payload.action_id);
    expect(f.on('gate', session, 'gate.requested')).toHaveLength(1);
    expect(f.on('decision', session).map((m) => (m.body.payload as { action_id: string; decision: string }).decision)).toEqual(['allow', 'allow']);
    expect(f.on('decision', session).map((m) => (m.body.payload as { action_id: string }).action_id)).toEqual([first.payload.action_id, second.payload.action_id]);
  });

  it('approves exactly what was shown: an approval with a stale digest is refused (409), the current one accepted', async () => {
    const session = f.newSession();
    const verdict = await f.verdict(session, bash('./migrate up 3'));
    const request = await requested(session);
    const id = request.payload.request_id as string;
    const shown = (await f.http('GET', `/gateway/requests/${id}`)).body;
    // The digest covers what every channel shows: session, agent, gate, tool, input and why it was held.
    expect(shown.digest).toBe(approvalDigest({ session_id: session, agent_id: AGENT, gate_id: 'migrations', summary: 'Migration requested: ./migrate up 3', details: { action: { tool: 'Bash', input: { command: './migrate up 3' } } } }));
    expect(request.payload.digest).toBe(shown.digest);
    expect((await f.http('POST', `/gateway/requests/${id}/respond`, { body: { approved: true, digest: 'abc' } })).status).toBe(422);

    // Another operator rewrites the held action after it was shown: the request shows the new input, under a new digest.
    expect((await f.command(session, 'rewrite', { original_trace_id: verdict.trace_id, new_content: JSON.stringify({ command: './migrate up 3 --dry-run' }) })).status).toBe(200);
    const now = (await f.http('GET', `/gateway/requests/${id}`)).body;
    expect(now.details.action.input).toEqual({ command: './migrate up 3 --dry-run' });
    expect(now.digest).not.toBe(shown.digest);

    const stale = await f.http('POST', `/gateway/requests/${id}/respond`, { body: { approved: true, digest: shown.digest } });
    expect(stale).toEqual({ status: 409, body: { status: 'error', reason: 'digest_mismatch: the action changed since it was shown; read the request again and answer what it shows now' } });
    // The same refusal through the session's approve endpoint.
    expect((await f.command(session, 'approve', { request_id: id, digest: shown.digest })).status).toBe(409);
    expect(f.on('decision', session)).toHaveLength(0);
    expect((await f.http('GET', `/gateway/requests/${id}`)).body.status).toBe('pending');

    expect(await f.http('POST', `/gateway/requests/${id}/respond`, { body: { approved: true, digest: now.digest } })).toEqual({ status: 200, body: { status: 'ok' } });
    const decision = await f.waitDecision(session, verdict.payload.action_id);
    expect(decision.payload).toMatchObject({ decision: 'allow', decided_by: 'operator', updated_input: { command: './migrate up 3 --dry-run' } });
    const [responded] = await f.waitOn('gate', session, 'gate.responded');
    expect(responded!.body.payload).toMatchObject({ approved: true, channel: 'api', digest: now.digest });
    expect((await f.http('GET', `/gateway/requests/${id}`)).body).toMatchObject({ status: 'approved', channel: 'api', answered_digest: now.digest });
  });

  it('counts gate requests by gate and outcome in its metrics', async () => {
    await eventually('the timed_out count', async () => /warden_gate_requests_total\{[^}]*gate="quick_deny",outcome="timed_out"[^}]*\} 1/.test(await (await fetch(`${f.gate.url}/metrics`)).text()));
    const text = await (await fetch(`${f.gate.url}/metrics`)).text();
    expect(text).toMatch(/warden_gate_requests_total\{[^}]*gate="migrations",outcome="approved_with_conditions"[^}]*\} 1/);
    expect(text).toMatch(/warden_gate_response_time_seconds_count\{[^}]*gate="migrations"[^}]*\} [1-9]/);
    expect(text).toMatch(/warden_gate_pauses_total\{[^}]*trigger="gate"[^}]*\} [1-9]/);
    expect(text).toMatch(/warden_gate_flush_duration_seconds_count\{[^}]*\} [1-9]/);
  });
});
