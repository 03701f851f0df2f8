import { createHash } from 'node:crypto';
import { GATE_BUFFER_STREAM, gateBufferSubject, OPERATOR_REJECTION_PROMPT, partitionOf, sessionSubscription, validateMessage } from '@warden/contracts';
import { eventually } from '@warden/testing';
import { AGENT, GateFixture, OPERATOR } from './gate-fixture.js';

/**
 * FRD-011 over real NATS and HTTP: every FR-11.1 … FR-11.10 positive and negative path, against a gate
 * running in this process (crash and restart paths are whole-suite scenarios: test/suite/scenarios/gate-*).
 */
describe('HITL intervention API (FRD-011)', () => {
  let f: GateFixture;

  beforeAll(async () => {
    f = await GateFixture.start();
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  const actionIdsOf = (session: string) => f.toAgent(session).map((m) => (m.body.payload as { action_id?: string; message?: string }).action_id ?? `control:${(m.body.payload as { message?: string }).message}`);

  /** Pauses a session and buffers verdicts; returns them once the buffer holds them all. */
  async function pausedWith(session: string, count: number, payloads: Record<string, unknown>[] = []) {
    expect((await f.command(session, 'pause')).body).toEqual({ status: 'ok' });
    const verdicts = [];
    for (let i = 0; i < count; i++) verdicts.push(await f.verdict(session, payloads[i] ?? {}));
    await f.waitBuffered(session, count);
    return verdicts;
  }

  describe('FR-11.1 state machine Normal ↔ Paused', () => {
    it('forwards at once when Normal, holds when Paused, and flushes in order on unpause', async () => {
      const session = f.newSession();
      const before = await f.verdict(session);
      expect((await f.waitDecision(session, before.payload.action_id)).payload).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });

      const held = await pausedWith(session, 3);
      expect(actionIdsOf(session)).toEqual([before.payload.action_id]);
      expect((await f.view(session)).status).toBe('paused');

      expect(await f.command(session, 'unpause')).toEqual({ status: 200, body: { status: 'ok' } });
      await f.waitDecision(session, held[2]!.payload.action_id);
      expect(actionIdsOf(session)).toEqual([before.payload.action_id, ...held.map((v) => v.payload.action_id)]);
      expect((await f.view(session)).status).toBe('normal');

      const after = await f.verdict(session);
      await f.waitDecision(session, after.payload.action_id);
    });

    it('treats a second pause as a no-op: 200 with note already_paused, buffer kept', async () => {
      const session = f.newSession();
      const held = await pausedWith(session, 2);
      const hashes = (await f.view(session)).messages.map((m: { content_sha256: string }) => m.content_sha256);
      expect(await f.command(session, 'pause', { reason: 'again' })).toEqual({ status: 200, body: { status: 'ok', note: 'already_paused' } });
      const view = await f.view(session);
      expect(view.status).toBe('paused');
      expect(view.messages.map((m: { content_sha256: string }) => m.content_sha256)).toEqual(hashes);
      expect(f.on('gate', session, 'hitl.paused')).toHaveLength(1);
      await f.command(session, 'unpause');
      await f.waitDecision(session, held[1]!.payload.action_id);
      expect(actionIdsOf(session)).toEqual(held.map((v) => v.payload.action_id));
    });
  });

  describe('FR-11.2 durable buffer keyed by session and agent', () => {
    it('holds T1, T2, T3 in arrival order, rewrites T2 in place, and flushes T1, T2 rewritten, T3', async () => {
      const session = f.newSession();
      const [t1, t2, t3] = await pausedWith(session, 3, [
        {},
        { action: { kind: 'tool_use', tool: 'Bash', input: { command: 'npm test' } }, verdict: 'allow' },
        {},
      ]);
      const stored = await f.bus.jsm.streams.info(GATE_BUFFER_STREAM, { subjects_filter: gateBufferSubject(AGENT, session) });
      expect(stored.state.subjects).toEqual({ [gateBufferSubject(AGENT, session)]: 3 });

      const rewritten = await f.command(session, 'rewrite', { original_trace_id: t2!.trace_id, new_content: '{"command":"npm test -- src/parser.test.ts"}' });
      expect(rewritten).toEqual({ status: 200, body: { status: 'ok' } });
      const view = await f.view(session);
      expect(view.messages.map((m: { trace_id: string; rewritten: boolean }) => [m.trace_id, m.rewritten])).toEqual([
        [t1!.trace_id, false],
        [t2!.trace_id, true],
        [t3!.trace_id, false],
      ]);
      expect(view.messages[1].content.input).toEqual({ command: 'npm test -- src/parser.test.ts' });

      await f.command(session, 'unpause');
      await f.waitDecision(session, t3!.payload.action_id);
      const decisions = f.on('decision', session).map((m) => m.body.payload as Record<string, any>);
      expect(decisions.map((d) => d.action_id)).toEqual([t1, t2, t3].map((v) => v!.payload.action_id));
      expect(decisions[1]).toMatchObject({ decision: 'allow', decided_by: 'operator', operator_id: OPERATOR, updated_input: { command: 'npm test -- src/parser.test.ts' } });
      expect(decisions[0]).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });
      expect(decisions[0].updated_input).toBeUndefined();
    });

    it('keeps the buffers of two agents of one session apart', async () => {
      const session = f.newSession();
      await f.command(session, 'pause');
      const mine = await f.verdict(session);
      const other = await f.verdict(session, {}, { agentId: 'agent-2' });
      // agent-2 is not paused: its decision passes.
      await f.waitDecision(session, other.payload.action_id);
      await f.waitBuffered(session, 1);
      expect((await f.view(session, 'agent-2')).status).toBe('normal');
      await f.command(session, 'unpause');
      await f.waitDecision(session, mine.payload.action_id);
    });

    it('refuses a rewrite of a trace id that is not buffered with 422 trace_id_not_found_in_buffer and changes nothing', async () => {
      const session = f.newSession();
      const held = await pausedWith(session, 2);
      const before = (await f.view(session)).messages;
      expect(await f.command(session, 'rewrite', { original_trace_id: 'not-buffered-trace', new_content: '{"command":"ls"}' })).toEqual({
        status: 422,
        body: { status: 'error', reason: 'trace_id_not_found_in_buffer' },
      });
      expect((await f.view(session)).messages).toEqual(before);
      await f.command(session, 'unpause');
      await f.waitDecision(session, held[1]!.payload.action_id);
      expect(f.on('decision', session).every((m) => (m.body.payload as { updated_input?: unknown }).updated_input === undefined)).toBe(true);
    });

    it('refuses a body nested deeper than an operator ever sends with 400 body_too_deep, and changes nothing', async () => {
      const session = f.newSession();
      const [held] = await pausedWith(session, 1);
      const before = (await f.view(session)).messages;
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const raw = `{"agent_id":"${AGENT}","timestamp":"${new Date().toISOString()}","original_trace_id":"${held!.trace_id}","new_content":{"input":${deep}}}`;
      const response = await f.http('POST', `/gateway/sessions/${session}/rewrite`, { raw });
      expect(response).toMatchObject({ status: 400, body: { reason: 'body_too_deep' } });
      expect((await f.view(session)).messages).toEqual(before);
      await f.command(session, 'unpause');
      await f.waitDecision(session, held!.payload.action_id);
      expect(f.on('decision', session).every((m) => (m.body.payload as { updated_input?: unknown }).updated_input === undefined)).toBe(true);
    });

    it('refuses a rewrite when the session is not paused', async () => {
      const session = f.newSession();
      const verdict = await f.verdict(session);
      await f.waitDecision(session, verdict.payload.action_id);
      expect((await f.command(session, 'rewrite', { original_trace_id: verdict.trace_id, new_content: '{"command":"ls"}' })).body).toEqual({
        status: 'error',
        reason: 'trace_id_not_found_in_buffer',
      });
    });

    it('refuses new content for a held action that is not a JSON object (the input to run)', async () => {
      const session = f.newSession();
      const [held] = await pausedWith(session, 1);
      const response = await f.command(session, 'rewrite', { original_trace_id: held!.trace_id, new_content: 'revised reasoning' });
      expect(response.status).toBe(422);
      expect(response.body.reason).toMatch(/^invalid_field: new_content/);
      await f.command(session, 'unpause');
    });
  });

  describe('FR-11.3 unpause flush', () => {
    it('flushes in arrival order, then empties the buffer and returns to Normal', async () => {
      const session = f.newSession();
      const held = await pausedWith(session, 5);
      await f.command(session, 'unpause');
      await f.waitOn('gate', session, 'hitl.resumed');
      expect(f.on('decision', session).map((m) => (m.body.payload as { action_id: string }).action_id)).toEqual(held.map((v) => v.payload.action_id));
      const info = await f.bus.jsm.streams.info(GATE_BUFFER_STREAM, { subjects_filter: gateBufferSubject(AGENT, session) });
      expect(info.state.subjects ?? {}).toEqual({});
      expect(f.on('gate', session, 'hitl.resumed')[0]!.body.payload).toMatchObject({ operator_id: OPERATOR, flushed: 5, resolution: 'approve' });
    });

    it('unpauses a session that buffered nothing without error', async () => {
      const session = f.newSession();
      await f.command(session, 'pause');
      expect(await f.command(session, 'unpause')).toEqual({ status: 200, body: { status: 'ok' } });
      expect((await f.waitOn('gate', session, 'hitl.resumed'))[0]!.body.payload).toMatchObject({ flushed: 0 });
      expect((await f.view(session)).status).toBe('normal');
      const verdict = await f.verdict(session);
      await f.waitDecision(session, verdict.payload.action_id);
    });

    it('answers an unpause of a session that is not paused with note not_paused', async () => {
      expect(await f.command(f.newSession(), 'unpause')).toEqual({ status: 200, body: { status: 'ok', note: 'not_paused' } });
    });
  });

  describe('FR-11.4 command types and required fields', () => {
    it('buffers an inject while paused and flushes it in its place', async () => {
      const session = f.newSession();
      const [first] = await pausedWith(session, 1);
      expect(await f.command(session, 'inject', { prompt: 'Use the staging database.' })).toEqual({ status: 200, body: { status: 'ok' } });
      const second = await f.verdict(session);
      await f.waitBuffered(session, 3);
      expect(f.on('control', session)).toHaveLength(0);
      await f.command(session, 'unpause');
      await f.waitDecision(session, second.payload.action_id);
      expect(actionIdsOf(session)).toEqual([first!.payload.action_id, 'control:Use the staging database.', second.payload.action_id]);
      expect(f.on('control', session)[0]!.body.payload).toMatchObject({ kind: 'operator_message', message: 'Use the staging database.' });
    });

    it('sends an inject at once when the session is Normal', async () => {
      const session = f.newSession();
      expect((await f.command(session, 'inject', { prompt: 'Remember the style guide.' })).body).toEqual({ status: 'ok' });
      const [control] = await f.waitOn('control', session, 'control.issued');
      expect(control!.body.payload).toMatchObject({ kind: 'operator_message', message: 'Remember the style guide.', requires_ack: false });
      expect(validateMessage(control!.body)).toMatchObject({ ok: true });
    });

    it('refuses a rewrite without original_trace_id with 422 before the relay sees it', async () => {
      const session = f.newSession();
      await f.command(session, 'pause');
      const commandsBefore = f.on('gate_command', session).length;
      expect(await f.command(session, 'rewrite', { new_content: '{"command":"ls"}' })).toEqual({
        status: 422,
        body: { status: 'error', reason: 'missing_required_field: original_trace_id' },
      });
      expect(f.on('gate_command', session)).toHaveLength(commandsBefore);
      await f.command(session, 'unpause');
    });

    const missing: [string, string, Record<string, unknown>][] = [
      ['pause', 'reason', { reason: undefined }],
      ['pause', 'agent_id', { agent_id: undefined }],
      ['pause', 'timestamp', { timestamp: undefined }],
      ['rewrite', 'new_content', { original_trace_id: 't1' }],
      ['inject', 'prompt', {}],
      ['inject', 'agent_id', { prompt: 'hi', agent_id: '  ' }],
      ['unpause', 'timestamp', { timestamp: '' }],
      ['unpause', 'agent_id', { agent_id: null }],
    ];
    it.each(missing)('%s without %s: 422 missing_required_field', async (command, field, fields) => {
      const response = await f.command(f.newSession(), command as 'pause', fields);
      expect(response).toEqual({ status: 422, body: { status: 'error', reason: `missing_required_field: ${field}` } });
    });

    it('refuses a command whose type is not one of the four with 422 unknown_command_type', async () => {
      const session = f.newSession();
      const response = await f.http('POST', `/gateway/sessions/${session}/commands`, { body: f.body({ type: 'hitl_delete', reason: 'x' }) });
      expect(response).toEqual({ status: 422, body: { status: 'error', reason: 'unknown_command_type' } });
      const onEndpoint = await f.http('POST', `/gateway/sessions/${session}/pause`, { body: f.body({ type: 'hitl_shutdown', reason: 'x' }) });
      expect(onEndpoint).toEqual({ status: 422, body: { status: 'error', reason: 'unknown_command_type' } });
    });

    it('takes any of the four commands with its type in the body', async () => {
      const session = f.newSession();
      expect((await f.http('POST', `/gateway/sessions/${session}/commands`, { body: f.body({ type: 'hitl_pause', reason: 'look' }) })).body).toEqual({ status: 'ok' });
      expect((await f.view(session)).status).toBe('paused');
      const missingType = await f.http('POST', `/gateway/sessions/${session}/commands`, { body: f.body({}) });
      expect(missingType.body).toEqual({ status: 'error', reason: 'missing_required_field: type' });
      expect((await f.http('POST', `/gateway/sessions/${session}/commands`, { body: f.body({ type: 'hitl_unpause' }) })).body).toEqual({ status: 'ok' });
    });

    it('refuses a timestamp that is not ISO 8601 UTC', async () => {
      const response = await f.command(f.newSession(), 'pause', { timestamp: 'yesterday' });
      expect(response.status).toBe(422);
      expect(response.body.reason).toMatch(/^invalid_field: timestamp/);
    });
  });

  describe('FR-11.5 HTTP endpoints', () => {
    it('answers all four with 200 {"status":"ok"} and passes the path session id into the command', async () => {
      const session = f.newSession();
      const [held] = await pausedWith(session, 1);
      expect((await f.command(session, 'rewrite', { original_trace_id: held!.trace_id, new_content: '{"file_path":"/work/app/README.md"}' })).body).toEqual({ status: 'ok' });
      expect((await f.command(session, 'inject', { prompt: 'Go on.' })).body).toEqual({ status: 'ok' });
      expect((await f.command(session, 'unpause')).body).toEqual({ status: 'ok' });
      const commands = f.on('gate_command', session, 'gate.command');
      expect(commands.map((m) => (m.body.payload as { command_type: string }).command_type)).toEqual(['hitl_pause', 'hitl_rewrite', 'hitl_inject', 'hitl_unpause']);
      for (const command of commands) expect(command.body).toMatchObject({ session_id: session, agent_id: AGENT });
    });

    it('publishes the gate-open event on the session subject when paused', async () => {
      const session = f.newSession();
      await f.command(session, 'pause', { reason: 'Check the migration' });
      const [open] = await f.waitOn('gate', session, 'hitl.paused');
      expect(open!.subject).toBe(`warden.gate.${partitionOf(session, f.nats.partitions)}.${AGENT}.${session}`);
      expect(open!.body).toMatchObject({ session_id: session, agent_id: AGENT, payload: { operator_id: OPERATOR, reason: 'Check the migration', trigger: 'operator' } });
      await f.command(session, 'unpause');
    });
  });

  describe('FR-11.7 intervention audit records', () => {
    it('records a rewrite with the SHA-256 of the message before and after', async () => {
      const session = f.newSession();
      const [held] = await pausedWith(session, 1);
      const before = (await f.view(session)).messages[0];
      await f.command(session, 'rewrite', { original_trace_id: held!.trace_id, new_content: '{"file_path":"/work/app/b.ts"}' });
      const after = (await f.view(session)).messages[0];
      const records = await f.waitOn('gate', session, 'hitl.intervention_recorded', 2);
      const rewrite = records.find((r) => (r.body.payload as { command_type: string }).command_type === 'hitl_rewrite')!;
      expect(rewrite.body.payload).toMatchObject({
        operator_id: OPERATOR,
        command_type: 'hitl_rewrite',
        before_state: before.content_sha256,
        after_state: after.content_sha256,
        reversed_at: null,
        target_trace_id: held!.trace_id,
      });
      expect(before.content_sha256).not.toBe(after.content_sha256);
      // The hash is the SHA-256 of the canonical JSON of the content shown.
      const sorted = (v: unknown): unknown =>
        Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;
      expect(after.content_sha256).toBe(createHash('sha256').update(JSON.stringify(sorted(after.content))).digest('hex'));
      expect(validateMessage(rewrite.body)).toMatchObject({ ok: true });
      await f.command(session, 'unpause');
    });

    it('records a pause with null before and after states', async () => {
      const session = f.newSession();
      await f.command(session, 'pause');
      const [record] = await f.waitOn('gate', session, 'hitl.intervention_recorded');
      expect(record!.body.payload).toMatchObject({ command_type: 'hitl_pause', before_state: null, after_state: null, reversed_at: null });
      await f.command(session, 'unpause');
    });

    it('sets reversed_at on a rewrite superseded by another, and on the pause when unpaused', async () => {
      const session = f.newSession();
      const [held] = await pausedWith(session, 1);
      await f.command(session, 'rewrite', { original_trace_id: held!.trace_id, new_content: '{"file_path":"/a"}' });
      await f.command(session, 'rewrite', { original_trace_id: held!.trace_id, new_content: '{"file_path":"/b"}' });
      await f.command(session, 'unpause');
      await f.waitOn('gate', session, 'hitl.resumed');
      const records = f.on('gate', session, 'hitl.intervention_recorded').map((r) => r.body.payload as Record<string, any>);
      const byId = (type: string) => records.filter((r) => r.command_type === type);
      const rewrites = byId('hitl_rewrite');
      const firstRewrite = rewrites.filter((r) => r.intervention_id === rewrites[0]!.intervention_id);
      expect(firstRewrite.map((r) => r.reversed_at === null)).toEqual([true, false]);
      expect(firstRewrite[1]!.before_state).toBe(firstRewrite[0]!.before_state);
      const secondRewrite = rewrites.filter((r) => r.intervention_id !== rewrites[0]!.intervention_id);
      expect(secondRewrite.map((r) => r.reversed_at)).toEqual([null]);
      expect(secondRewrite[0]!.before_state).toBe(firstRewrite[0]!.after_state);
      const pauses = byId('hitl_pause');
      expect(pauses.map((r) => r.reversed_at === null)).toEqual([true, false]);
      expect(byId('hitl_unpause').map((r) => r.reversed_at)).toEqual([null]);
      expect((await f.waitDecision(session, held!.payload.action_id)).payload.updated_input).toEqual({ file_path: '/b' });
    });
  });

  describe('FR-11.8 per-session gate events', () => {
    it('publishes open and close events that a subscriber of one session receives, and not those of others', async () => {
      const mine = f.newSession();
      const other = f.newSession();
      const received: string[] = [];
      const sub = f.bus.nc.subscribe(sessionSubscription('gate', AGENT, mine));
      void (async () => {
        for await (const message of sub) {
          const body = message.json<{ type: string; session_id: string }>();
          received.push(`${body.type}:${body.session_id}`);
        }
      })();
      await f.bus.nc.flush();
      await f.command(other, 'pause');
      await f.command(mine, 'pause', { reason: 'Review the plan' });
      await f.command(other, 'unpause');
      await f.command(mine, 'unpause');
      await eventually('the close event', () => received.includes(`hitl.resumed:${mine}`));
      sub.unsubscribe();
      expect(received.every((r) => r.endsWith(`:${mine}`))).toBe(true);
      expect(received.filter((r) => /^hitl\.(paused|resumed):/.test(r))).toEqual([`hitl.paused:${mine}`, `hitl.resumed:${mine}`]);
      const [open] = f.on('gate', mine, 'hitl.paused');
      const [close] = f.on('gate', mine, 'hitl.resumed');
      expect(open!.body).toMatchObject({ session_id: mine, agent_id: AGENT, payload: { operator_id: OPERATOR, reason: 'Review the plan' } });
      expect(close!.body).toMatchObject({ session_id: mine, agent_id: AGENT, payload: { operator_id: OPERATOR } });
      expect(typeof open!.body.timestamp).toBe('string');
    });
  });

  describe('FR-11.9 automatic pause', () => {
    it('pauses on control.hitl_required before forwarding anything, with the triggering verdict first in the buffer', async () => {
      const session = f.newSession();
      const trigger = await f.verdict(session, {}, { control: { hitl_required: true } });
      const next = await f.verdict(session);
      const view = await f.waitBuffered(session, 2);
      expect(view.messages.map((m: { trace_id: string }) => m.trace_id)).toEqual([trigger.trace_id, next.trace_id]);
      expect(view.messages[0]).toMatchObject({ needs_approval: true, holds: ['hitl_required_flag'] });
      expect(view).toMatchObject({ status: 'paused', paused_by: 'system', reason: 'hitl_required_flag', trigger: 'hitl_required_flag' });
      expect(f.on('decision', session)).toHaveLength(0);
      const [open] = await f.waitOn('gate', session, 'hitl.paused');
      expect(open!.body.payload).toMatchObject({ operator_id: 'system', reason: 'hitl_required_flag', trigger: 'hitl_required_flag' });

      await f.command(session, 'approve');
      await f.waitDecision(session, next.payload.action_id);
      const decisions = f.on('decision', session).map((m) => m.body.payload as Record<string, any>);
      expect(decisions.map((d) => d.action_id)).toEqual([trigger.payload.action_id, next.payload.action_id]);
      expect(decisions[0]).toMatchObject({ decision: 'allow', decided_by: 'operator', operator_id: OPERATOR });
      expect(decisions[1]).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });
    });

    it('pauses on a require_approval verdict and allows it once approved', async () => {
      const session = f.newSession();
      const verdict = await f.verdict(session, { verdict: 'require_approval', reasons: ['Deploys need an approval'] });
      const view = await f.waitBuffered(session, 1);
      expect(view).toMatchObject({ trigger: 'require_approval', reason: 'require_approval: Deploys need an approval' });
      await f.command(session, 'unpause');
      expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({
        decision: 'allow',
        verdict: 'require_approval',
        decided_by: 'operator',
        operator_id: OPERATOR,
      });
    });

    it('forwards normally when the flag is false or absent', async () => {
      const session = f.newSession();
      const off = await f.verdict(session, {}, { control: { hitl_required: false } });
      const absent = await f.verdict(session);
      await f.waitDecision(session, absent.payload.action_id);
      await f.waitDecision(session, off.payload.action_id);
      expect(f.on('gate', session, 'hitl.paused')).toHaveLength(0);
    });

    it('still denies a blocked action that carried the flag, whatever the operator approves', async () => {
      const session = f.newSession();
      const verdict = await f.verdict(session, { verdict: 'block', reasons: ['Recursive deletion of /'] }, { control: { hitl_required: true } });
      await f.waitBuffered(session, 1);
      await f.command(session, 'unpause');
      expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'deny', decided_by: 'reviewer' });
    });
  });

  describe('FR-11.10 operator actions', () => {
    it('approve: flushes as it is', async () => {
      const session = f.newSession();
      const verdict = await f.verdict(session, { verdict: 'require_approval', reasons: ['Needs a look'] });
      await f.waitBuffered(session, 1);
      expect(await f.command(session, 'approve')).toEqual({ status: 200, body: { status: 'ok' } });
      expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({ decision: 'allow', decided_by: 'operator' });
    });

    it('rewrite and approve: one call rewrites the held action and flushes it', async () => {
      const session = f.newSession();
      const verdict = await f.verdict(session, { verdict: 'require_approval', action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rm -rf dist build' } } });
      await f.waitBuffered(session, 1);
      const response = await f.command(session, 'rewrite-and-approve', { original_trace_id: verdict.trace_id, new_content: '{"command":"rm -rf dist"}' });
      expect(response).toEqual({ status: 200, body: { status: 'ok' } });
      expect((await f.waitDecision(session, verdict.payload.action_id)).payload).toMatchObject({
        decision: 'allow',
        updated_input: { command: 'rm -rf dist' },
        decided_by: 'operator',
      });
      const types = f.on('gate', session, 'hitl.intervention_recorded').map((r) => (r.body.payload as { command_type: string }).command_type);
      expect(types).toEqual(expect.arrayContaining(['hitl_rewrite', 'hitl_unpause']));
    });

    it('rewrite and approve changes nothing when the trace id is not buffered', async () => {
      const session = f.newSession();
      await f.verdict(session, { verdict: 'require_approval' });
      await f.waitBuffered(session, 1);
      expect((await f.command(session, 'rewrite-and-approve', { original_trace_id: 'nope', new_content: '{"command":"ls"}' })).body).toEqual({
        status: 'error',
        reason: 'trace_id_not_found_in_buffer',
      });
      expect((await f.view(session)).status).toBe('paused');
      await f.command(session, 'reject');
    });

    it('reject: injects the rejection prompt first, denies the held action, then flushes the rest in order', async () => {
      const session = f.newSession();
      const deletion = await f.verdict(session, { verdict: 'require_approval', action: { kind: 'tool_use', tool: 'schedule_deletion', input: { target: 'db' } } });
      const read = await f.verdict(session);
      await f.waitBuffered(session, 2);
      expect(await f.command(session, 'reject')).toEqual({ status: 200, body: { status: 'ok' } });
      await f.waitDecision(session, read.payload.action_id);
      const sent = f.toAgent(session).map((m) => m.body as Record<string, any>);
      expect(sent.map((m) => m.type)).toEqual(['control.issued', 'decision.made', 'decision.made']);
      expect(sent[0]!.payload).toMatchObject({ kind: 'operator_message', message: OPERATOR_REJECTION_PROMPT });
      expect(sent[1]!.payload).toMatchObject({ action_id: deletion.payload.action_id, decision: 'deny', decided_by: 'operator', operator_id: OPERATOR });
      expect(sent[1]!.payload.reason).toContain(OPERATOR_REJECTION_PROMPT);
      expect(sent[2]!.payload).toMatchObject({ action_id: read.payload.action_id, decision: 'allow', decided_by: 'reviewer' });
      const records = f.on('gate', session, 'hitl.intervention_recorded').map((r) => (r.body.payload as { command_type: string }).command_type);
      expect(records.indexOf('hitl_inject')).toBeGreaterThanOrEqual(0);
      expect(records.indexOf('hitl_inject')).toBeLessThan(records.lastIndexOf('hitl_unpause'));
    });

    it('an unpause that rejects always injects the prompt first, even when the caller did not inject', async () => {
      const session = f.newSession();
      const held = await f.verdict(session, {}, { control: { hitl_required: true } });
      await f.waitBuffered(session, 1);
      expect((await f.command(session, 'unpause', { resolution: 'reject' })).body).toEqual({ status: 'ok' });
      await f.waitDecision(session, held.payload.action_id);
      const sent = f.toAgent(session).map((m) => m.body as Record<string, any>);
      expect(sent.map((m) => m.type)).toEqual(['control.issued', 'decision.made']);
      expect(sent[0]!.payload.message).toBe(OPERATOR_REJECTION_PROMPT);
      expect(sent[1]!.payload).toMatchObject({ decision: 'deny', decided_by: 'operator' });
    });

    it('plain inject then unpause approves the held action and tells the agent after it', async () => {
      const session = f.newSession();
      const held = await f.verdict(session, { verdict: 'require_approval' });
      await f.waitBuffered(session, 1);
      await f.command(session, 'inject', { prompt: 'Approved, but be careful.' });
      await f.command(session, 'unpause');
      await f.waitOn('control', session, 'control.issued');
      const sent = f.toAgent(session).map((m) => m.body as Record<string, any>);
      expect(sent.map((m) => m.type)).toEqual(['decision.made', 'control.issued']);
      expect(sent[0]!.payload).toMatchObject({ action_id: held.payload.action_id, decision: 'allow' });
    });
  });

  describe('views', () => {
    it('lists paused sessions with their buffered message count', async () => {
      const session = f.newSession();
      await pausedWith(session, 2);
      const list = await f.http('GET', '/gateway/sessions');
      expect(list.status).toBe(200);
      expect(list.body.sessions).toEqual(expect.arrayContaining([expect.objectContaining({ session_id: session, agent_id: AGENT, status: 'paused', buffered: 2, trigger: 'operator' })]));
      await f.command(session, 'unpause');
      await f.waitOn('gate', session, 'hitl.resumed');
      const after = await f.http('GET', '/gateway/sessions');
      expect(after.body.sessions.some((s: { session_id: string }) => s.session_id === session)).toBe(false);
    });
  });
});
