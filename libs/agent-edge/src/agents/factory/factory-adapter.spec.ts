import type { ActionDecision } from '@warden/sdk';
import { stoppedAnswer, toolCallAnswer, type AnswerMode } from '../../capabilities.js';
import { guidanceAnswer, promptAnswer, turnEndAnswer, type ControlGuidance } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { derivedCallKey } from '../../call-id.js';
import { factoryAdapter } from './factory-adapter.js';

/**
 * Payloads and answers: Factory-AI/factory docs/reference/hooks-reference.mdx (@ a80aa7c5; "Hook Input",
 * "PreToolUse Input", "PostToolUse Input", "PreToolUse Decision Control", "Advanced: JSON Output"): the
 * common fields session_id, transcript_path, cwd, permission_mode, hook_event_name; tool_name and
 * tool_input (the shell is `Execute` {command}, `Create` {file_path, content}); tool_response after a call.
 */
const common = {
  session_id: '4f1c2b3a-9d8e-4c7b-a6f5-0e1d2c3b4a59',
  transcript_path: '/home/dev/.factory/sessions/-home-dev-demo-app/4f1c2b3a-9d8e-4c7b-a6f5-0e1d2c3b4a59.jsonl',
  cwd: '/home/dev/demo-app',
  permission_mode: 'auto-medium',
};
const execute = { ...common, hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command: 'git push --force origin fix/date-parser' } };
const session = { id: common.session_id, cwd: common.cwd, transcriptPath: common.transcript_path, permissionMode: 'auto-medium' };
const executeId = derivedCallKey('Execute', execute.tool_input);

describe('reading Droid’s hook payloads', () => {
  it('reads a PreToolUse with Claude Code’s reader, its id the call’s key (Droid sends none), given an id of its own by the edge', () => {
    expect(factoryAdapter.read(execute, {})).toEqual({ type: 'before_tool', session, call: { id: executeId, derived: true, payload: execute, tool: 'Execute', input: execute.tool_input } });
  });

  it('gives the PostToolUse of the same call the same id, whatever the order of the input’s fields, and reads its response', () => {
    const create = { file_path: '/home/dev/demo-app/src/week.ts', content: 'export const WEEK_MS = 604800000;\n' };
    const pre = factoryAdapter.read({ ...common, hook_event_name: 'PreToolUse', tool_name: 'Create', tool_input: create }, {});
    const post = factoryAdapter.read(
      { ...common, hook_event_name: 'PostToolUse', tool_name: 'Create', tool_input: { content: create.content, file_path: create.file_path }, tool_response: { filePath: create.file_path, success: true } },
      {},
    );
    expect(post).toEqual({ type: 'after_tool', session, call: { id: (pre as Extract<EdgeEvent, { type: 'before_tool' }>).call.id, derived: true, tool: 'Create', input: create }, result: { ok: true, output: { filePath: create.file_path, success: true } } });
  });

  it('takes a tool_use_id when Droid sends one, and camelCase fields (eqtylab/cupcake’s Droid structs)', () => {
    expect(factoryAdapter.read({ ...execute, tool_use_id: 'toolu_01' }, {})).toMatchObject({ call: { id: 'toolu_01' } });
    const camel = { sessionId: common.session_id, transcriptPath: common.transcript_path, cwd: common.cwd, permissionMode: 'auto-medium', hookEventName: 'PreToolUse', toolName: 'Execute', toolInput: execute.tool_input };
    // The same call, in another payload (its digest tells deliveries apart).
    const snake = factoryAdapter.read(execute, {}) as Extract<EdgeEvent, { type: 'before_tool' }>;
    expect(factoryAdapter.read(camel, {})).toEqual({ ...snake, call: { ...snake.call, payload: camel } });
  });

  it('reads the lifecycle events', () => {
    expect(factoryAdapter.read({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'Fix the failing date parser test in demo-app' }, {})).toEqual({ type: 'prompt', session, prompt: 'Fix the failing date parser test in demo-app' });
    expect(factoryAdapter.read({ ...common, hook_event_name: 'SessionStart', source: 'startup' }, {})).toEqual({ type: 'session_start', session, source: 'startup' });
    expect(factoryAdapter.read({ ...common, hook_event_name: 'Stop', stop_hook_active: true }, {})).toEqual({ type: 'stop', session, prolonged: true });
    expect(factoryAdapter.read({ ...common, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }, {})).toEqual({ type: 'session_end', session, reason: 'prompt_input_exit' });
  });

  it.each([
    ['SubagentStop, which names no subagent', { ...common, hook_event_name: 'SubagentStop', stop_hook_active: false }, /hook_event_name must be one of PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SessionEnd \(got "SubagentStop"\)/],
    ['a tool call whose input is not an object', { ...execute, tool_input: 'ls' }, /tool_input must be a JSON object/],
    ['a payload that is not an object', [execute], /the payload must be a JSON object/],
  ])('refuses %s, naming what is wrong', (_name, payload, message) => {
    expect(() => factoryAdapter.read(payload, {})).toThrow(EdgeInputError);
    expect(() => factoryAdapter.read(payload, {})).toThrow(message);
  });
});

