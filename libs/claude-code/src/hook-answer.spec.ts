import type { ActionDecision } from '@warden/sdk';
import { approverFor, isInteractive } from './answer-policy.js';
import { failOpenAnswer, preToolUseAnswer, promptAnswer, stopAnswer } from './hook-answer.js';

const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: 'toolu_1', allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
const none = { context: [] };
const interactive = { decide: false, interactive: true };
const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

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
    expect(failOpenAnswer('Read', 'down', none)).toEqual({ systemMessage: "Warden could not decide (down); Read is left to Claude Code's own permission rules (fail-open setting)" });
  });
});

describe('the lifecycle answers', () => {
  it('blocks a prompt under a stop, and keeps Claude working once for unseen control messages', () => {
    expect(promptAnswer({ context: [], stop: 'S' })).toEqual({ decision: 'block', reason: 'S' });
    expect(promptAnswer(none)).toBeNull();
    expect(stopAnswer({ context: ['a'] }, false)).toEqual({ decision: 'block', reason: 'a' });
    expect(stopAnswer({ context: ['a'] }, true)).toBeNull();
    expect(stopAnswer(none, false)).toBeNull();
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

  it('routes approvals by the setting, or by whether someone is at the terminal', () => {
    const policy = (approvals: 'auto' | 'terminal' | 'operator') => ({ decide: false, approvals, failOpenTools: [] });
    expect(approverFor(policy('auto'), 'default', {})).toBe('agent_user');
    expect(approverFor(policy('auto'), 'default', { entrypoint: 'sdk-cli' })).toBe('operator');
    expect(approverFor(policy('terminal'), 'dontAsk', {})).toBe('agent_user');
    expect(approverFor(policy('operator'), 'default', {})).toBe('operator');
  });
});
