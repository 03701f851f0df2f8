import type { ActionDecision } from '@warden/sdk';
import { toolCallAnswer, type AnswerMode } from '../../capabilities.js';
import { promptAnswer, turnEndAnswer, type ControlGuidance } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { copilotAdapter } from './copilot-adapter.js';

// Payloads: GitHub's hooks reference (github/docs content/copilot/reference/hooks-reference.md, "Hook
// event input payloads", camelCase input): sessionId, timestamp (epoch ms), cwd, and per event toolName
// and toolArgs (JSON text in command hooks), toolResult, error, reason, stop_hook_active.
const common = { sessionId: 'd3b07384-d113-4ec6-a7b8-5f2c1e9a7b10', timestamp: 1795860902123, cwd: '/home/dev/demo-app' };
const read = (event: string, payload: Record<string, unknown>) => copilotAdapter.read({ ...common, ...payload }, { event });
const session = { id: common.sessionId, cwd: '/home/dev/demo-app' };
const bash = read('preToolUse', { toolName: 'bash', toolArgs: '{"command":"git push --force origin fix/date-parser","description":"Publish the fix"}' });

const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: 'a-1', allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
const none: ControlGuidance = { context: [] };
const interactive: AnswerMode = { decide: false, interactive: true };
const answer = (d: ActionDecision, mode: AnswerMode = interactive, guidance: ControlGuidance = none) => copilotAdapter.write(bash, toolCallAnswer(d, copilotAdapter.capabilities, mode, 'bash', guidance));

describe('Copilot CLI’s hook payloads as Warden’s events', () => {
  it('reads a tool call with its JSON-text arguments, under an id derived from them that the outcome after it shares', () => {
    expect(bash).toEqual({
      type: 'before_tool',
      session,
      call: { id: expect.stringMatching(/^d[0-9a-f]{32}$/), derived: true, payload: expect.objectContaining({ toolName: 'bash', toolArgs: expect.any(String) }), tool: 'bash', input: { command: 'git push --force origin fix/date-parser', description: 'Publish the fix' } },
    });
    const after = read('postToolUse', {
      toolName: 'bash',
      toolArgs: '{"description":"Publish the fix","command":"git push --force origin fix/date-parser"}',
      toolResult: { resultType: 'success', textResultForLlm: 'Everything up-to-date' },
    });
    // The payload's digest tells a proposal delivered again; the outcome needs only the key.
    const { payload: _, ...call } = (bash as Extract<EdgeEvent, { type: 'before_tool' }>).call;
    expect(after).toEqual({ type: 'after_tool', session, call, result: { ok: true, output: 'Everything up-to-date' } });
  });

  it('reads arguments given as an object too, and a failure with its error', () => {
    expect(read('preToolUse', { toolName: 'view', toolArgs: { path: '/home/dev/demo-app/README.md' } })).toMatchObject({ call: { tool: 'view', input: { path: '/home/dev/demo-app/README.md' } } });
    expect(read('postToolUseFailure', { toolName: 'bash', toolArgs: '{"command":"npm test"}', error: "Command failed with exit code 1: Cannot find module 'express'" })).toMatchObject({
      type: 'after_tool',
      result: { ok: false, error: "Command failed with exit code 1: Cannot find module 'express'" },
    });
  });

  it('reads a command that exited with another code than 0 as failed, though its tool ran', () => {
    // The shell tool's text ends with the exit code (public /share exports, e.g. github.com/acabrera04/Harmony
    // llm-logs/frontend/02-18-pr58-review.md @ 45a1af3: `"content": "…\n<exited with exit code 0>"`).
    const failing = 'FAIL src/date.test.ts\n<exited with exit code 1>';
    expect(read('postToolUse', { toolName: 'bash', toolArgs: '{"command":"npm test"}', toolResult: { resultType: 'success', textResultForLlm: failing } })).toMatchObject({
      result: { ok: false, error: failing, output: failing },
    });
    expect(read('postToolUse', { toolName: 'bash', toolArgs: '{"command":"ls"}', toolResult: { resultType: 'success', textResultForLlm: 'src\n<exited with exit code 0>' } })).toMatchObject({ result: { ok: true } });
  });

  it('reads the prompt, the end of a turn, the session’s start and end', () => {
    expect(read('userPromptSubmitted', { prompt: 'Fix the failing date parser test' })).toEqual({ type: 'prompt', session, prompt: 'Fix the failing date parser test' });
    expect(read('agentStop', { transcriptPath: '/home/dev/.copilot/session-state/d3/events.jsonl', stopReason: 'end_turn', stop_hook_active: true })).toMatchObject({ type: 'stop', prolonged: true });
    expect(read('sessionStart', { source: 'new', initialPrompt: 'Fix it' })).toMatchObject({ type: 'session_start', source: 'new' });
    expect(read('sessionEnd', { reason: 'user_exit' })).toMatchObject({ type: 'session_end', reason: 'user_exit' });
  });

  it('needs the event from the installed hook (the payload does not name it), and refuses what Copilot does not send', () => {
    expect(() => copilotAdapter.read({ ...common, prompt: 'p' }, {})).toThrow(EdgeInputError);
    expect(() => read('notification', {})).toThrow('the event must be given as one of sessionStart, sessionEnd, userPromptSubmitted, preToolUse, postToolUse, postToolUseFailure, agentStop');
    expect(() => read('preToolUse', { toolArgs: '{}' })).toThrow('toolName must be a non-empty string');
    expect(() => read('preToolUse', { toolName: 'bash', toolArgs: '{"command":' })).toThrow('toolArgs is not JSON');
    expect(() => read('preToolUse', { sessionId: 'a b', toolName: 'bash', toolArgs: '{}' })).toThrow('sessionId "a b" must be 1-128 letters, digits, - or _');
  });
});

