import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { recordingsIn } from '../src/eval/evaluation.js';
import { cellCalls } from '../src/replay/formats/codex-code-mode.js';
import { parseCopilotCliEvents } from '../src/replay/formats/copilot-cli-events.js';
import { parseSpecStory } from '../src/replay/formats/specstory-markdown.js';
import { parseCodexRollout } from '../src/replay/formats/codex-rollout.js';
import { detectFormat, FORMATS, readRecording } from '../src/replay/read-recording.js';
import { renderReport, summarize, type ReplayReport } from '../src/replay/replay-report.js';
import type { RecordedAction, RecordedSession, RecordingFormat } from '../src/replay/recorded-session.js';
import { runWarden } from './hook-suite.fixture.js';

/**
 * Reading the recordings of agents other than Claude Code. Each fixture (test/fixtures/recordings, written
 * for the project) follows the shape its agent documents or its source writes, named with each test.
 */
const FIXTURES = join(WORKSPACE_ROOT, 'apps/cli/test/fixtures/recordings');
const read = (name: string, format?: RecordingFormat) => readRecording(join(FIXTURES, name), format);
const byId = (session: RecordedSession) => new Map(session.actions.map((a) => [a.recordedId ?? a.actionId, a]));
const ids = (session: RecordedSession) => session.actions.map((a) => a.recordedId ?? a.actionId);

