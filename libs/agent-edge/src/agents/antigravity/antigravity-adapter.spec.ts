import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionDecision } from '@warden/sdk';
import { stoppedAnswer, toolCallAnswer, undecidedAnswer, type AnswerMode } from '../../capabilities.js';
import { guidanceAnswer, type ControlGuidance } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { antigravityAdapter, antigravityGoalFromTranscript } from './antigravity-adapter.js';

/**
 * Payloads: the PreToolUse agy 1.0.1 sent, captured verbatim in cisco-ai-defense/defenseclaw
 * internal/gateway/connector/antigravity_hook_profile_test.go (@ db1172fc); the common fields and the
 * PostToolUse (`stepIdx`, `error`) and PreInvocation (`invocationNum`, `initialNumSteps`) fields of
 * defenseclaw docs-site/content/docs/connectors/antigravity.mdx; the tool args of specstoryai/getspecstory
 * specstory-cli/docs/antigravity-format-spec.md §3.5. Answers: the PreToolUse `decision` of the same
 * DefenseClaw page and of michaeldhopkins/safe-chains HARNESS-BEHAVIORS.md (agy 1.1.2: deny, ask, force_ask).
 */
const conversationId = 'f74b1ea2-4369-45c5-9716-8f6b57b3e999';
const common = {
  artifactDirectoryPath: `/Users/kevinob/.gemini/antigravity-cli/brain/${conversationId}`,
  conversationId,
  transcriptPath: `/Users/kevinob/.gemini/antigravity-cli/brain/${conversationId}/.system_generated/logs/transcript.jsonl`,
  workspacePaths: ['/tmp/agy-smoketest'],
};
const captured = { ...common, stepIdx: 21, toolCall: { args: { CommandLine: 'echo phaseE-claude-shape', Cwd: '/tmp/agy-smoketest', WaitMsBeforeAsync: 1000 }, name: 'run_command' } };
const read = (payload: unknown, event?: string) => antigravityAdapter.read(payload, event ? { event } : {});
const session = { id: conversationId, cwd: '/tmp/agy-smoketest', transcriptPath: common.transcriptPath };