describe('Warden’s answers in Copilot CLI’s format', () => {
  // Shapes: hooks-reference.md, "preToolUse decision control" (permissionDecision, permissionDecisionReason, modifiedArgs), "agentStop / subagentStop decision control", "postToolUse output".
  it('says nothing when Warden has no objection, and allows (a grant) only with decide', () => {
    expect(answer(decision({}))).toBeNull();
    expect(answer(decision({}), { decide: true, interactive: true })).toEqual({ permissionDecision: 'allow', permissionDecisionReason: 'Warden allowed this action: R' });
  });

  it('sends a warning as additionalContext, and with decide as the reason of the allow', () => {
    expect(answer(decision({ verdict: 'warn' }))).toEqual({ additionalContext: 'Warden warns: R' });
    expect(answer(decision({ verdict: 'warn' }), { decide: true, interactive: true })).toEqual({ permissionDecision: 'allow', permissionDecisionReason: 'Warden warns: R', additionalContext: 'Warden warns: R' });
  });

  it('runs a changed input with decide (modifiedArgs), and otherwise denies it with the input to run instead', () => {
    const changed = decision({ verdict: 'modify', updatedInput: { command: 'git push --force-with-lease origin fix/date-parser' } });
    expect(answer(changed, { decide: true, interactive: false })).toEqual({
      permissionDecision: 'allow',
      permissionDecisionReason: 'Warden changed this action: R',
      modifiedArgs: { command: 'git push --force-with-lease origin fix/date-parser' },
    });
    expect(answer(changed)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'Warden changed this action: R Run this instead: {"command":"git push --force-with-lease origin fix/date-parser"}' });
  });

  it('asks the user for an approval handed to them, and denies what Warden denies', () => {
    expect(answer(decision({ verdict: 'require_approval', askUser: true }))).toEqual({ permissionDecision: 'ask', permissionDecisionReason: 'Warden asks you to approve this action: R' });
    expect(answer(decision({ allowed: false, verdict: 'block' }))).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'Warden denied this action: R' });
  });

  it('writes nothing for a prompt (Copilot drops a command hook’s answer to it), and keeps the agent working once for unseen control messages', () => {
    const prompt = read('userPromptSubmitted', { prompt: 'p' });
    const stop = read('agentStop', { stop_hook_active: false });
    expect(copilotAdapter.write(prompt, promptAnswer({ context: [], stop: 'S' }))).toBeNull();
    expect(copilotAdapter.write(stop, turnEndAnswer({ context: ['a'] }, false))).toEqual({ decision: 'block', reason: 'a' });
    expect(copilotAdapter.write(stop, turnEndAnswer(none, false))).toBeNull();
  });

  it('gives text to the model after a tool ran and at the start; control messages wait there from a prompt or a call about to run', () => {
    const post = read('postToolUse', { toolName: 'bash', toolArgs: '{"command":"ls"}', toolResult: { resultType: 'success', textResultForLlm: '' } });
    expect(copilotAdapter.write(post, { context: ['a'] })).toEqual({ additionalContext: 'a' });
    expect(copilotAdapter.write(read('sessionStart', { source: 'startup' }), { context: ['a'] })).toEqual({ additionalContext: 'a' });
    const hears = copilotAdapter.capabilities.contextOn!;
    expect([post, read('sessionStart', {}), read('agentStop', {})].map(hears)).toEqual([true, true, true]);
    expect([bash, read('userPromptSubmitted', { prompt: 'p' }), read('postToolUseFailure', { toolName: 'bash', toolArgs: '{}', error: 'e' })].map(hears)).toEqual([false, false, false]);
  });
});