describe('Codex rollouts', () => {
  // openai/codex codex-rs/protocol/src/protocol.rs (RolloutLine, RolloutItem, EventMsg) and codex-rs/protocol/src/models.rs
  // (ResponseItem); code mode as the public rollout github.com/AkashJana18/edgerunner codex-session.jsonl shows it.
  const session = read('codex-rollout.jsonl');
  const action = byId(session);

  it('declares the session from session_meta and turn_context, the first user message as the goal', () => {
    expect(session.format).toBe('codex');
    expect(session.sessionId).toBe('019a8f3e-5b2c-7d41-9e0a-4c1f2b3d4e5f');
    expect(session.declaration).toEqual({ context: { cwd: '/home/dev/demo-app', expected_paths: ['/home/dev/demo-app/**'], goal: 'Fix the date parser' }, agent_kind: 'codex', model: 'gpt-5.5' });
  });

  it('keeps the tools as Codex names them, with their outcomes, durations, files and the usage of the model call', () => {
    expect(action.get('call_001')).toEqual({
      actionId: 'call_001',
      tool: 'exec_command',
      input: { cmd: 'npm test', workdir: '/home/dev/demo-app' },
      kind: 'tool_use',
      title: 'exec_command: npm test',
      // Codex records no response id: the calls listed together before any output are one turn.
      turn: 't1',
      at: '2026-11-28T10:15:02.000Z',
      outcome: {
        status: 'error',
        error: { message: '1 failing\n' },
        durationMs: 4000,
        at: '2026-11-28T10:15:06.000Z',
        // Input tokens include the cached ones; a count repeated for a rate-limit update is no second call.
        tokens: { prompt: 200, completion: 80, cache_read: 1000 },
        model: 'gpt-5.5',
      },
    });
    expect(action.get('call_002')).toMatchObject({
      tool: 'apply_patch',
      input: { input: expect.stringContaining('*** Update File: src/date.ts') },
      title: 'apply_patch: src/date.ts',
      outcome: { status: 'success', durationMs: 100, filesTouched: ['/home/dev/demo-app/src/date.ts'], tokens: { prompt: 200, completion: 50, cache_read: 600 } },
    });
  });

  it.each([
    'failed in sandbox: sandbox error: command was killed by a signal',
    'failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: , stderr: ',
  ])('reads a command the sandbox killed or denied as failed: its output says so and gives no exit code (%s)', (output) => {
    // The outputs Codex records for them, as in the public rollouts github.com/bumpy-croc/ai-trading-bot
    // .codex/sessions/2025/10/17/rollout-…-eff8c75f8a7a.jsonl and github.com/R1DDL30510/Init-
    // .codex/sessions/2025/11/09/rollout-2025-11-09T07-35-10-019a6753-….jsonl @ 049a0c3.
    const dir = mkdtempSync(join(tmpdir(), 'warden-codex-'));
    const line = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: '2026-11-28T10:15:00.000Z', type, payload });
    writeFileSync(
      join(dir, 'rollout.jsonl'),
      [
        line('session_meta', { id: '019a8f3e-0000-7d41-9e0a-4c1f2b3d4e5f', cwd: '/home/dev/bot', originator: 'codex_cli_rs' }),
        line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the failing unit tests' }] }),
        line('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'pytest tests/unit'], workdir: '/home/dev/bot' }), call_id: 'call_k' }),
        line('response_item', { type: 'function_call_output', call_id: 'call_k', output }),
      ].join('\n') + '\n',
    );
    try {
      expect(byId(readRecording(join(dir, 'rollout.jsonl'))).get('call_k')?.outcome).toMatchObject({ status: 'error', error: { message: output } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a follow-up request, a call the user declined (no outcome) and its own working directory', () => {
    expect(action.get('call_003')).toMatchObject({ tool: 'shell', input: { command: ['bash', '-lc', 'git push --force'] }, request: 'Now push it', cwd: '/home/dev/demo-app/packages/core' });
    expect(action.get('call_003')!.outcome).toBeUndefined();
  });

  it('reads the calls of a code-mode cell, and keeps a cell whose calls it cannot read as one exec action', () => {
    expect(action.get('call_004')).toMatchObject({ tool: 'exec_command', input: { workdir: '/home/dev/demo-app', yield_time_ms: 10000, cmd: 'git status --short' }, description: 'call 1 of 2 in code-mode cell call_004' });
    expect(action.get('call_004-2')).toMatchObject({ tool: 'github__get_me', input: {}, outcome: { status: 'success', durationMs: 500 } });
    // The text reply's usage went with the next call that reported an outcome: the session's spending adds up.
    expect(action.get('call_004-2')!.outcome!.tokens).toEqual({ prompt: 100, completion: 20, cache_read: 400 });
    expect(action.get('call_005')).toMatchObject({ tool: 'exec', input: { input: expect.stringContaining('patch.replace') }, outcome: { status: 'error' } });
    expect(session.notes).toEqual(['1 code-mode exec cell(s) compute the arguments of their tool calls: each is kept as one exec action with its code']);
    expect(action.get('L24')).toMatchObject({ tool: 'web_search', input: { type: 'search', query: 'date-fns parseISO week dates' } });
  });

  it('reads literal arguments of a cell, spreads and constants included, and nothing it would have to run', () => {
    expect(cellCalls('const c = {a: 1};\nconst r = await tools.x({...c, b: "two", d: [true, null]}); text(r);')).toEqual([{ tool: 'x', argument: { a: 1, b: 'two', d: [true, null] } }]);
    expect(cellCalls("const p = 'x\\ny';\nawait tools.apply_patch(p);\nconst s = `a`; tools.y(`t`)")).toEqual([
      { tool: 'apply_patch', argument: 'x\ny' },
      { tool: 'y', argument: 't' },
    ]);
    expect(cellCalls('for (const f of files) await tools.exec_command({cmd: `cat ${f}`});')).toEqual([{ tool: 'exec_command', unreadable: true }]);
    expect(cellCalls('text("tools.exec_command({})"); // tools.z()\nconst re = /tools.q(/;')).toEqual([]);
  });
});

describe('Gemini CLI recordings', () => {
  // google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts (ConversationRecord, MessageRecord, ToolCallRecord).
  it('reads a chat session: toolCalls with their results, the model usage, a cancelled call without outcome', () => {
    const session = read('gemini-cli-chat.json');
    expect(session.format).toBe('gemini-cli');
    // The kind the live Gemini CLI adapter declares: a policy on agent.kind reads the same in eval and live.
    expect(session.declaration).toEqual({ context: { cwd: '/home/dev/demo-app', expected_paths: ['/home/dev/demo-app/**'], goal: 'Fix the date parser' }, agent_kind: 'gemini', model: 'gemini-2.5-pro' });
    const [readFile, test, push, write] = session.actions as [RecordedAction, RecordedAction, RecordedAction, RecordedAction];
    expect(readFile).toMatchObject({
      actionId: 'read_file-1795860902000-aa11bb22cc33d',
      tool: 'read_file',
      input: { file_path: 'src/date.ts' },
      // The call id carries the time it was made.
      at: '2026-11-28T10:15:02.000Z',
      outcome: { status: 'success', output: 'export function parse(s) {}', durationMs: 1000, tokens: { prompt: 4000, completion: 275, cache_read: 10000 }, model: 'gemini-2.5-pro' },
    });
    // A shell command's failure shows only as its exit code.
    expect(test).toMatchObject({ tool: 'run_shell_command', title: 'Run the tests — run_shell_command: npm test', outcome: { status: 'error' } });
    expect(push).toMatchObject({ input: { command: 'git push --force' }, request: "Don't touch the tests, push instead" });
    expect(push.outcome).toBeUndefined();
    expect(write.outcome).toMatchObject({ status: 'error', error: { message: 'Tool execution denied by policy. You are in Plan Mode.' } });
  });

  it('reads a chat session in JSON Lines, a message written again as it completes counting once', () => {
    const session = read('gemini-cli-chat.jsonl');
    expect(session.format).toBe('gemini-cli');
    expect(session.declaration.context).toEqual({ cwd: '/home/dev/demo-app', expected_paths: ['/home/dev/demo-app/**'], goal: 'List the sources' });
    expect(session.actions).toHaveLength(1);
    expect(session.actions[0]).toMatchObject({ tool: 'list_directory', input: { dir_path: 'src' }, outcome: { status: 'success', output: 'date.ts', tokens: { prompt: 900, completion: 12 } } });
  });

  // packages/core/src/utils/errorReporting.ts writes {error, context}: the conversation as sent to the model.
  it('reads an error report: functionCall parts as fc-<n>, answered in order, timed by the responses ids', () => {
    const session = read('gemini-cli-error-report.json');
    expect(ids(session)).toEqual(['fc-1', 'fc-2', 'fc-3', 'fc-4']);
    expect(session.declaration.context).toEqual({ cwd: '/home/dev/demo-app', expected_paths: ['/home/dev/demo-app/**'], goal: 'Make the booking form accept empty dates' });
    const action = byId(session);
    expect(action.get('fc-1')).toMatchObject({ tool: 'read_file', at: '2026-11-28T10:15:04.000Z', outcome: { status: 'success', output: '<?php ...' } });
    expect(action.get('fc-2')).toMatchObject({ tool: 'glob', outcome: { status: 'success', output: 'Found 2 file(s)' } });
    expect(action.get('fc-3')).toMatchObject({ input: { command: 'rm src/form.php' }, outcome: { status: 'error', error: { message: "rm: cannot remove 'src/form.php': Permission denied" } } });
    expect(action.get('fc-4')!.outcome).toBeUndefined();
    expect(session.notes).toEqual([expect.stringMatching(/^the session ended on a failed model call: got status: UNAVAILABLE/)]);
  });

  // packages/core/src/output/types.ts (JsonStreamEvent: init, message, tool_use, tool_result, result).
  it('reads stream-json, two runs in one file as one session in order, saying so', () => {
    const session = read('gemini-cli-stream.jsonl');
    expect(session.sessionId).toBe('66268ffc-d63d-4f98-b413-900eef4fd2db');
    expect(session.notes).toEqual(['2 headless runs (init events) in one file: read in order as one session']);
    const [write, build, push] = session.actions as [RecordedAction, RecordedAction, RecordedAction];
    // The run's token totals (10,000 prompt, 300 completion, 20,000 read from the cache) are shared out over its
    // two actions: they were spent over the run, not in its last minute.
    const half = { prompt: 5000, completion: 150, cache_read: 10000 };
    expect(write).toMatchObject({ tool: 'write_file', outcome: { status: 'success', durationMs: 500, tokens: half } });
    expect(build).toMatchObject({ outcome: { status: 'error', error: { message: 'tsc: 1 error' }, tokens: half, model: 'gemini-2.5-pro' } });
    expect(push).toMatchObject({ input: { command: 'git push --force origin main' }, request: 'Build the landing page again' });
  });
});

describe('GitHub Copilot CLI session logs', () => {
  // No public events.jsonl was found: the fixture follows github/copilot-sdk nodejs/src/generated/session-events.ts
  // (session-events.schema.json): session.start, user.message, assistant.message toolRequests, assistant.usage,
  // tool.execution_start / tool.execution_complete.
  const session = read('copilot-cli-events.jsonl');
  const action = byId(session);

  it('declares the session from session.start and reads requests, starts and completions by toolCallId', () => {
    expect(session.format).toBe('copilot-cli');
    // The kind the live Copilot CLI adapter declares.
    expect(session.declaration).toEqual({ context: { cwd: '/home/dev/demo-app', expected_paths: ['/home/dev/demo-app/**'], goal: 'Fix the date parser' }, agent_kind: 'copilot', model: 'gpt-5.5' });
    expect(ids(session)).toEqual(['call_9', 'call_10', 'call_11', 'call_12']);
    expect(action.get('call_9')).toMatchObject({
      tool: 'bash',
      input: { command: 'npm test', description: 'Run the tests' },
      title: 'Run the tests — bash: npm test',
      at: '2026-11-28T10:15:02.200Z',
      outcome: { status: 'success', output: 'Tests: 42 passed, 42 total', durationMs: 4200, tokens: { prompt: 1200, completion: 80, cache_read: 1000 }, model: 'gpt-5.5' },
    });
  });

  it('decodes arguments written as a JSON string, and reads failures, MCP tools and calls that never started', () => {
    expect(action.get('call_10')).toMatchObject({ tool: 'edit', input: { path: '/home/dev/demo-app/src/date.ts', old_str: '(s)', new_str: '(s: string)' }, outcome: { status: 'error', error: { message: 'No match found for old_str' } } });
    expect(action.get('call_11')).toMatchObject({ tool: 'github-create_issue', description: 'MCP tool create_issue of server github', request: 'Also add the GitHub issue', outcome: { status: 'success' } });
    expect(action.get('call_12')).toMatchObject({ tool: 'bash', input: { command: 'git push --force' } });
    expect(action.get('call_12')!.outcome).toBeUndefined();
  });
});

describe('GitHub Copilot CLI /share exports', () => {
  // No documented shape: the fixture follows public exports (github.com/acabrera04/Harmony
  // llm-logs/frontend/02-18-pr58-review.md @ 45a1af3, calls with their arguments; github.com/RyanCavanaugh/firaga-io
  // session.md @ 438e118, calls shown in short; github.com/2026-spring-adv-fe/tca-unmatched
  // copilot-session-7a93dc58-a2d0-41f1-8844-4d6760b2dde6.md @ 90fe49a, the header in a `> [!NOTE]` list).
  const session = read('copilot-cli-share.md');
  const action = byId(session);

  it('reads calls as L<line of their heading>, with arguments, results and times from the start and the elapsed stamps', () => {
    expect(session.format).toBe('copilot-cli');
    expect(session.sessionId).toBe('7d1c52aa-0b7e-4d7e-9a55-3c1f0e9b2a10');
    expect(session.declaration).toEqual({ context: { goal: 'Fix the date parser' }, agent_kind: 'copilot' });
    expect(ids(session)).toEqual(['L21', 'L48', 'L67', 'L99']);
    expect(action.get('L21')).toMatchObject({
      tool: 'bash',
      input: { command: 'npm test', description: 'Run the tests' },
      at: '2026-11-28T14:05:38.000Z',
      // The tool ran; the command it ran exited 1.
      outcome: { status: 'error', error: { message: 'Tests: 1 failed, 41 passed\n<exited with exit code 1>' } },
    });
    expect(action.get('L48')).toMatchObject({ tool: 'view', input: { path: '/home/dev/demo-app/src/date.ts' }, outcome: { status: 'success', output: expect.stringContaining('return new Date(s)') } });
  });

  it('reads failed calls, calls shown in short, a reply with headings of its own, and later requests', () => {
    expect(action.get('L67')).toMatchObject({ tool: 'edit', input: { path: '/home/dev/demo-app/src/date.ts' }, outcome: { status: 'error', error: { message: 'No match found for old_str' } } });
    expect(action.get('L99')).toMatchObject({
      tool: 'bash',
      input: { command: 'git push --force origin main', description: 'Push' },
      request: 'Also push it',
      at: '2026-11-28T14:06:41.000Z',
      outcome: { status: 'error', error: { message: 'The user rejected this tool call.' } },
    });
  });

  it('reads a command of the session log as failed when its result says it exited with another code than 0', () => {
    const log = [
      { type: 'session.start', id: 'e1', timestamp: '2026-11-28T10:00:00Z', data: { sessionId: 's', context: { cwd: '/home/dev/app' } } },
      { type: 'user.message', id: 'e2', timestamp: '2026-11-28T10:00:01Z', data: { content: 'Build it' } },
      { type: 'assistant.message', id: 'e3', timestamp: '2026-11-28T10:00:02Z', data: { toolRequests: [{ toolCallId: 'c1', name: 'bash', arguments: { command: 'npm run build' } }, { toolCallId: 'c2', name: 'bash', arguments: { command: 'ls' } }] } },
      { type: 'tool.execution_complete', id: 'e4', timestamp: '2026-11-28T10:00:05Z', data: { toolCallId: 'c1', success: true, result: { content: 'error TS2304\n<exited with exit code 2>' } } },
      { type: 'tool.execution_complete', id: 'e5', timestamp: '2026-11-28T10:00:06Z', data: { toolCallId: 'c2', success: true, result: { content: 'src\n<exited with exit code 0>' } } },
    ];
    const parsed = parseCopilotCliEvents(log.map((e) => JSON.stringify(e)).join('\n'));
    expect(parsed.actions.map((a) => a.outcome?.status)).toEqual(['error', 'success']);
  });
});

describe('early Codex rollouts (mid-2025)', () => {
  // Before Codex wrapped each line as {timestamp, type, payload}: a header line {id, timestamp, instructions, git},
  // {"record_type": "state"} markers and the Responses API items bare, as public rollouts of that time show them
  // (github.com/JaydenXsoe/ocodex .codex/main_codex.back/sessions/2025/08/27/rollout-2025-08-27T11-35-50-….jsonl @ 317a6db).
  const rollout = [
    { id: '0c75382e-1549-40e4-911b-6a6d4183f2a4', timestamp: '2025-08-27T11:35:50.557Z', instructions: null, git: { branch: 'main' } },
    { record_type: 'state' },
    { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/home/dev/demo-app</cwd>\n</environment_context>' }] },
    { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'Fix the date parser' }] },
    { record_type: 'state' },
    { type: 'function_call', id: 'fc_1', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'npm test'], workdir: '/home/dev/demo-app' }), call_id: 'call_1' },
    { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'Tests: 1 failed\n', metadata: { exit_code: 1, duration_seconds: 1.2 } }) },
  ];

  it('reads the bare items as the wrapped lines they became, told from the header line', () => {
    const text = rollout.map((r) => JSON.stringify(r)).join('\n');
    expect(detectFormat(text)).toBe('codex');
    const session = parseCodexRollout(text);
    expect(session.sessionId).toBe('0c75382e-1549-40e4-911b-6a6d4183f2a4');
    expect(session.declaration.context).toMatchObject({ goal: 'Fix the date parser' });
    expect(session.actions).toMatchObject([{ actionId: 'call_1', tool: 'shell', input: { command: ['bash', '-lc', 'npm test'] }, outcome: { status: 'error' } }]);
  });
});

