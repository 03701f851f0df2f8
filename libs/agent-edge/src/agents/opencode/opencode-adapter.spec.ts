import type { ActionDecision } from '@warden/sdk';
import { canAsk, toolCallAnswer, undecidedAnswer, type AnswerMode } from '../../capabilities.js';
import { guidanceAnswer, promptAnswer, type ControlGuidance } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { openCodeAdapter } from './opencode-adapter.js';

/**
 * The events are OpenCode 2.x's, as its plugin receives them: `execute.before` {tool, sessionID, agent,
 * messageID, id, input} and `execute.after` (+ status and result or error) of anomalyco/opencode
 * packages/plugin/src/promise/tool.ts (@ 196e4612), with the values of an `execute.after` captured on
 * OpenCode 2.0.24 ("CTX Spike — FINDINGS", §4); `prompt` {sessionID, messageID, prompt: {text}} of
 * promise/session.ts and packages/schema/src/prompt-input.ts; `session.deleted` {sessionID} of
 * packages/schema/src/session-event.ts. The plugin posts them as OpenCodeHookCall.
 */
const directory = '/tmp/opencode/ctx_spike/workspace';
const tool = { sessionID: 'ses_eddafa958ffej5TFLNqfu01QCP', agent: 'build', messageID: 'msg_1225058f6001GCMacSEBkYLmDh' };
const shell = { ...tool, tool: 'shell', id: 'call_shell_1', input: { command: 'git push --force origin fix/date-parser' } };
const call = (hook: string, event: Record<string, unknown>) => openCodeAdapter.read({ hook, directory, event }, {});
const session = { id: tool.sessionID, cwd: directory };

describe('reading what Warden’s OpenCode plugin posts', () => {
  it('reads execute.before as the call OpenCode is about to run', () => {
    expect(call('tool.execute.before', shell)).toEqual({ type: 'before_tool', session, call: { id: 'call_shell_1', tool: 'shell', input: shell.input } });
  });

  it('reads execute.after as what ran: the content the model reads, or the error', () => {
    const content = [{ type: 'text', text: 'Read file /tmp/opencode/ctx_spike/workspace/hello.py, lines 1-5\n1: def greet(name):' }];
    const read = { ...tool, tool: 'read', id: 'call_read_1', input: { path: '/tmp/opencode/ctx_spike/workspace/hello.py' } };
    expect(call('tool.execute.after', { ...read, status: 'completed', result: { content } })).toEqual({ type: 'after_tool', session, call: { id: 'call_read_1', tool: 'read', input: read.input }, result: { ok: true, output: content } });
    expect(call('tool.execute.after', { ...shell, status: 'error', error: 'exit code 1' })).toMatchObject({ result: { ok: false, error: 'exit code 1' } });
  });

  it('keeps a call id usable as a subject token, alike before and after', () => {
    expect(call('tool.execute.before', { ...shell, id: 'call:1.2' })).toMatchObject({ call: { id: 'call_1_2' } });
    expect(call('tool.execute.after', { ...shell, id: 'call:1.2', status: 'completed', result: {} })).toMatchObject({ call: { id: 'call_1_2' } });
  });

  it('reads the prompt, and the session’s creation and deletion', () => {
    expect(call('session.prompt', { sessionID: tool.sessionID, messageID: 'msg_1', prompt: { text: 'Fix the failing date parser test' } })).toEqual({ type: 'prompt', session, prompt: 'Fix the failing date parser test' });
    expect(call('session.created', { sessionID: 'ses_child', parentID: tool.sessionID })).toEqual({ type: 'session_start', session: { id: 'ses_child', cwd: directory }, source: `subagent of ${tool.sessionID}` });
    expect(call('session.deleted', { sessionID: tool.sessionID })).toEqual({ type: 'session_end', session, reason: 'deleted' });
  });

  it.each([
    ['a hook it does not know', { hook: 'permission.evaluate', directory, event: shell }, /hook must be one of tool\.execute\.before, tool\.execute\.after, session\.prompt, session\.created, session\.deleted/],
    ['a call without the directory', { hook: 'tool.execute.before', event: shell }, /directory is missing/],
    ['a session id that cannot be a subject token', { hook: 'tool.execute.before', directory, event: { ...shell, sessionID: 'ses.1' } }, /event\.sessionID "ses\.1" must be/],
    ['an input that is not an object', { hook: 'tool.execute.before', directory, event: { ...shell, input: 'ls' } }, /event\.input must be a JSON object/],
    ['an outcome without its status', { hook: 'tool.execute.after', directory, event: shell }, /event\.status must be completed or error/],
  ])('refuses %s, naming what is wrong', (_name, payload, message) => {
    expect(() => openCodeAdapter.read(payload, {})).toThrow(EdgeInputError);
    expect(() => openCodeAdapter.read(payload, {})).toThrow(message);
  });
});

