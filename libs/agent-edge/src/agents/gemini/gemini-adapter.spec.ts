import type { ActionDecision } from '@warden/sdk';
import { stoppedAnswer, toolCallAnswer, type AnswerMode } from '../../capabilities.js';
import { promptAnswer, turnEndAnswer, type ControlGuidance } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { geminiAdapter } from './gemini-adapter.js';

// Payloads: google-gemini/gemini-cli packages/core/src/hooks/types.ts (HookInput, BeforeToolInput,
// AfterToolInput, BeforeAgentInput, AfterAgentInput, SessionStartInput, SessionEndInput) and
// docs/hooks/reference.md; the tools' arguments from packages/core/src/tools/definitions/base-declarations.ts.
const common = {
  session_id: '7c1e2d3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f',
  transcript_path: '/home/dev/.gemini/tmp/demo-app/chats/session-2026-11-28T10-15-7c1e2d3f.jsonl',
  cwd: '/home/dev/demo-app',
  timestamp: '2026-11-28T10:15:02.123Z',
};
const read = (payload: Record<string, unknown>) => geminiAdapter.read({ ...common, ...payload }, {});
const session = { id: common.session_id, cwd: '/home/dev/demo-app', transcriptPath: common.transcript_path };
const shellInput = { command: 'git push --force origin fix/date-parser', description: 'Publish the fix', is_background: false };
const shell = read({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: shellInput });

const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: 'a-1', allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
const none: ControlGuidance = { context: [] };
const interactive: AnswerMode = { decide: false, interactive: true };
const answer = (d: ActionDecision, mode: AnswerMode = interactive, guidance: ControlGuidance = none) =>
  geminiAdapter.write(shell, toolCallAnswer(d, geminiAdapter.capabilities, mode, 'run_shell_command', guidance));

describe('Gemini CLI’s hook payloads as Warden’s events', () => {
  it('reads BeforeTool under an id derived from the tool and input, which AfterTool shares, with the response the model got', () => {
    expect(shell).toEqual({ type: 'before_tool', session, call: { id: expect.stringMatching(/^d[0-9a-f]{32}$/), derived: true, payload: expect.objectContaining({ hook_event_name: 'BeforeTool' }), tool: 'run_shell_command', input: shellInput } });
    const after = read({ hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: shellInput, tool_response: { llmContent: 'Output: Everything up-to-date', returnDisplay: 'Everything up-to-date' } });
    const { payload: _, ...call } = (shell as Extract<EdgeEvent, { type: 'before_tool' }>).call;
    expect(after).toEqual({ type: 'after_tool', session, call, result: { ok: true, output: 'Output: Everything up-to-date' } });
  });

  it('reads a tool’s error as a failure, and an MCP tool by its name', () => {
    expect(read({ hook_event_name: 'AfterTool', tool_name: 'read_file', tool_input: { file_path: 'x' }, tool_response: { llmContent: '', returnDisplay: '', error: 'File not found' } })).toMatchObject({
      result: { ok: false, error: 'File not found' },
    });
    expect(read({ hook_event_name: 'BeforeTool', tool_name: 'mcp_github_create_issue', tool_input: { owner: 'acme' }, mcp_context: { server_name: 'github', tool_name: 'create_issue' } })).toMatchObject({
      call: { tool: 'mcp_github_create_issue', input: { owner: 'acme' } },
    });
  });

  it('reads the prompt, the end of a turn, the session’s start and end', () => {
    expect(read({ hook_event_name: 'BeforeAgent', prompt: 'Fix the failing date parser test' })).toEqual({ type: 'prompt', session, prompt: 'Fix the failing date parser test' });
    expect(read({ hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'done', stop_hook_active: true })).toMatchObject({ type: 'stop', prolonged: true });
    expect(read({ hook_event_name: 'SessionStart', source: 'resume' })).toMatchObject({ type: 'session_start', source: 'resume' });
    expect(read({ hook_event_name: 'SessionEnd', reason: 'exit' })).toMatchObject({ type: 'session_end', reason: 'exit' });
  });

  it('refuses what Gemini does not send, naming the field', () => {
    expect(() => read({ hook_event_name: 'BeforeModel' })).toThrow(EdgeInputError);
    expect(() => read({ hook_event_name: 'BeforeTool', tool_name: 'write_file' })).toThrow('tool_input must be a JSON object');
    expect(() => geminiAdapter.read({ hook_event_name: 'SessionStart' }, {})).toThrow('session_id must be a non-empty string');
  });
});

