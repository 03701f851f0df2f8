import type { ActionDecision } from '@warden/sdk';
import { toolCallAnswer, undecidedAnswer, type AnswerMode } from '../../capabilities.js';
import { promptAnswer, turnEndAnswer, type ControlGuidance } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { cursorAdapter } from './cursor-adapter.js';

// Payloads: the common fields and the shell, MCP and prompt events as https://cursor.com/docs/agent/hooks
// gives them (field lists from eqtylab/cupcake cupcake-core/src/harness/events/cursor/*.rs and
// https://cupcake.eqtylab.io/reference/harnesses/cursor); preToolUse / postToolUse with tool_use_id as
// cisco-ai-defense/defenseclaw internal/gateway/connector/connector_test.go captured from Cursor 3.10.17.
const common = {
  conversation_id: 'c0a8012e-7b3f-4c1d-9e2a-5f6b7c8d9e0f',
  generation_id: 'a1b2c3d4-0000-4000-8000-000000000001',
  model: 'claude-sonnet-5',
  cursor_version: '3.10.17',
  workspace_roots: ['/home/dev/demo-app'],
  user_email: 'dev@example.com',
  transcript_path: '/home/dev/.cursor/projects/home-dev-demo-app/agent-transcripts/c0a8012e.jsonl',
};
const read = (payload: Record<string, unknown>) => cursorAdapter.read({ ...common, ...payload }, {});
const session = { id: common.conversation_id, cwd: '/home/dev/demo-app', transcriptPath: common.transcript_path };

const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: 'a-1', allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
const none: ControlGuidance = { context: [] };
const interactive: AnswerMode = { decide: false, interactive: true };
const shell = read({ hook_event_name: 'beforeShellExecution', command: 'git push --force origin fix/date-parser', cwd: '/home/dev/demo-app' });
const write = read({ hook_event_name: 'preToolUse', tool_name: 'Write', tool_input: { file_path: '/home/dev/demo-app/src/week.ts', contents: 'x' }, tool_use_id: 'toolu_cursor_0002', cwd: '/home/dev/demo-app' });
const answer = (event: EdgeEvent, d: ActionDecision, mode: AnswerMode = interactive, guidance: ControlGuidance = none) =>
  cursorAdapter.write(event, toolCallAnswer(d, cursorAdapter.capabilities, mode, (event as Extract<EdgeEvent, { type: 'before_tool' }>).call.tool, guidance));