describe('Droid’s answers', () => {
  const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: executeId, allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
  const none: ControlGuidance = { context: [] };
  const headless: AnswerMode = { decide: false, interactive: false };
  const pre = factoryAdapter.read(execute, {});
  const answer = (d: ActionDecision, mode: AnswerMode = headless, guidance = none) => factoryAdapter.write(pre, toolCallAnswer(d, factoryAdapter.capabilities, mode, 'Execute', guidance));
  const specific = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

  it('says nothing when Warden has no objection, and allows (a grant) only with decide', () => {
    expect(answer(decision({}))).toBeNull();
    expect(answer(decision({}), { decide: true, interactive: false })).toEqual(specific({ permissionDecision: 'allow', permissionDecisionReason: 'Warden allowed this action: R' }));
  });

  it('passes text for the model beside no decision or an allow, and in a deny’s reason, never as an undocumented field beside deny or ask', () => {
    expect(answer(decision({ verdict: 'warn' }), headless, { context: ['c'] })).toEqual({ systemMessage: 'Warden warns: R', ...specific({ additionalContext: 'Warden warns: R\nc' }) });
    expect(answer(decision({ allowed: false, verdict: 'block' }), headless, { context: ['c'] })).toEqual(specific({ permissionDecision: 'deny', permissionDecisionReason: 'Warden denied this action: R\nc' }));
    expect(answer(decision({ verdict: 'require_approval', askUser: true }), headless, { context: ['c'] })).toEqual(specific({ permissionDecision: 'ask', permissionDecisionReason: 'Warden asks you to approve this action: R' }));
  });

  it('runs a changed command with decide, and refuses it with the one to run otherwise or when it drops a field', () => {
    const changed = decision({ verdict: 'modify', updatedInput: { command: 'git push --force-with-lease origin fix/date-parser' } });
    expect(answer(changed, { decide: true, interactive: false })).toEqual(
      specific({ permissionDecision: 'allow', permissionDecisionReason: 'Warden changed this action: R', updatedInput: { command: 'git push --force-with-lease origin fix/date-parser' } }),
    );
    expect(answer(changed, { decide: false, interactive: true })).toEqual(
      specific({ permissionDecision: 'deny', permissionDecisionReason: 'Warden changed this action: R Run this instead: {"command":"git push --force-with-lease origin fix/date-parser"}' }),
    );
    // Droid merges or replaces with updatedInput (not documented): a dropped field would survive a merge.
    const dropped = decision({ verdict: 'modify', updatedInput: { cmd: 'ls' } });
    expect(answer(dropped, { decide: true, interactive: false })).toEqual(specific({ permissionDecision: 'deny', permissionDecisionReason: 'Warden changed this action: R Run this instead: {"cmd":"ls"}' }));
  });

  it('denies and stops Droid under an emergency stop', () => {
    expect(factoryAdapter.write(pre, stoppedAnswer('S', { context: ['c'], stop: 'S' }))).toEqual({ continue: false, stopReason: 'S', ...specific({ permissionDecision: 'deny', permissionDecisionReason: 'S\nc' }) });
  });

  it('answers the other events in Claude Code’s shapes', () => {
    const prompt: EdgeEvent = { type: 'prompt', session, prompt: 'p' };
    expect(factoryAdapter.write(prompt, promptAnswer({ context: ['a'] }))).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'a' } });
    expect(factoryAdapter.write(prompt, promptAnswer({ context: [], stop: 'S' }))).toEqual({ decision: 'block', reason: 'S' });
    expect(factoryAdapter.write({ type: 'stop', session, prolonged: false }, turnEndAnswer({ context: ['a'] }, false))).toEqual({ decision: 'block', reason: 'a' });
    const post = factoryAdapter.read({ ...execute, hook_event_name: 'PostToolUse', tool_response: 'ok' }, {});
    expect(factoryAdapter.write(post, guidanceAnswer({ context: ['a'] }))).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a' } });
    expect(factoryAdapter.write(post, guidanceAnswer(none))).toBeNull();
  });
});