describe('SpecStory exports (.specstory/history/*.md)', () => {
  // specstoryai/getspecstory specstory-cli/pkg/markdown/markdown.go (header, session comment, role headings, the
  // <tool-use> element) and pkg/providers/geminicli/markdown_tools.go (a shell call's `bash` block, `Result:`); the
  // bodies Cursor, Codex and VS Code's Copilot get as public exports show them: github.com/0xmcc/ubi-course
  // .specstory/history/2026-03-02_21-25Z-vercel-project-identification.md @ f7b4e62 (Cursor),
  // github.com/IngoS11/EmailBuddy .specstory/history/2026-02-27_18-12-11Z-i-want-to-be.md @ 3b5e142 (Codex),
  // github.com/DanCard/cal-date-widget .specstory/history/2025-12-02_23-39-04Z-i-want-a-highly.md @ 236358e (Gemini CLI).
  const session = read('specstory-history.md');
  const action = byId(session);

  it("reads a Cursor session as L<line of the call's tag>, with the command, the output and the request before it", () => {
    expect(session.format).toBe('specstory');
    expect(session.sessionId).toBe('4f2a9c1e-7b3d-4e8a-9c21-5d6e7f8a9b0c');
    expect(session.declaration).toEqual({ context: { goal: 'Fix the date parser' }, agent_kind: 'cursor', model: 'claude-4.5-sonnet-thinking' });
    expect(ids(session)).toEqual(['L21', 'L41', 'L47', 'L66', 'L81', 'L110', 'L131']);
    expect(action.get('L21')).toMatchObject({
      tool: 'run_terminal_cmd',
      input: { command: 'cd /home/dev/demo-app && npm test' },
      at: '2026-11-28T14:05:00.000Z',
      outcome: { status: 'error', error: { message: expect.stringContaining('Tests: 1 failed, 41 passed') } },
    });
    expect(action.get('L41')).toMatchObject({ tool: 'read_file', input: { file_path: 'src/date.ts' } });
    expect(action.get('L41')!.outcome).toBeUndefined();
    expect(action.get('L47')).toMatchObject({ tool: 'search_replace', input: { file_path: 'src/date.ts', content: expect.stringContaining('T00:00:00Z') } });
    expect(action.get('L66')).toMatchObject({ tool: 'grep', input: { pattern: 'parse\\(', path: 'src' } });
    expect(action.get('L81')).toMatchObject({ tool: 'ripgrep_raw_search', input: { pattern: 'new Date\\(', path: '/home/dev/demo-app/src', caseInsensitive: false } });
  });

  it('keeps an output that holds fences of its own inside its call, and the later request with the next call', () => {
    expect(action.get('L110')).toMatchObject({ tool: 'run_terminal_cmd', input: { command: 'cat README.md' }, request: 'Show me the README and push it', outcome: { status: 'success', output: expect.stringContaining('<done>') } });
    expect(action.get('L131')).toMatchObject({ tool: 'run_terminal_cmd', input: { command: 'git push --force origin main' } });
    expect(action.get('L131')!.outcome).toBeUndefined();
  });

  const exported = (agent: string, body: string) =>
    `<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n<!-- ${agent} Session s-1 (2026-11-28 14:05:00Z) -->\n\n_**User (2026-11-28 14:05:00Z)**_\n\nFix it\n\n---\n\n_**Agent (gpt-5.5 2026-11-28 14:05:10Z)**_\n\n${body}`;

  it("reads Codex's command from the summary (not from a README its output shows), its exit code and its patches", () => {
    const codex = parseSpecStory(
      exported(
        'Codex CLI',
        [
          '<tool-use data-tool-type="shell" data-tool-name="exec_command"><details>',
          '<summary>Tool use: **exec_command** `sed -n \'1,40p\' README.md`</summary>',
          '```',
          'Process exited with code 0',
          'Output:',
          '```bash',
          'npm run dev',
          '```',
          '```',
          '</details></tool-use>',
          '<tool-use data-tool-type="shell" data-tool-name="exec_command"><details>',
          '<summary>Tool use: **exec_command** `npm test`</summary>',
          '```',
          'Process exited with code 2',
          '```',
          '</details></tool-use>',
          '<tool-use data-tool-type="write" data-tool-name="apply_patch"><details>',
          '<summary>Tool use: **apply_patch**</summary>',
          '**Update: `src/date.ts`**',
          '',
          '```diff',
          '@@',
          '-a',
          '+b',
          '```',
          '</details></tool-use>',
        ].join('\n'),
      ),
    );
    expect(codex.declaration).toMatchObject({ agent_kind: 'codex', model: 'gpt-5.5' });
    expect(codex.actions.map((a) => [a.tool, a.input, a.outcome?.status])).toEqual([
      ['exec_command', { command: "sed -n '1,40p' README.md" }, 'success'],
      ['exec_command', { command: 'npm test' }, 'error'],
      ['apply_patch', { input: '*** Begin Patch\n*** Update File: src/date.ts\n@@\n-a\n+b\n*** End Patch' }, undefined],
    ]);
  });

  it("reads Gemini CLI's shell result and exit code, and VS Code Copilot's input list", () => {
    const gemini = parseSpecStory(
      exported(
        'Gemini CLI',
        [
          '<tool-use data-tool-type="shell" data-tool-name="run_shell_command"><details><summary>Tool use: **Shell**</summary>',
          '',
          '```bash',
          './gradlew assembleDebug',
          '```',
          '',
          'Result:',
          '```text',
          'Command: ./gradlew assembleDebug',
          'Output: bash: ./gradlew: No such file or directory',
          'Exit Code: 127',
          '```',
          '</details></tool-use>',
        ].join('\n'),
      ),
    );
    expect(gemini.actions).toMatchObject([{ tool: 'run_shell_command', input: { command: './gradlew assembleDebug' }, outcome: { status: 'error' } }]);
    expect(gemini.declaration).toMatchObject({ agent_kind: 'gemini-cli' });
    const copilot = parseSpecStory(
      exported(
        'VS Code Copilot IDE',
        [
          '<tool-use data-tool-type="generic" data-tool-name="run_in_terminal"><details>',
          '<summary>Tool use: **run_in_terminal**</summary>',
          '',
          '**Input:**',
          '',
          '- command: `mix ecto.gen.migration create_rooms`',
          '- isBackground: `false`',
          '',
          '</details></tool-use>',
        ].join('\n'),
      ),
    );
    expect(copilot.actions).toMatchObject([{ tool: 'run_in_terminal', input: { command: 'mix ecto.gen.migration create_rooms' } }]);
    expect(copilot.declaration).toMatchObject({ agent_kind: 'copilot' });
  });
});

