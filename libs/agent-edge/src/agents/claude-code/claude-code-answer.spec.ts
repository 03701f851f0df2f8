import type { ActionDecision } from '@warden/sdk';
import { approverFor, isInteractive } from '../../answer-policy.js';
import { toolCallAnswer, undecidedAnswer, type AnswerMode } from '../../capabilities.js';
import { promptAnswer, turnEndAnswer, type ControlGuidance } from '../../edge-answer.js';
import type { EdgeEvent } from '../../edge-event.js';
import { claudeCodeAdapter } from './claude-code-adapter.js';
import { claudeCodeOutput } from './claude-code-answer.js';

// The shapes are Claude Code's hook output (https://code.claude.com/docs/en/hooks, "PreToolUse decision control").
const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: 'toolu_1', allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
const none: ControlGuidance = { context: [] };
const interactive: AnswerMode = { decide: false, interactive: true };
const session = { id: 's-1', cwd: '/work/app' };
const preEvent: EdgeEvent = { type: 'before_tool', session, call: { id: 'toolu_1', tool: 'Bash', input: { command: 'ls' } } };
const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
const preToolUseAnswer = (d: ActionDecision, guidance: ControlGuidance, mode: AnswerMode) =>
  claudeCodeOutput(preEvent, toolCallAnswer(d, claudeCodeAdapter.capabilities, mode, 'Bash', guidance));

describe('the PreToolUse answer', () => {
  it('says nothing when Warden has no objection, and allows only with decide', () => {
    expect(preToolUseAnswer(decision({}), none, interactive)).toBeNull();
    expect(preToolUseAnswer(decision({}), none, { decide: true, interactive: true })).toEqual(pre({ permissionDecision: 'allow', permissionDecisionReason: 'Warden allowed this action: R' }));
  });

  it('passes control messages on even with nothing else to say', () => {
    expect(preToolUseAnswer(decision({}), { context: ['a', 'b'] }, interactive)).toEqual(pre({ additionalContext: 'a\nb' }));
  });

  it('tells a warning to the model and the user, after which the control messages follow', () => {
    expect(preToolUseAnswer(decision({ verdict: 'warn' }), { context: ['c'] }, interactive)).toEqual({ systemMessage: 'Warden warns: R', ...pre({ additionalContext: 'Warden warns: R\nc' }) });
  });

  it('asks about a changed input, allows it with decide, and denies it with the input to run when nobody can be asked', () => {
    const changed = decision({ verdict: 'modify', updatedInput: { command: 'x' } });
    expect(preToolUseAnswer(changed, none, interactive)).toEqual(pre({ permissionDecision: 'ask', permissionDecisionReason: 'Warden changed this action: R', updatedInput: { command: 'x' } }));
    expect(preToolUseAnswer(changed, none, { decide: true, interactive: false })).toEqual(pre({ permissionDecision: 'allow', permissionDecisionReason: 'Warden changed this action: R', updatedInput: { command: 'x' } }));
    expect(preToolUseAnswer(changed, none, { decide: false, interactive: false })).toEqual(pre({ permissionDecision: 'deny', permissionDecisionReason: 'Warden changed this action: R Run this instead: {"command":"x"}' }));
  });

  it('asks the user for an approval handed to them, and denies what Warden denies', () => {
    expect(preToolUseAnswer(decision({ verdict: 'require_approval', askUser: true }), none, { decide: true, interactive: true })).toEqual(
      pre({ permissionDecision: 'ask', permissionDecisionReason: 'Warden asks you to approve this action: R' }),
    );
    expect(preToolUseAnswer(decision({ allowed: false, verdict: 'block' }), none, interactive)).toEqual(pre({ permissionDecision: 'deny', permissionDecisionReason: 'Warden denied this action: R' }));
  });

  it('tells the user of an operator’s approval', () => {
    expect(preToolUseAnswer(decision({ verdict: 'require_approval', decidedBy: 'operator', reason: 'Approved by operator alice' }), none, interactive)).toEqual({ systemMessage: 'Warden: Approved by operator alice' });
  });

  it('never allows when failing open', () => {
    expect(claudeCodeOutput({ ...preEvent, call: { id: 'toolu_1', tool: 'Read', input: {} } }, undecidedAnswer(true, 'Claude Code', 'Read', 'down', none))).toEqual({
      systemMessage: "Warden could not decide (down); Read is left to Claude Code's own permission rules (fail-open setting)",
    });
  });

  it('denies and stops Claude under an emergency stop', () => {
    expect(preToolUseAnswer(decision({}), { context: ['c'], stop: 'S' }, interactive)).toEqual({ continue: false, stopReason: 'S', ...pre({ additionalContext: 'c' }) });
  });
});