describe('Warden’s answers in Gemini CLI’s format', () => {
  // Shapes: types.ts HookOutput (decision, reason, systemMessage, continue, stopReason) and BeforeToolOutput / AfterToolOutput / BeforeAgentOutput hookSpecificOutput.
  it('says nothing when Warden has no objection, even with decide (Gemini’s allow is no grant)', () => {
    expect(answer(decision({}))).toBeNull();
    expect(answer(decision({}), { decide: true, interactive: false })).toBeNull();
  });

  it('tells a warning to the person, and to the model as additionalContext', () => {
    expect(answer(decision({ verdict: 'warn' }))).toEqual({ systemMessage: 'Warden warns: R', hookSpecificOutput: { hookEventName: 'BeforeTool', additionalContext: 'Warden warns: R' } });
  });

  it('runs a changed input with decide (tool_input), and otherwise denies it with the input to run instead', () => {
    const changed = decision({ verdict: 'modify', updatedInput: { command: 'git push --force-with-lease origin fix/date-parser' } });
    expect(answer(changed, { decide: true, interactive: true })).toEqual({
      decision: 'allow',
      reason: 'Warden changed this action: R',
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'git push --force-with-lease origin fix/date-parser' } },
    });
    expect(answer(changed)).toEqual({ decision: 'deny', reason: 'Warden changed this action: R Run this instead: {"command":"git push --force-with-lease origin fix/date-parser"}' });
  });

  it('asks the user for an approval handed to them, denies what Warden denies, and stops the agent under an emergency stop', () => {
    expect(answer(decision({ verdict: 'require_approval', askUser: true }))).toEqual({
      decision: 'ask',
      reason: 'Warden asks you to approve this action: R',
      systemMessage: 'Warden asks you to approve this action: R',
    });
    expect(answer(decision({ allowed: false, verdict: 'block' }))).toEqual({ decision: 'deny', reason: 'Warden denied this action: R' });
    expect(geminiAdapter.write(shell, stoppedAnswer('S', none))).toEqual({ decision: 'deny', reason: 'S', continue: false, stopReason: 'S' });
  });

  it('refuses a prompt under a stop, passes control messages with a prompt and after a tool, and keeps the agent working once for unseen ones', () => {
    const prompt = read({ hook_event_name: 'BeforeAgent', prompt: 'p' });
    const stop = read({ hook_event_name: 'AfterAgent', stop_hook_active: false });
    const after = read({ hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' }, tool_response: { llmContent: '' } });
    expect(geminiAdapter.write(prompt, promptAnswer({ context: [], stop: 'S' }))).toEqual({ decision: 'deny', reason: 'S' });
    expect(geminiAdapter.write(prompt, promptAnswer({ context: ['a'] }))).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'a' } });
    expect(geminiAdapter.write(after, { context: ['a'] })).toEqual({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'a' } });
    expect(geminiAdapter.write(stop, turnEndAnswer({ context: ['a'] }, false))).toEqual({ decision: 'deny', reason: 'a' });
    expect(geminiAdapter.write(stop, turnEndAnswer(none, false))).toBeNull();
    expect([prompt, stop, after].map(geminiAdapter.capabilities.contextOn!)).toEqual([true, true, true]);
    expect(geminiAdapter.capabilities.contextOn!(shell)).toBe(false);
  });
});
