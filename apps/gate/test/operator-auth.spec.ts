import { OPERATOR_ID_HEADER, OPERATOR_REJECTION_PROMPT } from '@warden/contracts';
import { OperatorStore } from '@warden/operator-auth';
import { AGENT, GateFixture, OPERATOR, VIEWER } from './gate-fixture.js';

/**
 * Who may call the operator API (FR-11.6 with real authentication): 401 with a reason for missing or
 * bad credentials, 403 for a role that may not, and in both cases nothing reaches the relay. Then the
 * two operator actions the console needs: an emergency stop and the FRD's two-call reject.
 */
describe('operator authentication of the gate API', () => {
  let f: GateFixture;

  beforeAll(async () => {
    f = await GateFixture.start();
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  const COMMANDS = ['pause', 'unpause', 'rewrite', 'inject', 'approve', 'reject', 'rewrite-and-approve', 'stop', 'commands'];

  it('answers 401 missing_credentials without a token, the FRD header alone included, before the body and the relay', async () => {
    const session = f.newSession();
    for (const command of COMMANDS) {
      const response = await f.http('POST', `/gateway/sessions/${session}/${command}`, { body: f.body({ reason: 'x', type: 'hitl_pause' }), as: null, header: OPERATOR });
      expect(response).toEqual({ status: 401, body: { status: 'error', reason: 'missing_credentials', detail: expect.stringContaining('Bearer') } });
    }
    expect(await f.http('POST', `/gateway/sessions/${session}/pause`, { raw: '{"agent_id": oops', as: null })).toMatchObject({ status: 401, body: { reason: 'missing_credentials' } });
    for (const path of ['/gateway/sessions', `/gateway/sessions/${session}`, '/gateway/requests', '/gateway/gates', '/gateway/requests/r-1']) {
      expect((await f.http('GET', path, { as: null })).status).toBe(401);
    }
    expect(f.on('gate_command', session)).toHaveLength(0);
    expect((await f.view(session)).status).toBe('normal');
  });

  it('says why a credential is refused, with a WWW-Authenticate challenge', async () => {
    const session = f.newSession();
    const call = (headers: Record<string, string>) =>
      fetch(`${f.gate.url}/gateway/sessions/${session}/pause`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(f.body({ reason: 'x' })) });
    const unknown = await call({ authorization: `Bearer wdn_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain('Bearer realm="warden"');
    expect(await unknown.json()).toMatchObject({ status: 'error', reason: 'invalid_token' });
    expect(await (await call({ authorization: `Basic ${Buffer.from('operator-xander:pw').toString('base64')}` })).json()).toMatchObject({ reason: 'malformed_authorization' });
    expect(await (await call({ authorization: 'Bearer not-a-warden-token' })).json()).toMatchObject({ reason: 'malformed_authorization' });
    expect(f.on('gate_command', session)).toHaveLength(0);
  });

  it('accepts X-Observatory-Operator-Id only when it names the operator the token authenticates', async () => {
    const session = f.newSession();
    const impersonation = await f.http('POST', `/gateway/sessions/${session}/pause`, { body: f.body({ reason: 'x' }), header: 'operator-yuki' });
    expect(impersonation).toMatchObject({ status: 401, body: { status: 'error', reason: 'operator_id_mismatch' } });
    expect(f.on('gate_command', session)).toHaveLength(0);

    // Blank counts as absent (FR-11.6's trim): the operator is the token's.
    const blank = await f.http('POST', `/gateway/sessions/${session}/pause`, { body: f.body({ reason: 'x' }), header: '   ' });
    expect(blank).toEqual({ status: 200, body: { status: 'ok' } });
    const none = await f.http('POST', `/gateway/sessions/${session}/unpause`, { body: f.body(), header: null });
    expect(none).toEqual({ status: 200, body: { status: 'ok' } });
    await f.waitOn('gate', session, 'hitl.resumed');
    const records = await f.waitOn('gate', session, 'hitl.intervention_recorded', 3);
    expect(records.map((r) => (r.body.payload as { command_type: string; operator_id: string }).operator_id)).toEqual([OPERATOR, OPERATOR, OPERATOR]);
    expect(f.on('gate_command', session).map((m) => (m.body.payload as { operator_id: string }).operator_id)).toEqual([OPERATOR, OPERATOR]);
  });

  it('lets a viewer read and answers 403 to every change, which then does not happen', async () => {
    const session = f.newSession();
    const held = await f.verdict(session, { verdict: 'require_approval', reasons: ['Needs a look'] });
    await f.waitBuffered(session, 1);
    expect((await f.http('GET', `/gateway/sessions/${session}`, { as: VIEWER })).status).toBe(200);
    expect((await f.http('GET', '/gateway/sessions', { as: VIEWER })).status).toBe(200);
    for (const command of COMMANDS) {
      const response = await f.http('POST', `/gateway/sessions/${session}/${command}`, {
        as: VIEWER,
        body: f.body({ type: 'hitl_unpause', reason: 'x', prompt: 'p', original_trace_id: held.trace_id, new_content: '{"file_path":"/etc/passwd"}' }),
      });
      expect(response).toEqual({ status: 403, body: { status: 'error', reason: 'forbidden', detail: `operator ${VIEWER} is a viewer; this needs approver (decide)` } });
    }
    expect((await f.http('POST', '/gateway/requests/anything/respond', { as: VIEWER, body: { approved: true } })).status).toBe(403);
    expect(f.on('gate_command', session)).toHaveLength(0);
    const view = await f.view(session);
    expect(view.status).toBe('paused');
    expect(view.messages.map((m: { rewritten: boolean }) => m.rewritten)).toEqual([false]);
    await f.command(session, 'approve');
    await f.waitDecision(session, held.payload.action_id);
  });

  it('stops honouring a token as soon as it is revoked or its operator removed', async () => {
    const store = new OperatorStore(f.bus.nc);
    await store.add('temp-op', 'approver', { createdBy: 'test' });
    const token = await store.issueToken('temp-op');
    const call = () => f.http('GET', '/gateway/sessions', { as: null, token, header: null });
    expect((await call()).status).toBe(200);
    await store.revokeTokens('temp-op');
    expect(await call()).toMatchObject({ status: 401, body: { reason: 'invalid_token' } });
    const again = await store.issueToken('temp-op');
    expect((await f.http('GET', '/gateway/sessions', { as: null, token: again, header: null })).status).toBe(200);
    await store.remove('temp-op');
    expect(await f.http('GET', '/gateway/sessions', { as: null, token: again, header: null })).toMatchObject({ status: 401, body: { reason: 'invalid_token' } });
  });

  it('records the authenticated operator, named by the token and the header, in the audit record (FR-11.6)', async () => {
    const session = f.newSession();
    const response = await f.http('POST', `/gateway/sessions/${session}/pause`, { body: f.body({ reason: 'x' }), header: `  ${OPERATOR}  ` });
    expect(response.body).toEqual({ status: 'ok' });
    const [record] = await f.waitOn('gate', session, 'hitl.intervention_recorded');
    expect(record!.body.payload).toMatchObject({ operator_id: OPERATOR, command_type: 'hitl_pause' });
    await f.command(session, 'unpause');
  });

  it('describes the endpoints, the bearer scheme and the header rule in the OpenAPI document (FR-11.5)', async () => {
    const response = await fetch(`${f.gate.url}/gateway/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, any>;
    expect(document.openapi).toBe('3.1.0');
    for (const command of ['pause', 'unpause', 'rewrite', 'inject']) expect(Object.keys(document.paths)).toContain(`/gateway/sessions/{session_id}/${command}`);
    expect(document.components.securitySchemes.operatorToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.operatorToken.description).toContain(OPERATOR_ID_HEADER);
    expect(Object.keys(document.paths['/gateway/sessions/{session_id}/approve'].post.responses)).toEqual(expect.arrayContaining(['401', '403']));
  });

  describe('emergency stop', () => {
    it('pauses the session and tells the agent to stop; approving resumes it', async () => {
      const session = f.newSession();
      expect(await f.command(session, 'stop', { reason: 'Looping on the deploy' })).toEqual({ status: 200, body: { status: 'ok' } });
      const [stop] = await f.waitOn('control', session, 'control.issued');
      expect(stop!.body.payload).toMatchObject({ kind: 'emergency_stop', requires_ack: true, message: `Emergency stop by operator ${OPERATOR}: Looping on the deploy` });
      expect((await f.view(session)).status).toBe('paused');
      const held = await f.verdict(session);
      await f.waitBuffered(session, 1);
      await f.command(session, 'approve');
      await f.waitDecision(session, held.payload.action_id);
      const controls = await f.waitOn('control', session, 'control.issued', 2);
      expect(controls[1]!.body.payload).toMatchObject({ kind: 'resume' });
    });

    it('stops the agent of a session that was already paused, and rejecting leaves it stopped', async () => {
      const session = f.newSession();
      const held = await f.verdict(session, { verdict: 'require_approval' });
      await f.waitBuffered(session, 1);
      expect((await f.command(session, 'stop')).body).toEqual({ status: 'ok', note: 'already_paused' });
      await f.waitOn('control', session, 'control.issued');
      await f.command(session, 'reject');
      expect((await f.waitDecision(session, held.payload.action_id)).payload).toMatchObject({ decision: 'deny' });
      await f.waitOn('gate', session, 'hitl.resumed');
      const kinds = f.on('control', session, 'control.issued').map((m) => (m.body.payload as { kind: string }).kind);
      expect(kinds).toEqual(['emergency_stop', 'operator_message']);
    });
  });

  describe("the FRD's reject: inject the prompt, then unpause", () => {
    it('sends the rejection prompt once and first, denies the held action, and records the inject once', async () => {
      const session = f.newSession();
      const deletion = await f.verdict(session, { verdict: 'require_approval', action: { kind: 'tool_use', tool: 'schedule_deletion', input: { target: 'db' } } });
      const read = await f.verdict(session);
      await f.waitBuffered(session, 2);
      expect((await f.command(session, 'inject', { prompt: OPERATOR_REJECTION_PROMPT })).body).toEqual({ status: 'ok' });
      expect((await f.command(session, 'unpause', { resolution: 'reject' })).body).toEqual({ status: 'ok' });
      await f.waitDecision(session, read.payload.action_id);
      await f.waitOn('gate', session, 'hitl.resumed');
      const sent = f.toAgent(session).map((m) => m.body as Record<string, any>);
      expect(sent.map((m) => m.payload.message ?? `${m.payload.action_id}:${m.payload.decision}`)).toEqual([
        OPERATOR_REJECTION_PROMPT,
        `${deletion.payload.action_id}:deny`,
        `${read.payload.action_id}:allow`,
      ]);
      const records = f.on('gate', session, 'hitl.intervention_recorded').filter((r) => !(r.body.payload as { reversed_at: string | null }).reversed_at);
      expect(records.map((r) => (r.body.payload as { command_type: string }).command_type)).toEqual(['hitl_inject', 'hitl_unpause']);
      expect(sent.every((m) => m.agent_id === AGENT)).toBe(true);
    });
  });
});