describe('the lifecycle answers', () => {
  const prompt: EdgeEvent = { type: 'prompt', session, prompt: 'p' };
  const stop: EdgeEvent = { type: 'stop', session, prolonged: false };
  it('blocks a prompt under a stop, and keeps Claude working once for unseen control messages', () => {
    expect(claudeCodeOutput(prompt, promptAnswer({ context: [], stop: 'S' }))).toEqual({ decision: 'block', reason: 'S' });
    expect(claudeCodeOutput(prompt, promptAnswer(none))).toBeNull();
    expect(claudeCodeOutput(prompt, promptAnswer({ context: ['a'] }))).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'a' } });
    expect(claudeCodeOutput(stop, turnEndAnswer({ context: ['a'] }, false))).toEqual({ decision: 'block', reason: 'a' });
    expect(claudeCodeOutput(stop, turnEndAnswer({ context: ['a'] }, true))).toBeNull();
    expect(claudeCodeOutput(stop, turnEndAnswer(none, false))).toBeNull();
  });
});

describe('the answers after a tool call', () => {
  const call = { id: 'toolu_1', tool: 'Bash', input: { command: 'make' } };
  it('names the event Claude Code sent, and gives a refused call no context (PermissionDenied takes none)', () => {
    const failed: EdgeEvent = { type: 'after_tool', session, call, result: { ok: false, error: 'Exit code 2' } };
    const refused: EdgeEvent = { type: 'after_tool', session, call, result: { ok: false, refused: true, error: 'Permission for this action was denied. Reason: r' } };
    expect(claudeCodeOutput(failed, { context: ['a'] })).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'a' } });
    expect(claudeCodeOutput(refused, { context: ['a'] })).toBeNull();
    expect(claudeCodeOutput(refused, { context: [], stop: 'S' })).toEqual({ continue: false, stopReason: 'S' });
  });
});

describe('interactive or headless', () => {
  it.each([
    ['default', undefined, true],
    ['acceptEdits', 'cli', true],
    ['default', 'claude-vscode', true],
    ['dontAsk', 'cli', false],
    ['bypassPermissions', undefined, false],
    ['default', 'sdk-cli', false],
    ['plan', 'sdk-ts', false],
  ])('permission mode %s, entry point %s: interactive %s', (mode, entrypoint, expected) => {
    expect(isInteractive(mode, entrypoint ? { entrypoint } : {})).toBe(expected);
  });

  it('routes approvals by the setting, by whether someone is at the terminal, and to an operator where the agent cannot ask', () => {
    const policy = (approvals: 'auto' | 'terminal' | 'operator') => ({ decide: false, approvals, failOpenTools: [] });
    expect(approverFor(policy('auto'), true, true)).toBe('agent_user');
    expect(approverFor(policy('auto'), false, true)).toBe('operator');
    expect(approverFor(policy('terminal'), false, true)).toBe('agent_user');
    expect(approverFor(policy('operator'), true, true)).toBe('operator');
    expect(approverFor(policy('terminal'), true, false)).toBe('operator');
  });
});
