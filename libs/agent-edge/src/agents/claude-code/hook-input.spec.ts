import { EdgeInputError } from '../../edge-event.js';
import { cancelledBySibling, edgeEventOf, parseHookInput } from './hook-input.js';

describe('parseHookInput', () => {
  const tool = { session_id: 'sess-1', cwd: '/p', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_01' };

  it('reads a tool hook payload, keeping only the fields it knows', () => {
    expect(parseHookInput(JSON.stringify({ ...tool, permission_mode: 'default', model: 'x', duration_ms: -1 }))).toEqual({ ...tool, permission_mode: 'default' });
  });

  it('reads a SessionEnd payload, which has no tool call', () => {
    expect(parseHookInput(JSON.stringify({ session_id: 'sess-1', transcript_path: '/t.jsonl', cwd: '/p', hook_event_name: 'SessionEnd', reason: 'logout' }))).toEqual({
      session_id: 'sess-1',
      transcript_path: '/t.jsonl',
      cwd: '/p',
      hook_event_name: 'SessionEnd',
      reason: 'logout',
    });
    expect(parseHookInput(JSON.stringify({ session_id: 'sess-1', cwd: '/p', hook_event_name: 'SessionEnd' }))).toMatchObject({ reason: 'other' });
  });

  it('reads the lifecycle events: SessionStart, UserPromptSubmit, Stop, SubagentStop, with a subagent named', () => {
    const common = { session_id: 'sess-1', cwd: '/p', permission_mode: 'default' };
    expect(parseHookInput(JSON.stringify({ ...common, hook_event_name: 'SessionStart', source: 'resume', model: 'claude-opus' }))).toEqual({ ...common, hook_event_name: 'SessionStart', source: 'resume', model: 'claude-opus' });
    expect(parseHookInput(JSON.stringify({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'Fix it' }))).toEqual({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'Fix it' });
    expect(parseHookInput(JSON.stringify({ ...common, hook_event_name: 'Stop', stop_hook_active: true }))).toEqual({ ...common, hook_event_name: 'Stop', stop_hook_active: true });
    expect(parseHookInput(JSON.stringify({ ...common, hook_event_name: 'SubagentStop', agent_id: 'a1', agent_type: 'Explore' }))).toEqual({
      ...common,
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
      agent_id: 'a1',
      agent_type: 'Explore',
    });
  });

  it("reads a turn's last words from Stop (last_assistant_message), not from a subagent's stop, and none when empty", () => {
    // Claude Code's hooks reference lists last_assistant_message for Stop; openai/codex
    // codex-rs/hooks/schema/generated/stop.command.input.schema.json has it (nullable) beside turn_id.
    const common = { session_id: 'sess-1', cwd: '/p', hook_event_name: 'Stop', stop_hook_active: false };
    expect(edgeEventOf(parseHookInput(JSON.stringify({ ...common, last_assistant_message: 'All tests pass.' })))).toEqual({ type: 'stop', session: { id: 'sess-1', cwd: '/p' }, prolonged: false, words: 'All tests pass.' });
    expect(edgeEventOf(parseHookInput(JSON.stringify({ ...common, last_assistant_message: null, turn_id: 't-1' })))).toEqual({ type: 'stop', session: { id: 'sess-1', cwd: '/p' }, prolonged: false });
    expect(edgeEventOf(parseHookInput(JSON.stringify({ ...common, last_assistant_message: '  ' })))).toEqual({ type: 'stop', session: { id: 'sess-1', cwd: '/p' }, prolonged: false });
    expect(edgeEventOf(parseHookInput(JSON.stringify({ ...common, hook_event_name: 'SubagentStop', last_assistant_message: 'Explored.' })))).toEqual({ type: 'stop', session: { id: 'sess-1', cwd: '/p' }, prolonged: false });
  });

  it.each([
    ['not JSON', '{', /the payload is not JSON/],
    ['an event it does not answer', JSON.stringify({ ...tool, hook_event_name: 'Notification' }), /hook_event_name must be one of PreToolUse, PostToolUse, PostToolUseFailure, PermissionDenied, SessionStart, UserPromptSubmit, Stop, SubagentStop, SessionEnd \(got "Notification"\)/],
    ['a session id that cannot be a subject token', JSON.stringify({ ...tool, session_id: 'a.b' }), /session_id "a\.b" must be/],
    ['a SessionEnd without cwd', JSON.stringify({ session_id: 's', hook_event_name: 'SessionEnd' }), /cwd is missing/],
    ['a tool call without tool_use_id', JSON.stringify({ ...tool, tool_use_id: undefined }), /tool_use_id is missing/],
  ])('refuses %s, naming what is wrong', (_name, text, message) => {
    expect(() => parseHookInput(text)).toThrow(EdgeInputError);
    expect(() => parseHookInput(text)).toThrow(message);
  });
});

describe('a call Claude Code cancelled because another call of its response failed', () => {
  // The texts of anthropics/claude-code issues 22264 (`Sibling tool call errored`) and 64346
  // (`<tool_use_error>Cancelled: parallel tool call Bash(<X>) errored`): the same cancellation, before and after 2.1.15x.
  const failure = (error: string) => edgeEventOf(parseHookInput(JSON.stringify({ session_id: 's', cwd: '/p', hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'pwd' }, tool_use_id: 'toolu_2', error })));

  it.each(['Sibling tool call errored', 'Error: Sibling tool call errored', '<tool_use_error>Cancelled: parallel tool call Bash(grep -r x docs) errored</tool_use_error>'])('is read as cancelled, with no outcome of its own: %s', (error) => {
    expect(failure(error)).toMatchObject({ type: 'after_tool', result: { ok: false, cancelled: true } });
  });

  it('is not said of a call that failed itself', () => {
    expect(failure('Exit code 1\ngrep: no match')).not.toMatchObject({ result: { cancelled: true } });
    expect(cancelledBySibling('the sibling tool call errored earlier, so I retried')).toBe(false);
  });
});

describe('a call Claude Code refused (PermissionDenied)', () => {
  // Claude Code 2.1.88 changelog: "Added PermissionDenied hook that fires after auto mode classifier denials";
  // its input is a tool hook's (tool_name, tool_input, tool_use_id) with the denial's `reason`
  // (anthropics/claude-code issue 41261, which asks for it in the hooks reference).
  const denied = (extra: Record<string, unknown>) =>
    edgeEventOf(parseHookInput(JSON.stringify({ session_id: 's', cwd: '/p', hook_event_name: 'PermissionDenied', tool_name: 'Bash', tool_input: { command: 'kubectl delete ns ai' }, tool_use_id: 'toolu_3', ...extra })));

  it('is a call that never ran, refused, with the reason worded as Claude Code words a refusal to the model', () => {
    expect(denied({ reason: 'Blocked by classifier: deletes a shared namespace' })).toEqual({
      type: 'after_tool',
      session: { id: 's', cwd: '/p' },
      call: { id: 'toolu_3', tool: 'Bash', input: { command: 'kubectl delete ns ai' } },
      result: { ok: false, refused: true, error: 'Permission for this action was denied. Reason: Blocked by classifier: deletes a shared namespace' },
    });
    expect(denied({})).toMatchObject({ result: { refused: true, error: 'Permission for this action was denied. Reason: none given' } });
  });
});
