import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { HookSuite, runWarden } from './hook-suite.fixture.js';

const AGENT = 'claude-code';
const TRANSCRIPT = join(WORKSPACE_ROOT, 'examples/sessions/02-claude-code-date-fix.jsonl');

interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  result?: { content: unknown; is_error?: boolean };
}

/** The tool calls of a Claude Code transcript in order, each once, with its result. */
function toolCalls(path: string): { sessionId: string; cwd: string; calls: ToolCall[] } {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; sessionId?: string; cwd?: string; message?: { content?: unknown } });
  const calls = new Map<string, ToolCall>();
  for (const line of lines) {
    const blocks = Array.isArray(line.message?.content) ? (line.message!.content as Record<string, unknown>[]) : [];
    for (const block of blocks) {
      if (block.type === 'tool_use' && !calls.has(block.id as string)) calls.set(block.id as string, { id: block.id as string, name: block.name as string, input: block.input as Record<string, unknown> });
      if (block.type === 'tool_result') {
        const call = calls.get(block.tool_use_id as string);
        if (call && !call.result) call.result = { content: block.content, is_error: block.is_error as boolean | undefined };
      }
    }
  }
  const first = lines.find((l) => l.sessionId)!;
  return { sessionId: first.sessionId!, cwd: first.cwd!, calls: [...calls.values()] };
}

/**
 * The same session twice: live, each tool call of a Claude Code transcript piped through `warden hook`
 * as Claude Code would (PreToolUse, then PostToolUse or PostToolUseFailure when it ran); then the
 * transcript through `warden replay`. What the replay reports for each action is what the hook answered.
 */
describe('a replayed Claude Code transcript and the live hook', () => {
  let suite: HookSuite;
  let project: string;

  beforeAll(async () => {
    suite = await HookSuite.start([AGENT]);
    project = mkdtempSync(join(tmpdir(), 'parity-'));
  }, 120_000);

  afterAll(async () => {
    await suite?.stop();
    rmSync(project, { recursive: true, force: true });
  }, 60_000);

  it('decides every action the same way', async () => {
    const { sessionId, cwd, calls } = toolCalls(TRANSCRIPT);
    // With decide, every answer carries Warden's decision, as the replay reports it.
    const env = { WARDEN_HOOK_DECIDE: 'true', CLAUDE_PROJECT_DIR: project, WARDEN_NATS_URL: suite.nats.url, WARDEN_AGENT_ID: AGENT, WARDEN_AGENT_PASSWORD: suite.nats.agent(AGENT).password, WARDEN_HOOK_STATE_DIR: join(project, 'state') };
    const live = new Map<string, { decision: string; reason: string; updatedInput?: unknown }>();
    for (const call of calls) {
      const common = { session_id: sessionId, transcript_path: TRANSCRIPT, cwd, permission_mode: 'default', tool_name: call.name, tool_input: call.input, tool_use_id: call.id };
      const pre = await runWarden(['hook'], { env, stdin: JSON.stringify({ ...common, hook_event_name: 'PreToolUse' }) });
      expect({ code: pre.code, stderr: pre.stderr }).toEqual({ code: 0, stderr: '' });
      const answer = (JSON.parse(pre.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput?: unknown } }).hookSpecificOutput;
      live.set(call.id, { decision: answer.permissionDecision, reason: answer.permissionDecisionReason, ...(answer.updatedInput ? { updatedInput: answer.updatedInput } : {}) });
      if (answer.permissionDecision !== 'allow' || !call.result) continue;
      const post = call.result.is_error
        ? { ...common, hook_event_name: 'PostToolUseFailure', error: String(call.result.content) }
        : { ...common, hook_event_name: 'PostToolUse', tool_response: call.result.content, duration_ms: 1000 };
      expect(await runWarden(['hook'], { env, stdin: JSON.stringify(post) })).toEqual({ code: 0, stdout: '', stderr: '' });
    }

    const run = await runWarden(['replay', TRANSCRIPT, '--json', '--settle-ms', '200', '--agent', AGENT], {
      cwd: project,
      env: { NATS_URL: suite.nats.url, NATS_USER: suite.nats.operator.user, NATS_PASSWORD: suite.nats.operator.password, WARDEN_AGENT_PASSWORD: suite.nats.agent(AGENT).password },
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(run.stdout) as { sessionId: string; actions: { actionId: string; decision: string; reason: string; verdict: string; updatedInput?: unknown }[] };
    expect(report.sessionId).not.toBe(sessionId);
    // Declared alike: the same scope and the same goal (the transcript's first prompt); the replay says it is one.
    const declared = (session: string) => suite.recorder.messages.find((m) => m.body.type === 'session.started' && m.body.session_id === session)?.body.payload;
    expect(declared(report.sessionId)).toEqual({ ...(declared(sessionId) as object), replay: true });
    expect(declared(sessionId)).toMatchObject({ context: { goal: 'Fix the failing date parser test in src/utils/date.ts' } });

    const prefix: Record<string, string> = { allow: 'Warden allowed this action: ', warn: 'Warden warns: ', modify: 'Warden changed this action: ', block: 'Warden denied this action: ' };
    const replayed = new Map(
      report.actions.map((a) => [a.actionId, { decision: a.decision, reason: `${prefix[a.verdict]}${a.reason}`, ...(a.updatedInput ? { updatedInput: a.updatedInput } : {}) }]),
    );
    expect(replayed).toEqual(live);
    // Not a trivial agreement: the session has allowed, warned, modified and blocked actions.
    expect(new Set(report.actions.map((a) => a.verdict))).toEqual(new Set(['allow', 'warn', 'modify', 'block']));
  }, 120_000);
});