describe('OpenCode exports', () => {
  // anomalyco/opencode packages/opencode/src/session/message-v2.ts (ToolPart, ToolState, StepFinishPart), as `opencode export` prints them.
  it('reads tool parts by callID with their state, the step usage, a non-zero exit as a failure, a running tool without outcome', () => {
    const session = read('opencode-export.json');
    expect(session.format).toBe('opencode');
    expect(session.sessionId).toBe('ses_5bdea460dffei6gMMYvZZcrJ91');
    // The synthetic part OpenCode adds to a prompt is no request of the user.
    expect(session.declaration).toEqual({ context: { cwd: '/home/dev/demo-app', expected_paths: ['/home/dev/demo-app/**'], goal: 'Fix the date parser' }, agent_kind: 'opencode', model: 'claude-sonnet-5' });
    const action = byId(session);
    expect(action.get('call_05')).toEqual({
      actionId: 'call_05',
      tool: 'bash',
      input: { command: 'npm test', description: 'Run the tests' },
      kind: 'tool_use',
      title: 'Run the tests — bash: npm test',
      // The message's first step (step-start part) ran the model that asked for it.
      turn: 'msg_01#1',
      at: '2026-11-28T10:15:02.000Z',
      outcome: { status: 'error', error: { message: '1 failing\n' }, durationMs: 4000, at: '2026-11-28T10:15:06.000Z', tokens: { prompt: 300, completion: 50, cache_read: 1000, cache_write: 200 }, model: 'claude-sonnet-5' },
    });
    expect(action.get('call_06')).toMatchObject({ tool: 'edit', input: { filePath: '/home/dev/demo-app/src/date.ts' }, outcome: { status: 'error', error: { message: 'oldString not found in content' } } });
    expect(action.get('call_07')).toMatchObject({ request: 'Push it', cwd: '/home/dev/demo-app/packages/core' });
    expect(action.get('call_07')!.outcome).toBeUndefined();
  });
});