describe('Cursor’s hook payloads as Warden’s events', () => {
  it('reads a shell command as Shell with an id derived from it, the same before and after it runs', () => {
    expect(shell).toEqual({ type: 'before_tool', session, call: { id: expect.stringMatching(/^d[0-9a-f]{32}$/), derived: true, payload: expect.objectContaining({ hook_event_name: 'beforeShellExecution' }), tool: 'Shell', input: { command: 'git push --force origin fix/date-parser' } } });
    const after = read({ hook_event_name: 'afterShellExecution', command: 'git push --force origin fix/date-parser', output: 'Everything up-to-date', duration: 812 });
    const { payload: _, ...call } = (shell as Extract<EdgeEvent, { type: 'before_tool' }>).call;
    expect(after).toEqual({
      type: 'after_tool',
      session: { id: common.conversation_id, cwd: '/home/dev/demo-app', transcriptPath: common.transcript_path },
      call,
      result: { ok: true, output: 'Everything up-to-date', durationMs: 812 },
    });
  });

  it('takes the first workspace root where the cwd is empty (cursor-agent sends it empty)', () => {
    expect(read({ hook_event_name: 'beforeShellExecution', command: 'ls', cwd: '' }).session.cwd).toBe('/home/dev/demo-app');
  });

  it('reads an MCP call as MCP:<tool> with its JSON-text input parsed, the same id before and after', () => {
    const input = '{"owner":"acme","repo":"demo-app","title":"Date parser fails on ISO weeks"}';
    const before = read({ hook_event_name: 'beforeMCPExecution', tool_name: 'create_issue', tool_input: input, command: 'npx -y @modelcontextprotocol/server-github' });
    const after = read({ hook_event_name: 'afterMCPExecution', tool_name: 'create_issue', tool_input: input, result_json: '{"content":[]}', duration: 40 });
    expect(before).toMatchObject({ type: 'before_tool', call: { tool: 'MCP:create_issue', input: { owner: 'acme', repo: 'demo-app', title: 'Date parser fails on ISO weeks' }, derived: true } });
    const { payload: _, ...call } = (before as Extract<EdgeEvent, { type: 'before_tool' }>).call;
    expect(after).toEqual({ type: 'after_tool', session: expect.anything(), call, result: { ok: true, output: '{"content":[]}', durationMs: 40 } });
  });

  it('reads preToolUse and postToolUse with Cursor’s own call id, and a failure with its error', () => {
    expect(write).toEqual({ type: 'before_tool', session, call: { id: 'toolu_cursor_0002', tool: 'Write', input: { file_path: '/home/dev/demo-app/src/week.ts', contents: 'x' } } });
    expect(read({ hook_event_name: 'postToolUse', tool_name: 'Read', tool_input: { file_path: 'README.md' }, tool_output: 'hello', duration_ms: 3, tool_use_id: 'toolu_cursor_0003' })).toMatchObject({
      type: 'after_tool',
      call: { id: 'toolu_cursor_0003', tool: 'Read' },
      result: { ok: true, output: 'hello', durationMs: 3 },
    });
    expect(read({ hook_event_name: 'postToolUseFailure', tool_name: 'Read', tool_input: { file_path: 'x' }, tool_use_id: 'toolu_4', error_message: 'ENOENT' })).toMatchObject({ result: { ok: false, error: 'ENOENT' } });
  });

  it('derives the id of a preToolUse call whose id does not fit a NATS subject', () => {
    expect(read({ hook_event_name: 'preToolUse', tool_name: 'Read', tool_input: { file_path: 'x' }, tool_use_id: 'call|fc 1' })).toMatchObject({ call: { id: expect.stringMatching(/^d[0-9a-f]{32}$/), derived: true } });
  });

  it('reads the prompt, the end of a turn, the session’s start and end, and session_id where conversation_id is missing', () => {
    expect(read({ hook_event_name: 'beforeSubmitPrompt', prompt: 'Fix the failing date parser test', attachments: [] })).toMatchObject({ type: 'prompt', prompt: 'Fix the failing date parser test' });
    expect(read({ hook_event_name: 'stop', status: 'completed', loop_count: 0 })).toMatchObject({ type: 'stop', prolonged: false });
    expect(read({ hook_event_name: 'stop', status: 'completed', loop_count: 1 })).toMatchObject({ type: 'stop', prolonged: true });
    expect(read({ hook_event_name: 'sessionStart', source: 'startup' })).toMatchObject({ type: 'session_start', source: 'startup', session: { model: 'claude-sonnet-5' } });
    expect(read({ hook_event_name: 'sessionEnd' })).toMatchObject({ type: 'session_end', reason: 'other' });
    const { conversation_id: _none, ...newer } = common;
    expect(cursorAdapter.read({ ...newer, session_id: 's-3', hook_event_name: 'stop', loop_count: 0 }, {}).session.id).toBe('s-3');
  });

  it('refuses what Cursor does not send, naming the field', () => {
    expect(() => read({ hook_event_name: 'afterAgentThought' })).toThrow(EdgeInputError);
    expect(() => cursorAdapter.read({ hook_event_name: 'stop' }, {})).toThrow('conversation_id or session_id must be a non-empty string');
    expect(() => read({ hook_event_name: 'beforeShellExecution' })).toThrow('command must be a non-empty string');
    expect(() => read({ hook_event_name: 'beforeMCPExecution', tool_name: 't', tool_input: '{oops' })).toThrow('tool_input is not JSON');
    expect(() => cursorAdapter.read('[]', {})).toThrow('the payload must be a JSON object');
  });
});