describe('what the plugin is told', () => {
  const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: 'call_shell_1', allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
  const none: ControlGuidance = { context: [] };
  const before = call('tool.execute.before', shell);
  const answer = (d: ActionDecision, mode: AnswerMode = { decide: false, interactive: false }, guidance = none, name = 'shell') =>
    openCodeAdapter.write(before, toolCallAnswer(d, openCodeAdapter.capabilities, mode, name, guidance));

  it('is nothing when Warden has no objection, and allow (a grant) only with decide', () => {
    expect(answer(decision({}))).toBeNull();
    expect(answer(decision({}), { decide: true, interactive: false })).toEqual({ decision: 'allow', reason: 'Warden allowed this action: R' });
  });

  it('denies with the reason, passing the text for the model beside any decision', () => {
    expect(answer(decision({ allowed: false, verdict: 'block' }), undefined, { context: ['c'] })).toEqual({ decision: 'deny', reason: 'Warden denied this action: R', context: ['c'] });
    expect(answer(decision({ verdict: 'warn' }))).toEqual({ context: ['Warden warns: R'] });
  });

  it('runs a changed input with decide, asks about it in an interactive session, and refuses it otherwise', () => {
    const changed = decision({ verdict: 'modify', updatedInput: { command: 'x' } });
    expect(answer(changed, { decide: true, interactive: false })).toEqual({ decision: 'rewrite', reason: 'Warden changed this action: R', input: { command: 'x' } });
    expect(answer(changed, { decide: false, interactive: true })).toEqual({ decision: 'ask', reason: 'Warden changed this action: R', input: { command: 'x' } });
    expect(answer(changed)).toEqual({ decision: 'deny', reason: 'Warden changed this action: R Run this instead: {"command":"x"}' });
  });

  it('asks only about tools OpenCode puts through its permission evaluation', () => {
    expect(answer(decision({ verdict: 'require_approval', askUser: true }))).toEqual({ decision: 'ask', reason: 'Warden asks you to approve this action: R' });
    expect(canAsk(openCodeAdapter.capabilities, 'shell')).toBe(true);
    expect(canAsk(openCodeAdapter.capabilities, 'subagent')).toBe(false);
    expect(answer(decision({ verdict: 'require_approval', askUser: true }), undefined, none, 'github_create_issue')).toMatchObject({ decision: 'deny' });
  });

  it('never allows when failing open', () => {
    expect(openCodeAdapter.write(before, undecidedAnswer(true, 'OpenCode', 'shell', 'down'))).toBeNull();
  });

  it('tells a stopped session’s model why, where a plugin cannot refuse the prompt', () => {
    const prompt: EdgeEvent = { type: 'prompt', session, prompt: 'p' };
    expect(openCodeAdapter.write(prompt, promptAnswer({ context: [], stop: 'S' }))).toEqual({ context: ['S'] });
    expect(openCodeAdapter.write(prompt, promptAnswer({ context: ['a'] }))).toEqual({ context: ['a'] });
    expect(openCodeAdapter.write({ type: 'session_end', session, reason: 'deleted' }, guidanceAnswer({ context: ['a'] }))).toBeNull();
  });
});