describe('Antigravity transcripts', () => {
  // specstoryai/getspecstory specstory-cli/docs/antigravity-format-spec.md (steps, PLANNER_RESPONSE tool_calls, result steps).
  const session = read('antigravity-transcript.jsonl');
  const action = byId(session);

  it('knows calls by their place, L<line>.<k>, sent as a usable action id, whatever step_index says', () => {
    expect(session.format).toBe('antigravity');
    expect(ids(session)).toEqual(['L3.0', 'L3.1', 'L7.0', 'L9.0', 'L13.0']);
    expect(session.actions.map((a) => a.actionId)).toEqual(['L3-0', 'L3-1', 'L7-0', 'L9-0', 'L13-0']);
    expect(session.declaration).toEqual({ context: { goal: 'Fix the date parser' }, agent_kind: 'antigravity' });
  });

  it('decodes the JSON-encoded arguments and takes each result step in order, times from its header', () => {
    expect(action.get('L3.0')).toEqual({
      actionId: 'L3-0',
      recordedId: 'L3.0',
      tool: 'run_command',
      input: { CommandLine: 'npm test', Cwd: '/home/dev/demo-app', WaitMsBeforeAsync: 5000, toolAction: 'Running tests', toolSummary: 'npm test' },
      kind: 'tool_use',
      title: 'Running tests — run_command: npm test',
      turn: 'L3',
      at: '2026-11-28T10:15:02.000Z',
      cwd: '/home/dev/demo-app',
      outcome: { status: 'error', error: { message: 'The command failed with exit code: 1\nOutput:\n1 failing' }, durationMs: 4000, at: '2026-11-28T10:15:06.000Z' },
    });
    expect(action.get('L3.1')).toMatchObject({ tool: 'view_file', outcome: { status: 'success' } });
    expect(action.get('L7.0')).toMatchObject({ tool: 'write_to_file', outcome: { status: 'error', error: { message: expect.stringContaining('is not a valid artifact path') } } });
  });

  it('reads a background command and how it ended, and the user request before the next call', () => {
    expect(action.get('L9.0')!.outcome).toMatchObject({ status: 'error', error: { message: 'The command failed with exit code: 1\nOutput:\nport 3000 in use' } });
    expect(action.get('L13.0')).toMatchObject({ request: 'Use port 3001' });
    expect(action.get('L13.0')!.outcome).toBeUndefined();
  });
});

