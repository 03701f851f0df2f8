import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateMessage } from '@warden/contracts';
import { operatorHeaders, operatorToken } from '@warden/testing';
import { HookSuite, runWarden, type Run } from './hook-suite.fixture.js';

const AGENT = 'claude-code';
/** An agent user without the permission to read its stored control messages (a server configured before it existed). */
const PLAIN_AGENT = 'plain-agent';
/** An agent whose sessions end: its track record (and so its automation level) does not touch the others'. */
const ENDING_AGENT = 'ending-agent';

/**
 * `warden hook` over a session's life, as Claude Code runs it: outcomes reported, control messages
 * passed on once, an emergency stop, the end of the session on the agent's track record, and an agent
 * user that may not read its stored control messages; the built CLI against a real nats-server with
 * the reviewer, the gate and the ladder. The answers to each kind of decision, through both the command
 * and the HTTP hook, are in hook-answers.spec.ts.
 */
describe('warden hook over a session', () => {
  let suite: HookSuite;
  let project: string;
  let stateDir: string;

  beforeAll(async () => {
    suite = await HookSuite.start([AGENT, PLAIN_AGENT, ENDING_AGENT], ['reviewer', 'gate', 'ladder', 'intervention-controller'], [AGENT, ENDING_AGENT]);
    project = mkdtempSync(join(tmpdir(), 'hook-project-'));
    stateDir = mkdtempSync(join(tmpdir(), 'hook-state-'));
  }, 120_000);

  afterAll(async () => {
    await suite?.stop();
    rmSync(project, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }, 60_000);

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    CLAUDE_PROJECT_DIR: project,
    WARDEN_NATS_URL: suite.nats.url,
    WARDEN_AGENT_ID: AGENT,
    WARDEN_AGENT_PASSWORD: suite.nats.agent(AGENT).password,
    WARDEN_HOOK_STATE_DIR: stateDir,
    ...extra,
  });

  let counter = 0;
  const toolUseId = () => `toolu_01Test${String(++counter).padStart(4, '0')}`;

  function pre(sessionId: string, tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    return {
      session_id: sessionId,
      transcript_path: join(project, `${sessionId}.jsonl`),
      cwd: project,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: tool,
      tool_input: input,
      tool_use_id: toolUseId(),
      ...extra,
    };
  }

  const hook = (payload: unknown, extra: NodeJS.ProcessEnv = {}): Promise<Run> =>
    runWarden(['hook'], { env: env(extra), stdin: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  const answer = (run: Run) => {
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return run.stdout ? (JSON.parse(run.stdout) as Record<string, unknown>) : null;
  };

  /** What Claude Code is told when Warden has no objection: nothing, or the control messages for the model. */
  const allow = (_reason: string, extra: { additionalContext?: string } = {}) => (extra.additionalContext ? { hookSpecificOutput: { hookEventName: 'PreToolUse', ...extra } } : null);

  it('reports PostToolUse and PostToolUseFailure outcomes and answers nothing when there is nothing to say', async () => {
    // Proposed first, as Claude Code does: an outcome of a call Warden never saw is an incident (below).
    const proposed = pre('hook-post', 'Bash', { command: 'npm test' });
    expect((await hook(proposed)).code).toBe(0);
    const ok = { ...proposed, hook_event_name: 'PostToolUse', tool_response: { stdout: 'Tests: 3 passed', stderr: '', interrupted: false }, duration_ms: 1840 };
    expect(await hook(ok)).toEqual({ code: 0, stdout: '', stderr: '' });
    const reported = await suite.recorder.waitFor((m) => m.body.type === 'action.outcome' && (m.body.payload as { action_id: string }).action_id === ok.tool_use_id);
    expect(reported.body.payload).toEqual({
      action_id: ok.tool_use_id,
      tool: 'Bash',
      status: 'success',
      duration_ms: 1840,
      output_excerpt: '{"stdout":"Tests: 3 passed","stderr":"","interrupted":false}',
    });

    const edit = pre('hook-post', 'Edit', { file_path: join(project, 'a.ts'), old_string: 'a', new_string: 'b' });
    expect((await hook(edit)).code).toBe(0);
    const failed = { ...edit, hook_event_name: 'PostToolUseFailure', error: 'String to replace not found in file.' };
    expect(await hook(failed)).toEqual({ code: 0, stdout: '', stderr: '' });
    const error = await suite.recorder.waitFor((m) => m.body.type === 'action.outcome' && (m.body.payload as { action_id: string }).action_id === failed.tool_use_id);
    expect(error.body.payload).toEqual({ action_id: failed.tool_use_id, tool: 'Edit', status: 'error', error: { message: 'String to replace not found in file.' }, files_touched: [join(project, 'a.ts')] });
  }, 30_000);

  it('reports no outcome of a call Claude Code cancelled for another call of the response that failed', async () => {
    // anthropics/claude-code issue 64346: siblings still running when one call fails come back as cancelled.
    const cancelled = pre('hook-sibling', 'Bash', { command: 'pwd' });
    const failing = pre('hook-sibling', 'Bash', { command: 'grep -r nothing-here docs' });
    expect((await hook(cancelled)).code).toBe(0);
    expect((await hook(failing)).code).toBe(0);
    expect((await hook({ ...cancelled, hook_event_name: 'PostToolUseFailure', error: '<tool_use_error>Cancelled: parallel tool call Bash(grep -r nothing-here docs) errored</tool_use_error>' })).code).toBe(0);
    expect((await hook({ ...failing, hook_event_name: 'PostToolUseFailure', error: 'Exit code 1' })).code).toBe(0);
    // The failing call's outcome comes after the cancelled one's would have, on the same connection.
    await suite.recorder.waitFor((m) => m.body.type === 'action.outcome' && (m.body.payload as { action_id: string }).action_id === failing.tool_use_id);
    expect(suite.recorder.messages.filter((m) => m.body.type === 'action.outcome' && (m.body.payload as { action_id: string }).action_id === cancelled.tool_use_id)).toEqual([]);
  }, 30_000);

  describe('control messages for the session', () => {
    const control = (session: string, kind: string, message: string, extra: Record<string, unknown> = {}) =>
      suite.publishControl(AGENT, session, { control_id: `ctl-${toolUseId()}`, kind: kind as 'soft_correction', message, requires_ack: true, ...extra });

    it('returns pending corrections and reminders as additionalContext, each once, and acknowledges them', async () => {
      const session = 'hook-control';
      expect(answer(await hook(pre(session, 'Read', { file_path: join(project, 'README.md') })))).toEqual(allow('Warden allowed this action: No concerns: file read with low risk.'));
      await control(session, 'soft_correction', 'You ran the same failing test three times; read the error first.');
      await control(session, 'context_reinforcement', 'Your task: fix the date parser test. Nothing else.');
      expect(answer(await hook(pre(session, 'Bash', { command: 'npm test' })))).toEqual(
        allow('Warden allowed this action: No concerns: command execution with medium risk.', {
          additionalContext:
            'Warden correction: You ran the same failing test three times; read the error first.\nWarden reminder of the task: Your task: fix the date parser test. Nothing else.',
        }),
      );
      const acks = await suite.recorder.waitForCount(2, 10_000, (m) => m.body.type === 'control.acknowledged' && m.body.session_id === session);
      expect(acks.map((a) => (a.body.payload as { status: string }).status)).toEqual(['applied', 'applied']);
      // Seen once: the next call of the session carries no context.
      const proposed = pre(session, 'Bash', { command: 'npm test' });
      expect(answer(await hook(proposed))).toEqual(allow('Warden allowed this action: No concerns: command execution with medium risk.'));
      // After a tool ran, a new correction comes with the PostToolUse answer.
      await control(session, 'soft_correction', 'Stop editing files outside src/.');
      const post = { ...proposed, hook_event_name: 'PostToolUse', tool_response: 'ok', duration_ms: 5 };
      expect(answer(await hook(post))).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'Warden correction: Stop editing files outside src/.' } });
    }, 60_000);

    it('reports a call Claude Code refused (PermissionDenied) as refused, answers nothing, and keeps a pending correction for the next call', async () => {
      // Claude Code 2.1.88 changelog: PermissionDenied "fires after auto mode classifier denials", with the call and its `reason`.
      const session = 'hook-refused';
      const proposed = pre(session, 'Bash', { command: 'kubectl delete ns ai' });
      expect((await hook(proposed)).code).toBe(0);
      await control(session, 'soft_correction', 'Ask the user before touching the cluster.');
      const refused = { ...proposed, hook_event_name: 'PermissionDenied', reason: 'Blocked by classifier: deletes a shared namespace' };
      expect(await hook(refused)).toEqual({ code: 0, stdout: '', stderr: '' });
      const outcome = await suite.recorder.waitFor((m) => m.body.type === 'action.outcome' && (m.body.payload as { action_id: string }).action_id === proposed.tool_use_id);
      expect(outcome.body.payload).toEqual({
        action_id: proposed.tool_use_id,
        tool: 'Bash',
        status: 'error',
        error: { message: 'Permission for this action was denied. Reason: Blocked by classifier: deletes a shared namespace' },
      });
      // The correction was not spent on an event that cannot show it: the next call carries it.
      expect(answer(await hook(pre(session, 'Read', { file_path: join(project, 'README.md') })))).toEqual(
        allow('Warden allowed this action: No concerns: file read with low risk.', { additionalContext: 'Warden correction: Ask the user before touching the cluster.' }),
      );
    }, 60_000);

    it("hands the suite the words that end a turn (Stop's last_assistant_message), their secrets redacted, and answers nothing", async () => {
      // Claude Code's hooks reference lists last_assistant_message among Stop's input fields.
      const session = 'hook-turn-end';
      const token = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB';
      const stop = { session_id: session, transcript_path: join(project, `${session}.jsonl`), cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: `Pushed with ${token}. All tests pass.` };
      expect(await hook(stop)).toEqual({ code: 0, stdout: '', stderr: '' });
      const ended = await suite.recorder.waitFor((m) => m.body.type === 'session.turn_ended' && m.body.session_id === session);
      const text = (ended.body.payload as { text: string }).text;
      expect(text).toContain('All tests pass.');
      expect(text).not.toContain(token);
    }, 60_000);

    it('stops Claude Code on an emergency stop until a resume', async () => {
      const session = 'hook-stop';
      await control(session, 'emergency_stop', 'Deleting production data', { incident_id: 'inc-7' });
      const reason = 'Warden stopped this session (emergency stop, incident inc-7): Deleting production data';
      const stopped = { continue: false, stopReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
      expect(answer(await hook(pre(session, 'Bash', { command: 'ls' })))).toEqual(stopped);
      const ack = await suite.recorder.waitFor((m) => m.body.type === 'control.acknowledged' && m.body.session_id === session);
      expect((ack.body.payload as { status: string }).status).toBe('stopped');
      // Still stopped on the next call, and nothing of it was proposed.
      expect(answer(await hook(pre(session, 'Read', { file_path: join(project, 'README.md') })))).toEqual(stopped);
      expect(suite.recorder.messages.filter((m) => m.body.type === 'action.proposed' && m.body.session_id === session)).toEqual([]);
      await control(session, 'resume', 'The operator resumed the session.');
      expect(answer(await hook(pre(session, 'Read', { file_path: join(project, 'README.md') })))).toEqual(
        allow('Warden allowed this action: No concerns: file read with low risk.', { additionalContext: 'Warden: you may continue: The operator resumed the session.' }),
      );
    }, 60_000);
  });

  describe('the end of a session', () => {
    const as = () => ({ WARDEN_AGENT_ID: ENDING_AGENT, WARDEN_AGENT_PASSWORD: suite.nats.agent(ENDING_AGENT).password });
    const end = (sessionId: string, reason: string) =>
      hook({ session_id: sessionId, transcript_path: join(project, `${sessionId}.jsonl`), cwd: project, hook_event_name: 'SessionEnd', reason }, as());
    const read = (sessionId: string) => hook(pre(sessionId, 'Read', { file_path: join(project, 'README.md') }), as());
    const endsOf = (session: string) => suite.recorder.messages.filter((m) => m.body.type === 'session.ended' && m.body.session_id === session);
    const quiet = { code: 0, stdout: '', stderr: '' };
    const allowedRead = allow('Warden allowed this action: No concerns: file read with low risk.');

    it('records the run on the agent’s track record, once per session, and nothing for a session without tool calls', async () => {
      const session = 'hook-end';
      expect(answer(await read(session))).toEqual(allowedRead);
      expect(await end(session, 'prompt_input_exit')).toEqual(quiet);
      const ended = await suite.recorder.waitFor((m) => m.body.type === 'session.ended' && m.body.session_id === session);
      expect(validateMessage(ended.body)).toEqual({ ok: true, message: ended.body });
      expect(ended.body).toMatchObject({ agent_id: ENDING_AGENT, payload: { status: 'success', summary: 'Claude Code session ended (prompt_input_exit)' } });
      // The run is counted when the session has ended and the gate's decision is in, whichever comes last.
      const runCounted = (runs: number) =>
        suite.recorder.waitFor(
          (m) =>
            m.body.type === 'ladder.metrics_updated' &&
            m.body.agent_id === ENDING_AGENT &&
            (m.body.payload as { metrics: { total_runs: number } }).metrics.total_runs === runs,
          20_000,
        );
      const updated = await runCounted(1);
      expect(updated.body).toMatchObject({ agent_id: ENDING_AGENT, payload: { metrics: { total_runs: 1, successful_runs: 1 } } });

      // Resumed and ended again: a second session.ended under its own message id, but the same session is one
      // run on the track record (an agent cannot count a session again by ending it again).
      expect(answer(await read(session))).toEqual(allowedRead);
      expect(await end(session, 'other')).toEqual(quiet);
      await suite.recorder.waitForCount(2, 10_000, (m) => m.body.type === 'session.ended' && m.body.session_id === session);
      expect(new Set(endsOf(session).map((m) => m.body.id)).size).toBe(2);
      const next = 'hook-end-next';
      expect(answer(await read(next))).toEqual(allowedRead);
      expect(await end(next, 'prompt_input_exit')).toEqual(quiet);
      const counted = await runCounted(2);
      expect(counted.body).toMatchObject({ session_id: next, payload: { metrics: { total_runs: 2 } } });

      // A session that never proposed anything was never declared: there is no run to record.
      expect(await end('hook-end-empty', 'clear')).toEqual(quiet);
      expect(suite.recorder.messages.filter((m) => m.body.session_id === 'hook-end-empty')).toEqual([]);
    }, 60_000);

    it('records a session that ends under an emergency stop as aborted, and confirms the stop', async () => {
      const session = 'hook-end-stopped';
      expect(answer(await read(session))).toEqual(allowedRead);
      // The stop arrives after the last tool call: the end still sees it.
      await suite.publishControl(ENDING_AGENT, session, {
        control_id: 'ctl-end-stop',
        kind: 'emergency_stop',
        message: 'Deleting production data',
        incident_id: 'inc-9',
        requires_ack: true,
      });
      expect(await end(session, 'prompt_input_exit')).toEqual(quiet);
      const ended = await suite.recorder.waitFor((m) => m.body.type === 'session.ended' && m.body.session_id === session);
      expect(ended.body.payload).toEqual({
        status: 'aborted',
        summary: 'Claude Code session ended (prompt_input_exit) while Warden had it stopped: Warden stopped this session (emergency stop, incident inc-9): Deleting production data',
      });
      const ack = await suite.recorder.waitFor((m) => m.body.type === 'control.acknowledged' && m.body.session_id === session);
      expect(ack.body.payload).toMatchObject({ control_id: 'ctl-end-stop', status: 'stopped' });
    }, 60_000);
  });

  it('records the deny it answered while Warden could not be reached, once Warden can be reached again', async () => {
    const session = 'hook-unreached';
    const denied = pre(session, 'Bash', { command: 'npm test' });
    const unreached = await hook(denied, { WARDEN_NATS_URL: 'nats://127.0.0.1:9' });
    expect(JSON.parse(unreached.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    // Nothing reached Warden then; the next call that does sends the record of that answer.
    expect(answer(await hook(pre(session, 'Read', { file_path: join(project, 'README.md') })))).toEqual(allow('Warden allowed this action: No concerns: file read with low risk.'));
    const record = await suite.recorder.waitFor((m) => m.body.type === 'action.fallback' && m.body.session_id === session);
    expect(record.body.payload).toMatchObject({
      action_id: denied.tool_use_id,
      tool: 'Bash',
      decision: 'deny',
      answered_by: 'hook',
      reason: expect.stringMatching(/^Warden could not decide on this tool call, so it is blocked \(fail closed\): cannot reach Warden at nats:\/\/127\.0\.0\.1:9/),
    });
  }, 60_000);

  describe('an agent user that may not read its stored control messages', () => {
    const plain = () => ({ WARDEN_AGENT_ID: PLAIN_AGENT, WARDEN_AGENT_PASSWORD: suite.nats.agent(PLAIN_AGENT).password });

    it('still decides, says why on stderr, and passes on what is sent while it waits', async () => {
      const session = 'hook-plain';
      const run = await hook(pre(session, 'Read', { file_path: join(project, 'README.md') }), plain());
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^warden hook: control messages stored for session hook-plain could not be read \(.*Permissions Violation.*\); only those sent during this call are shown\n$/);

      // Held for approval: a correction sent meanwhile arrives with the answer.
      const held = hook(pre(session, 'Bash', { command: 'sudo apt-get install -y jq' }), { ...plain(), CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' });
      await suite.recorder.waitFor((m) => m.body.type === 'hitl.paused' && m.body.session_id === session, 20_000);
      await suite.publish('control.issued', 'control', PLAIN_AGENT, session, { control_id: 'ctl-plain', kind: 'operator_message', message: 'Use the jq that ships in tools/.', requires_ack: false });
      const response = await fetch(`${suite.service('gate').url}/gateway/sessions/${session}/reject`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...operatorHeaders(await operatorToken(suite.bus.nc, 'bob', 'approver'), 'bob') },
        body: JSON.stringify({ agent_id: PLAIN_AGENT, timestamp: new Date().toISOString(), reason: 'No system packages' }),
      });
      expect(response.status).toBe(200);
      const answered = await held;
      expect(answered.code).toBe(0);
      expect(JSON.parse(answered.stdout)).toMatchObject({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', additionalContext: expect.stringContaining('Message from the operator: Use the jq that ships in tools/.') },
      });
    }, 60_000);
  });
});