describe('reading agy’s hook payloads', () => {
  it('reads a PreToolUse as the call at its step, in the command’s directory', () => {
    expect(read(captured, 'PreToolUse')).toEqual({
      type: 'before_tool',
      session,
      call: { id: 'step-21', tool: 'run_command', input: captured.toolCall.args },
    });
  });

  it('reads a call without Cwd in the workspace’s first root', () => {
    const view = { ...common, workspacePaths: ['/home/dev/demo-app', '/home/dev/lib'], stepIdx: 26, toolCall: { name: 'view_file', args: { AbsolutePath: '/home/dev/demo-app/README.md' } } };
    expect(read(view, 'PreToolUse')).toMatchObject({ session: { cwd: '/home/dev/demo-app' }, call: { id: 'step-26', tool: 'view_file', input: { AbsolutePath: '/home/dev/demo-app/README.md' } } });
  });

  it('reads a PostToolUse as the outcome of the call at the same step, failed when it names an error, even without its toolCall', () => {
    expect(read({ ...captured, error: '' }, 'PostToolUse')).toEqual({ type: 'after_tool', session, call: { id: 'step-21', tool: 'run_command', input: captured.toolCall.args }, result: { ok: true } });
    expect(read({ ...captured, error: 'exit status 1' }, 'PostToolUse')).toMatchObject({ result: { ok: false, error: 'exit status 1' } });
    // agy 1.0.5 sent toolCall null (websentry-ai/setup PR #104).
    expect(read({ ...common, stepIdx: 21, toolCall: null, error: '' }, 'PostToolUse')).toMatchObject({ call: { id: 'step-21', tool: 'unknown', input: {} }, result: { ok: true } });
  });

  it('reads PreInvocation as the session’s start, with the model 1.1.2 names', () => {
    expect(read({ ...common, invocationNum: 0, initialNumSteps: 1, modelName: 'gemini-3.5-flash' }, 'PreInvocation')).toEqual({
      type: 'session_start',
      session: { ...session, model: 'gemini-3.5-flash' },
      source: 'PreInvocation',
    });
  });

  it('takes the event the installed hook passes, or the hookEventName newer builds add', () => {
    expect(read({ ...captured, hookEventName: 'PreToolUse' })).toMatchObject({ type: 'before_tool' });
    expect(read(captured, 'pretooluse')).toMatchObject({ type: 'before_tool' });
  });

  it.each([
    ['no event', captured, undefined, /the event must be one of PreToolUse, PostToolUse, PreInvocation \(got undefined/],
    ['an event it does not answer', captured, 'Stop', /\(got "Stop"/],
    ['a call without its step', { ...captured, stepIdx: undefined }, 'PreToolUse', /stepIdx is missing/],
    ['a call without args', { ...captured, toolCall: { name: 'run_command' } }, 'PreToolUse', /toolCall\.args must be a JSON object/],
    ['a conversation id that cannot be a subject token', { ...captured, conversationId: 'a.b' }, 'PreToolUse', /conversationId "a\.b" must be/],
    ['no workspace', { ...captured, workspacePaths: [], toolCall: { name: 'view_file', args: {} } }, 'PreToolUse', /workspacePaths is missing/],
  ])('refuses %s, naming what is wrong', (_name, payload, event, message) => {
    expect(() => read(payload, event)).toThrow(EdgeInputError);
    expect(() => read(payload, event)).toThrow(message);
  });
});

describe('agy’s answers', () => {
  const decision = (fields: Partial<ActionDecision>): ActionDecision => ({ actionId: 'step-21', allowed: true, verdict: 'allow', reason: 'R', reasons: ['R'], decidedBy: 'reviewer', latencyMs: 1, ...fields });
  const none: ControlGuidance = { context: [] };
  const pre = read(captured, 'PreToolUse');
  const answer = (d: ActionDecision, mode: AnswerMode = { decide: false, interactive: false }, guidance = none) =>
    antigravityAdapter.write(pre, toolCallAnswer(d, antigravityAdapter.capabilities, mode, 'run_command', guidance));

  it('says nothing at all when Warden has no objection, even with decide (its allow is no grant) or a warning', () => {
    expect(answer(decision({}))).toBeNull();
    expect(answer(decision({}), { decide: true, interactive: true })).toBeNull();
    expect(answer(decision({ verdict: 'warn' }), { decide: true, interactive: true }, { context: ['c'] })).toBeNull();
  });

  it('denies with the reason for the model', () => {
    expect(answer(decision({ allowed: false, verdict: 'block' }))).toEqual({ decision: 'deny', reason: 'Warden denied this action: R' });
  });

  it('forces agy to ask for an approval handed to the user, whatever the user allowed before', () => {
    expect(answer(decision({ verdict: 'require_approval', askUser: true }))).toEqual({ decision: 'force_ask', reason: 'Warden asks you to approve this action: R' });
  });

  it('refuses a changed command with the one to run instead (agy runs no changed input), with or without decide', () => {
    const changed = decision({ verdict: 'modify', updatedInput: { CommandLine: 'x', Cwd: '/w' } });
    const refused = { decision: 'deny', reason: 'Warden changed this action: R Run this instead: {"CommandLine":"x","Cwd":"/w"}' };
    expect(answer(changed)).toEqual(refused);
    expect(answer(changed, { decide: true, interactive: true })).toEqual(refused);
  });

  it('denies under an emergency stop, and never allows when failing open', () => {
    expect(antigravityAdapter.write(pre, stoppedAnswer('S', { context: ['c'], stop: 'S' }))).toEqual({ decision: 'deny', reason: 'S' });
    expect(antigravityAdapter.write(pre, undecidedAnswer(true, 'Antigravity', 'run_command', 'down'))).toBeNull();
  });

  it('says nothing to the other events', () => {
    const start: EdgeEvent = { type: 'session_start', session, source: 'PreInvocation' };
    expect(antigravityAdapter.write(start, guidanceAnswer({ context: ['c'] }))).toBeNull();
    expect(antigravityAdapter.write(read({ ...captured, error: '' }, 'PostToolUse'), guidanceAnswer({ context: ['c'], stop: 'S' }))).toBeNull();
  });

  it('routes approvals to an operator: agy does not say whether a person answers its prompts', () => {
    expect(antigravityAdapter.interactive?.(session, {})).toBe(false);
  });
});

describe('the goal of an agy session', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agy-transcript-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is the first user request of the transcript, without the metadata agy adds', () => {
    // One step per line, the prompt wrapped as specstory-cli/docs/antigravity-format-spec.md §3.7 shows.
    const path = join(dir, 'transcript.jsonl');
    const lines = [
      { step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-11-28T10:15:00Z', content: '<USER_REQUEST>\nFix the failing date parser test\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: 2026-11-28T11:15:00+01:00.\n</ADDITIONAL_METADATA>' },
      { step_index: 1, source: 'SYSTEM', type: 'CONVERSATION_HISTORY', status: 'DONE', created_at: '2026-11-28T10:15:00Z' },
      { step_index: 2, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-11-28T10:16:00Z', content: '<USER_REQUEST>\nAnd run the tests\n</USER_REQUEST>' },
    ];
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(antigravityGoalFromTranscript(path)).toBe('Fix the failing date parser test');
  });

  it('is nothing for a transcript that is missing or holds no prompt yet', () => {
    expect(antigravityGoalFromTranscript(join(dir, 'missing.jsonl'))).toBeUndefined();
    writeFileSync(join(dir, 't.jsonl'), `${JSON.stringify({ step_index: 0, source: 'SYSTEM', type: 'CONVERSATION_HISTORY', status: 'DONE' })}\n{"step_index":1,`);
    expect(antigravityGoalFromTranscript(join(dir, 't.jsonl'))).toBeUndefined();
  });
});