describe('Aider chat histories', () => {
  // Aider-AI/aider aider/io.py (user input as `#### `, Aider's notes as `> `) and aider/coders/base_coder.py (commits, `Running <command>`).
  const session = read('aider-chat-history.md');
  const action = byId(session);

  it('reads edits, commits and commands from the notes, known by their line', () => {
    expect(session.format).toBe('aider');
    expect(ids(session)).toEqual(['L33', 'L36', 'L37', 'L38', 'L40', 'L59', 'L65', 'L67', 'L72', 'L73']);
    expect(session.declaration).toEqual({ context: { goal: 'Fix the date parser' }, agent_kind: 'aider', model: 'anthropic/claude-sonnet-4' });
    expect(action.get('L37')).toEqual({
      actionId: 'L37',
      tool: 'edit',
      input: { file_path: 'src/date.ts', edit: '<<<<<<< SEARCH\nexport function parse(s) {\n=======\nexport function parse(s: string): Date {\n>>>>>>> REPLACE' },
      kind: 'tool_use',
      title: 'edit src/date.ts',
      outcome: { status: 'success', filesTouched: ['src/date.ts'] },
    });
    expect(action.get('L38')).toMatchObject({ tool: 'commit', input: { sha: '5d6e7f8', message: "fix: type the date parser's argument" }, outcome: { status: 'success' } });
  });

  it('takes the usage printed before the edits, the chat start as the first time, and outcomes only where the history shows them', () => {
    expect(action.get('L33')).toMatchObject({ tool: 'commit', input: { files: ['src/date.ts'] }, at: '2026-11-28T10:15:00.000Z', outcome: { status: 'success', tokens: { prompt: 2400, completion: 310, cache_read: 1100 } } });
    expect(action.get('L36')).toMatchObject({ tool: 'edit', input: { file_path: 'tests/date.test.ts' }, description: 'the user declined it' });
    expect(action.get('L36')!.outcome).toBeUndefined();
    expect(action.get('L40')).toMatchObject({ tool: 'run', input: { command: 'npm test' }, description: 'run by the user (/run)' });
    expect(action.get('L40')!.outcome).toBeUndefined();
    expect(action.get('L59')).toMatchObject({ tool: 'commit', request: 'Add the key to .env', outcome: { status: 'error', error: { message: expect.stringContaining("Cmd('git') failed") } } });
    expect(action.get('L67')).toMatchObject({ tool: 'run', input: { command: 'npm test' }, description: 'suggested by the model, confirmed by the user' });
    // The commit after the edits failed (a public history: ArkMaster123/clientdemoNISTAI .aider.chat.history.md @ b035b3b,
    // `Unable to commit: Cmd('git') failed due to: exit code(128)`, then `cmdline:` and `stderr:` notes): an attempt that failed.
    expect(action.get('L73')).toMatchObject({ tool: 'commit', input: { message: 'the edits just applied' }, outcome: { status: 'error', error: { message: expect.stringContaining('gpg failed to sign the data') } } });
  });
});