describe('Warden’s answers in Cursor’s format', () => {
  // Shapes: {permission, user_message, agent_message} (https://cursor.com/docs/agent/hooks, "beforeShellExecution / beforeMCPExecution" output).
  it('always answers a call it holds (failClosed), allow for no objection, even with decide (Cursor’s allow is no grant)', () => {
    expect(answer(shell, decision({}))).toEqual({ permission: 'allow' });
    expect(answer(write, decision({}), { decide: true, interactive: true })).toEqual({ permission: 'allow' });
    expect(answer(shell, decision({}), interactive, { context: ['Warden correction: c'] })).toEqual({ permission: 'allow', agent_message: 'Warden correction: c' });
  });

  it('tells a warning to the person and the model', () => {
    expect(answer(shell, decision({ verdict: 'warn' }))).toEqual({ permission: 'allow', user_message: 'Warden warns: R', agent_message: 'Warden warns: R' });
  });

  it('denies with the reason for both, and the control messages after it for the model', () => {
    expect(answer(shell, decision({ allowed: false, verdict: 'block' }), interactive, { context: ['c'] })).toEqual({
      permission: 'deny',
      user_message: 'Warden denied this action: R',
      agent_message: 'Warden denied this action: R\nc',
    });
  });

  it('refuses a changed input with the input to run instead, asked or with decide (Cursor runs none it is given)', () => {
    const changed = decision({ verdict: 'modify', updatedInput: { command: 'git push --force-with-lease' } });
    const reason = 'Warden changed this action: R Run this instead: {"command":"git push --force-with-lease"}';
    expect(answer(shell, changed)).toEqual({ permission: 'deny', user_message: reason, agent_message: reason });
    expect(answer(shell, changed, { decide: true, interactive: true })).toEqual({ permission: 'deny', user_message: reason, agent_message: reason });
  });

  it('asks about a shell command handed to the user, and refuses another tool’s (Cursor cannot ask about it)', () => {
    const approval = decision({ verdict: 'require_approval', askUser: true });
    expect(answer(shell, approval)).toEqual({ permission: 'ask', user_message: 'Warden asks you to approve this action: R', agent_message: 'Warden asks you to approve this action: R' });
    expect(answer(write, approval)).toMatchObject({ permission: 'deny', agent_message: 'Warden needs a person to approve this action, and this agent cannot ask: R' });
    expect(cursorAdapter.capabilities.askOnly?.('MCP:create_issue')).toBe(true);
    expect(cursorAdapter.capabilities.askOnly?.('Write')).toBe(false);
  });

  it('never asks at preToolUse, even for a shell call that reached it', () => {
    const atPreToolUse = read({ hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'sudo apt-get install -y jq' }, tool_use_id: 'toolu_9' });
    expect(answer(atPreToolUse, decision({ verdict: 'require_approval', askUser: true }))).toMatchObject({ permission: 'deny', user_message: expect.stringContaining('Cursor cannot ask about Shell here, so it is refused') });
  });

  it('tells the person of an operator’s approval, and leaves a fail-open tool to Cursor with an explicit allow', () => {
    expect(answer(shell, decision({ verdict: 'require_approval', decidedBy: 'operator', reason: 'Approved by operator alice' }))).toEqual({ permission: 'allow', user_message: 'Warden: Approved by operator alice' });
    expect(cursorAdapter.write(shell, undecidedAnswer(true, 'Cursor', 'Shell', 'down', none))).toEqual({ permission: 'allow', user_message: "Warden could not decide (down); Shell is left to Cursor's own permission rules (fail-open setting)" });
  });

  it('refuses a prompt under a stop, and keeps the agent working once with a follow-up for unseen control messages', () => {
    const prompt = read({ hook_event_name: 'beforeSubmitPrompt', prompt: 'p' });
    const stop = read({ hook_event_name: 'stop', loop_count: 0 });
    expect(cursorAdapter.write(prompt, promptAnswer({ context: [], stop: 'S' }))).toEqual({ continue: false, user_message: 'S' });
    expect(cursorAdapter.write(prompt, promptAnswer(none))).toBeNull();
    expect(cursorAdapter.write(stop, turnEndAnswer({ context: ['a'] }, false))).toEqual({ followup_message: 'a' });
    expect(cursorAdapter.write(stop, turnEndAnswer(none, false))).toBeNull();
  });

  it('gives text to the model after a preToolUse call and at the start, and takes none with a prompt or after a shell or MCP call', () => {
    const post = read({ hook_event_name: 'postToolUse', tool_name: 'Read', tool_input: { file_path: 'x' }, tool_use_id: 'toolu_5' });
    const afterShell = read({ hook_event_name: 'afterShellExecution', command: 'ls', output: '' });
    expect(cursorAdapter.write(post, { context: ['a', 'b'] })).toEqual({ additional_context: 'a\nb' });
    expect(cursorAdapter.write(read({ hook_event_name: 'sessionStart' }), { context: ['a'] })).toEqual({ additional_context: 'a' });
    const hears = cursorAdapter.capabilities.contextOn!;
    expect([post, shell, read({ hook_event_name: 'sessionStart' }), read({ hook_event_name: 'stop' })].map(hears)).toEqual([true, true, true, true]);
    expect([afterShell, read({ hook_event_name: 'beforeSubmitPrompt', prompt: 'p' })].map(hears)).toEqual([false, false]);
  });
});