describe('Cursor agent transcripts', () => {
  // Cursor documents no shape: the fixture follows public transcripts (github.com/SatyamOzaR/ts-nim cursor-transcript.jsonl).
  it('reads tool_use blocks as L<line>.<k>, without outcomes, the user_query as the request', () => {
    const session = read('cursor-transcript.jsonl');
    expect(session.format).toBe('cursor');
    expect(ids(session)).toEqual(['L2.0', 'L2.1', 'L3.0', 'L5.0']);
    expect(session.declaration).toEqual({ context: { goal: 'Fix the date parser' }, agent_kind: 'cursor' });
    expect(session.actions[1]).toEqual({
      actionId: 'L2-1',
      recordedId: 'L2.1',
      tool: 'Shell',
      input: { command: 'npm test', description: 'Run the tests', working_directory: '/home/dev/demo-app' },
      kind: 'tool_use',
      // The tool_use blocks of one line are one response.
      turn: 'L2',
      cwd: '/home/dev/demo-app',
      title: 'Run the tests — Shell: npm test',
    });
    expect(session.actions[3]).toMatchObject({ tool: 'Shell', request: 'now push' });
    expect(session.actions.every((a) => !a.outcome)).toBe(true);
  });

  // The text transcript: no documented shape either; the fixture follows public ones
  // (github.com/wldnd1808-creator/azas-project .cursor/projects/home-ubuntu/agent-transcripts/*.txt @ 4f47d9c).
  it('reads a text transcript: [Tool call] blocks as L<line of the assistant message>.<k>, arguments of several lines, JSON values', () => {
    const session = read('cursor-transcript.txt');
    expect(session.format).toBe('cursor');
    expect(ids(session)).toEqual(['L9.0', 'L9.1', 'L24.0']);
    expect(session.declaration).toEqual({ context: { goal: 'Restart the database container' }, agent_kind: 'cursor' });
    expect(session.actions[1]).toMatchObject({
      tool: 'Shell',
      input: { command: 'cd /home/dev/stack && docker compose restart db', description: 'Restart the database', required_permissions: ['all'] },
      turn: 'L9',
    });
    expect(session.actions[2]).toMatchObject({ tool: 'StrReplace', input: { path: '/home/dev/stack/.env', old_string: 'DB_PORT=5432\nPOOL=5', new_string: 'DB_PORT=5433\nPOOL=5' } });
    expect(session.actions.every((a) => !a.outcome)).toBe(true);
  });

  it('says so when a chat made no tool call, instead of failing or reading nothing silently', () => {
    const session = read('cursor-chat-without-tools.jsonl');
    expect(session.actions).toEqual([]);
    expect(session.empty).toBe('a Cursor transcript of 2 messages without any tool call');
  });
});

describe('detecting the format from the content', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-formats-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fixtures: [string, RecordingFormat][] = [
    ['codex-rollout.jsonl', 'codex'],
    ['gemini-cli-chat.json', 'gemini-cli'],
    ['gemini-cli-chat.jsonl', 'gemini-cli'],
    ['gemini-cli-error-report.json', 'gemini-cli'],
    ['gemini-cli-stream.jsonl', 'gemini-cli'],
    ['copilot-cli-events.jsonl', 'copilot-cli'],
    ['copilot-cli-share.md', 'copilot-cli'],
    ['opencode-export.json', 'opencode'],
    ['antigravity-transcript.jsonl', 'antigravity'],
    ['aider-chat-history.md', 'aider'],
    ['cursor-transcript.jsonl', 'cursor'],
    ['cursor-transcript.txt', 'cursor'],
    ['specstory-history.md', 'specstory'],
    ['examples/sessions/01-fix-date-parser.warden.jsonl', 'warden'],
    ['examples/sessions/02-claude-code-date-fix.jsonl', 'claude-code'],
    ['examples/sessions/03-swe-agent-bulk-update.traj', 'swe-agent'],
    ['test/corpus/sessions/bypass-trap-skip-and-no-verify.json', 'labelled'],
  ];

  it.each(fixtures)('reads %s as %s whatever the file is called', (file, format) => {
    const renamed = join(dir, `${format}-recording.txt`);
    copyFileSync(file.includes('/') ? join(WORKSPACE_ROOT, file) : join(FIXTURES, file), renamed);
    expect(readRecording(renamed).format).toBe(format);
  });

  it('covers every format Warden reads', () => {
    expect(new Set(fixtures.map(([, f]) => f))).toEqual(new Set(FORMATS));
  });

  it('names every format Warden reads for a file in none of them', () => {
    const message = `not a recording Warden reads: JSON in none of the shapes of its formats. Warden reads ${FORMATS.join(', ')} (\`warden replay --help\` says where each agent writes its recordings)`;
    expect(() => detectFormat('{"hello": "world"}\n{"again": 1}\n')).toThrow(message);
    expect(() => detectFormat('# My notes\n\nnothing to see')).toThrow(/^not a recording Warden reads: neither JSON, JSON Lines nor an Aider chat history\. Warden reads warden, claude-code, swe-agent, labelled, codex, gemini-cli, copilot-cli, opencode, antigravity, aider, cursor, specstory /);
  });

  it('does not read a Gemini CLI chat as a Claude Code transcript, and refuses a format that reads no action from it', () => {
    const file = join(FIXTURES, 'gemini-cli-chat.json');
    expect(readRecording(file).actions).toHaveLength(4);
    expect(() => readRecording(file, 'claude-code')).toThrow(`${file}: no line of the transcript is JSON (line 1: not JSON`);
    const lines = join(FIXTURES, 'gemini-cli-chat.jsonl');
    expect(() => readRecording(lines, 'claude-code')).toThrow(`${lines}: read as claude-code but it holds no claude-code session (is it in another format? leave --format out to detect it). Warden reads ${FORMATS.join(', ')}`);
    expect(() => readRecording(join(FIXTURES, 'codex-rollout.jsonl'), 'cursor')).toThrow(/read as cursor but it holds no cursor session/);
  });

  it('finds recordings one folder down, and the Aider histories and Copilot CLI exports among Markdown files', () => {
    for (const sub of ['codex', 'aider']) mkdirSync(join(dir, 'corpus', sub), { recursive: true });
    copyFileSync(join(FIXTURES, 'codex-rollout.jsonl'), join(dir, 'corpus', 'codex', 'a.jsonl'));
    copyFileSync(join(FIXTURES, 'aider-chat-history.md'), join(dir, 'corpus', 'aider', 'b.md'));
    copyFileSync(join(FIXTURES, 'copilot-cli-share.md'), join(dir, 'corpus', 'copilot.md'));
    writeFileSync(join(dir, 'corpus', 'SOURCES.md'), '# Where these come from\n');
    writeFileSync(join(dir, 'corpus', 'top.json'), readFileSync(join(FIXTURES, 'opencode-export.json')));
    expect(recordingsIn([join(dir, 'corpus')])).toEqual([join(dir, 'corpus', 'copilot.md'), join(dir, 'corpus', 'top.json'), join(dir, 'corpus', 'aider', 'b.md'), join(dir, 'corpus', 'codex', 'a.jsonl')]);
  });
});

describe('judging one part of a corpus', () => {
  it('warden eval --labelled-only judges only the recordings the labels name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-labelled-only-'));
    try {
      writeFileSync(join(dir, 'labels.yaml'), 'sessions:\n  opencode-export.json:\n    kind: ordinary\n');
      const run = await runWarden(['eval', FIXTURES, '--labels', join(dir, 'labels.yaml'), '--labelled-only', '--json']);
      expect((JSON.parse(run.stdout) as { sessions: { name: string }[] }).sessions.map((s) => s.name)).toEqual(['opencode-export.json']);
      expect((await runWarden(['eval', FIXTURES, '--labelled-only'])).stderr).toContain('--labelled-only needs --labels');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('damaged lines', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-damaged-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of a recording with one line cut in half: the second half stays on a line of its own. */
  function damaged(source: string, lineIndex: number): string {
    const lines = readFileSync(source, 'utf8').split('\n');
    const line = lines[lineIndex]!;
    lines.splice(lineIndex, 1, line.slice(0, 40), line.slice(40));
    const file = join(dir, `damaged-${lineIndex}-${source.split('/').at(-1)}`);
    writeFileSync(file, lines.join('\n'));
    return file;
  }

  it('skips a line that is not JSON in a Claude Code transcript and reads the rest', () => {
    const source = join(WORKSPACE_ROOT, 'examples/sessions/02-claude-code-date-fix.jsonl');
    const whole = readRecording(source);
    const file = damaged(source, 3);
    const session = readRecording(file);
    expect(session.skippedLines).toEqual([
      { line: 4, reason: expect.stringMatching(/^not JSON/) },
      { line: 5, reason: expect.stringMatching(/^not JSON/) },
    ]);
    expect(session.actions.length).toBeGreaterThan(0);
    expect(session.actions.length).toBeLessThanOrEqual(whole.actions.length);
  });

  it('skips a damaged line of the other JSON Lines formats too', () => {
    const session = readRecording(damaged(join(FIXTURES, 'codex-rollout.jsonl'), 9));
    expect(session.skippedLines?.map((s) => s.line)).toEqual([10, 11]);
    // The patch's call line was lost: its outcome has no action to go with.
    expect(ids(session)).toEqual(['call_001', 'call_003', 'call_004', 'call_004-2', 'call_005', 'L25']);
  });

  it('warden replay says how many lines it skipped, in its report and its JSON', () => {
    const recording = readRecording(damaged(join(FIXTURES, 'cursor-transcript.jsonl'), 2));
    const report: Omit<ReplayReport, 'summary'> = {
      file: 'cursor-transcript.jsonl',
      format: recording.format,
      sessionId: 'replay-1',
      agentId: 'demo-agent',
      actions: [],
      patterns: [],
      interventions: [],
      controls: [],
      breakerTrips: [],
      timing: { mode: 'recorded', recordedMs: 0, replayedMs: 0 },
      ...(recording.skippedLines ? { skippedLines: recording.skippedLines } : {}),
    };
    const summary = summarize(report);
    expect(summary.skippedLines).toBe(2);
    const plain = { bold: String, dim: String, red: String, green: String, yellow: String };
    expect(renderReport({ ...report, summary }, plain)).toContain('  2 damaged lines (lines 3, 4) of the recording skipped (not JSON): their actions, if any, are not in the replay');
  });

  it('warden eval warns with the file and the line and counts the skipped lines', async () => {
    const file = damaged(join(FIXTURES, 'antigravity-transcript.jsonl'), 8);
    const run = await runWarden(['eval', file, '--json']);
    const result = JSON.parse(run.stdout) as { summary: { skippedLines: number }; sessions: { skippedLines: { line: number }[] }[] };
    expect(run.stderr).toContain(`warning: ${file} line 6: not JSON`);
    expect(run.stderr).toContain(`warning: ${file} line 9: not JSON`);
    expect(result.summary.skippedLines).toBe(3);
    expect(result.sessions[0]!.skippedLines.map((s) => s.line)).toEqual([6, 9, 10]);
    const human = await runWarden(['eval', file]);
    expect(human.stdout).toContain('3 damaged lines (lines 6, 9, 10) skipped (not JSON)');
    expect(human.stdout).toMatch(/; 3 damaged lines skipped$/m);
  }, 60_000);
});
