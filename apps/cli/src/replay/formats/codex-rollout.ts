import { TURN_END_MAX_LENGTH } from '@warden/contracts';
import type { TokenUsage } from '@warden/pricing';
import type { RecordedAction, RecordedSession } from '../recorded-session.js';
import { cellCalls } from './codex-code-mode.js';
import { readJsonLines } from './json-lines.js';
import { isoTime, outcomeOf, resultText, SessionBuilder, titleOf } from './session-builder.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Record types of a Codex rollout line (`{timestamp, type, payload}`). */
const ROLLOUT_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

/** True for a line of a Codex rollout. */
export const looksLikeCodexRollout = (record: Obj) => typeof record['type'] === 'string' && ROLLOUT_TYPES.has(record['type']) && isObject(record['payload']);

/**
 * The rollouts Codex wrote before it wrapped every line (mid-2025; undocumented, as public rollouts show them, e.g.
 * github.com/JaydenXsoe/ocodex `.codex/main_codex.back/sessions/2025/08/27/rollout-….jsonl` @ 317a6db): a first line
 * `{id, timestamp, instructions, git}` without a type, `{"record_type": "state"}` markers, and the Responses API
 * items bare, one per line, without times. Told by the first line or a state marker; read as the wrapped lines they became.
 */
export const looksLikeEarlyCodexRollout = (record: Obj) =>
  record['record_type'] === 'state' || (record['type'] === undefined && typeof record['id'] === 'string' && typeof record['timestamp'] === 'string' && 'instructions' in record);
const EARLY_ITEMS = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'web_search_call']);

/** A line of an early rollout as the wrapped line it became; other lines as they are. */
function wrapped(record: Obj, early: boolean): Obj {
  if (!early || looksLikeCodexRollout(record)) return record;
  if (record['type'] === undefined && typeof record['id'] === 'string') return { type: 'session_meta', timestamp: record['timestamp'], payload: { id: record['id'] } };
  if (typeof record['type'] === 'string' && EARLY_ITEMS.has(record['type'])) return { type: 'response_item', payload: record };
  return record;
}

/** What a command's end event says (exec_command_end, patch_apply_end, mcp_tool_call_end). */
interface CallEnd {
  status?: 'success' | 'error';
  exitCode?: number;
  durationMs?: number;
  text?: string;
  files?: string[];
  at?: string;
}

/** Outputs that say the call never ran or was cut short: the user declined it or interrupted it. */
const NOT_RUN = /^(?:aborted by user|exec command rejected by user|patch rejected by user|.{0,40}rejected by (?:the )?user)/i;
/** The header Codex puts before a command's output (chunk, wall time, exit code). */
const OUTPUT_HEADER = /^(?:(?:Chunk ID|Wall time|Process exited with code|Process running with session ID|Original token count|Exit code|Total output lines)[^\n]*\n)+Output:\n/;

const durationOf = (value: unknown): number | undefined => {
  if (!isObject(value)) return typeof value === 'number' ? value * 1000 : undefined;
  const secs = typeof value['secs'] === 'number' ? value['secs'] : 0;
  const nanos = typeof value['nanos'] === 'number' ? value['nanos'] : 0;
  return secs * 1000 + nanos / 1e6;
};

/** A call's output as the model saw it: text, and the exit code or failure it reports. */
function readOutput(raw: unknown): { text?: string; exitCode?: number; failed?: boolean; durationMs?: number } {
  let output = raw;
  let exitCode: number | undefined;
  let durationMs: number | undefined;
  // A custom tool's output is a JSON string with its own metadata.
  if (typeof output === 'string' && output.startsWith('{"output"')) {
    try {
      const parsed = JSON.parse(output) as { output?: unknown; metadata?: { exit_code?: unknown; duration_seconds?: unknown } };
      output = parsed.output;
      if (typeof parsed.metadata?.exit_code === 'number') exitCode = parsed.metadata.exit_code;
      if (typeof parsed.metadata?.duration_seconds === 'number') durationMs = parsed.metadata.duration_seconds * 1000;
    } catch {
      // plain text after all
    }
  }
  if (isObject(output) && 'content' in output) output = output['content'];
  const text = resultText(output);
  if (text === undefined) return { ...(exitCode !== undefined ? { exitCode } : {}) };
  const code = /Process exited with code (-?\d+)/.exec(text.slice(0, 400)) ?? /^Exit code: (-?\d+)/m.exec(text.slice(0, 200));
  if (exitCode === undefined && code) exitCode = Number(code[1]);
  const wall = /Wall time:? ([\d.]+) seconds/.exec(text.slice(0, 300));
  if (durationMs === undefined && wall) durationMs = Number(wall[1]) * 1000;
  // An exit code says it; without one, the output's first words do (a sandbox error, a command the sandbox
  // killed or denied, `failed in sandbox LinuxSeccomp with execution error: …`, a failed cell or patch).
  const failed = exitCode !== undefined ? exitCode !== 0 : /^(?:execution error:|failed in sandbox\b|Script failed|apply_patch verification failed|Failed to|error:)/i.test(text);
  return { text: text.replace(OUTPUT_HEADER, ''), ...(exitCode !== undefined ? { exitCode } : {}), failed, ...(durationMs !== undefined ? { durationMs } : {}) };
}

/** A patch's title names the files it adds, updates or deletes. */
const patchTitle = (tool: string, patch: string) => {
  const files = [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
  return files.length ? `${tool}: ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}` : titleOf(tool, {});
};

/** OpenAI's usage: input tokens include the cached ones, which are priced apart. */
function tokensOf(usage: Obj): TokenUsage {
  const input = Number(usage['input_tokens'] ?? 0);
  const cached = Number(usage['cached_input_tokens'] ?? 0);
  return { prompt: Math.max(0, input - cached), completion: Number(usage['output_tokens'] ?? 0), ...(cached ? { cache_read: cached } : {}) };
}

/** The arguments of a function call: its JSON, or the raw text when it is not JSON. */
function argumentsOf(raw: unknown): Obj {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return isObject(parsed) ? parsed : { arguments: parsed };
  } catch {
    return { arguments: raw };
  }
}

/**
 * A Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`; the format: openai/codex
 * `codex-rs/protocol/src/protocol.rs`, RolloutLine and its items). Every line is `{timestamp, type, payload}`:
 * `session_meta` (id, cwd), `turn_context` (cwd, model), `response_item` (the Responses API items: a
 * `function_call` with its JSON `arguments`, a `custom_tool_call` with its free-form `input`, e.g.
 * `apply_patch` with the patch, and their `*_output` by `call_id`; `web_search_call`), `event_msg`
 * (`user_message` the user's prompts, `token_count` the model's usage, `exec_command_end` and
 * `patch_apply_end` with exit codes, durations and files). The tools keep their names and arguments
 * (`shell` with a `command` array, `shell_command`, `exec_command` with `cmd`, `write_stdin`,
 * `update_plan`, MCP tools as `<server>__<tool>`). A code-mode `exec` cell is read into the calls it makes
 * (see codex-code-mode.ts), the first under the cell's call id and the next ones under `<call id>-2`, …;
 * a cell whose calls cannot be read stays one `exec` action with its code.
 */
export function parseCodexRollout(text: string): RecordedSession {
  const { records, skipped } = readJsonLines(text);
  const session = new SessionBuilder('codex', 'codex');
  const ends = new Map<string, CallEnd>();
  /** The action that reports a call's output: a cell's last call. */
  const reporter = new Map<string, RecordedAction>();
  const notRun = new Set<string>();
  const eventPrompts = records.some(({ record }) => record['type'] === 'event_msg' && isObject(record['payload']) && record['payload']['type'] === 'user_message');
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let turnCwd: string | undefined;
  let model: string | undefined;
  let firstModel: string | undefined;
  let lastTotal: number | undefined;
  let unreadCells = 0;
  // The model response the calls being read came in (Codex records no response id).
  let turn = 0;
  let callsOpen = false;
  let rollout = false;

  const callCwd = (args: Obj) => {
    const dir = str(args['workdir']) ?? str(args['working_directory']) ?? turnCwd;
    return dir && dir !== cwd ? { cwd: dir } : {};
  };

  const early = records.slice(0, 5).some(({ record }) => looksLikeEarlyCodexRollout(record));
  for (const { line, record: written } of records) {
    const record = wrapped(written, early);
    if (!looksLikeCodexRollout(record)) continue;
    rollout = true;
    const p = record['payload'] as Obj;
    const at = isoTime(record['timestamp']);
    switch (record['type']) {
      case 'session_meta':
        sessionId ??= str(p['id']) ?? str(p['session_id']);
        cwd ??= str(p['cwd']);
        break;
      case 'turn_context':
        turnCwd = str(p['cwd']) ?? turnCwd;
        cwd ??= turnCwd;
        model = str(p['model']) ?? model;
        firstModel ??= model;
        break;
      case 'event_msg':
        readEvent(p, at);
        break;
      case 'response_item':
        readItem(p, at, line);
        break;
    }
  }

  function readEvent(p: Obj, at: string | undefined): void {
    const callId = str(p['call_id']);
    switch (p['type']) {
      case 'user_message':
        session.prompt(str(p['message']));
        return;
      case 'token_count': {
        const info = isObject(p['info']) ? p['info'] : undefined;
        const last = info && isObject(info['last_token_usage']) ? info['last_token_usage'] : undefined;
        const total = info && isObject(info['total_token_usage']) ? Number(info['total_token_usage']['total_tokens']) : undefined;
        // Codex repeats the count when only the rate limits changed: a total seen already is no new model call.
        if (!last || (total !== undefined && total === lastTotal)) return;
        lastTotal = total;
        session.usage(tokensOf(last), model);
        return;
      }
      case 'exec_command_end':
        if (callId) {
          const exitCode = typeof p['exit_code'] === 'number' ? p['exit_code'] : undefined;
          const duration = durationOf(p['duration']);
          ends.set(callId, {
            ...(exitCode !== undefined ? { exitCode, status: exitCode === 0 ? 'success' : 'error' } : {}),
            ...(duration !== undefined ? { durationMs: duration } : {}),
            ...(resultText(p['aggregated_output'] ?? p['formatted_output'] ?? p['stdout']) ? { text: resultText(p['aggregated_output'] ?? p['formatted_output'] ?? p['stdout'])! } : {}),
            ...(at ? { at } : {}),
          });
        }
        return;
      case 'patch_apply_end':
        if (callId) {
          const files = isObject(p['changes']) ? Object.keys(p['changes']) : [];
          const text = resultText([str(p['stdout']), str(p['stderr'])].filter(Boolean).join('\n'));
          ends.set(callId, { status: p['success'] === false ? 'error' : 'success', ...(text ? { text } : {}), ...(files.length ? { files } : {}), ...(at ? { at } : {}) });
        }
        return;
      case 'mcp_tool_call_end':
        if (callId) {
          const result = isObject(p['result']) ? p['result'] : {};
          const ok = isObject(result['Ok']) ? result['Ok'] : undefined;
          const duration = durationOf(p['duration']);
          const text = resultText(ok ? ok['content'] : result['Err']);
          ends.set(callId, { status: !ok || ok['isError'] === true ? 'error' : 'success', ...(text ? { text } : {}), ...(duration !== undefined ? { durationMs: duration } : {}), ...(at ? { at } : {}) });
        }
        return;
    }
  }

  function readItem(p: Obj, at: string | undefined, line: number): void {
    const callId = str(p['call_id']);
    // Calls listed one after another, before any output, reasoning or message, came in one response.
    const call = p['type'] === 'function_call' || p['type'] === 'local_shell_call' || p['type'] === 'custom_tool_call';
    if (call && !callsOpen) turn++;
    callsOpen = call;
    const stamp = { ...(at ? { at } : {}), ...(call ? { turn: `t${turn}` } : {}) };
    switch (p['type']) {
      case 'message':
        // Older rollouts have no user_message events: the user's messages are the prompts, without the context Codex adds.
        if (!eventPrompts && p['role'] === 'user') {
          const words = resultText(p['content'], 4000);
          if (words && !/^\s*<(?:environment_context|user_instructions|permissions instructions)>|^# AGENTS\.md/.test(words)) session.prompt(words);
        }
        if (p['role'] === 'assistant') session.reply(resultText(p['content'], TURN_END_MAX_LENGTH));
        return;
      case 'function_call':
      case 'local_shell_call': {
        if (!callId) return;
        const tool = p['type'] === 'local_shell_call' ? 'local_shell' : (str(p['name']) ?? 'function_call');
        const input = p['type'] === 'local_shell_call' ? (isObject(p['action']) ? p['action'] : {}) : argumentsOf(p['arguments']);
        const action = session.add(callId, { tool, input, kind: 'tool_use', ...stamp, ...callCwd(input) });
        if (action) reporter.set(callId, action);
        return;
      }
      case 'custom_tool_call': {
        if (!callId) return;
        const name = str(p['name']) ?? 'custom_tool_call';
        const code = str(p['input']) ?? '';
        if (name !== 'exec') {
          const action = session.add(callId, { tool: name, input: { input: code }, kind: 'tool_use', title: patchTitle(name, code), ...stamp, ...callCwd({}) });
          if (action) reporter.set(callId, action);
          return;
        }
        const calls = cellCalls(code);
        if (!calls.length || calls.some((c) => c.unreadable)) {
          if (calls.length) unreadCells++;
          const action = session.add(callId, { tool: 'exec', input: { input: code }, kind: 'tool_use', ...stamp, ...callCwd({}) });
          if (action) reporter.set(callId, action);
          return;
        }
        calls.forEach((call, k) => {
          const input = isObject(call.argument) ? call.argument : { input: call.argument };
          const action = session.add(k ? `${callId}-${k + 1}` : callId, {
            tool: call.tool,
            input,
            kind: 'tool_use',
            ...(typeof call.argument === 'string' ? { title: patchTitle(call.tool, call.argument) } : {}),
            ...(calls.length > 1 ? { description: `call ${k + 1} of ${calls.length} in code-mode cell ${callId}` } : {}),
            ...stamp,
            ...callCwd(input),
          });
          if (action) reporter.set(callId, action);
        });
        return;
      }
      case 'web_search_call': {
        // A search the model ran itself: no call id, so it is known by its line.
        const action = isObject(p['action']) ? p['action'] : {};
        const done = session.add(`L${line}`, { tool: 'web_search', input: action, kind: 'tool_use', ...stamp });
        if (done && p['status']) done.outcome = outcomeOf({ status: p['status'] === 'failed' ? 'error' : 'success', ...stamp });
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const action = callId ? reporter.get(callId) : undefined;
        if (!action || action.outcome || notRun.has(callId!)) return;
        const output = readOutput(p['output']);
        if (output.text && NOT_RUN.test(output.text)) {
          notRun.add(callId!);
          return;
        }
        const end = ends.get(callId!);
        const failed = end?.status ? end.status === 'error' : !!output.failed;
        action.outcome = outcomeOf({
          status: failed ? 'error' : 'success',
          ...(output.text ? { text: output.text } : end?.text ? { text: end.text } : {}),
          ...(at ? { at } : {}),
          ...(action.at ? { since: action.at } : {}),
          ...((end?.durationMs ?? output.durationMs) !== undefined ? { durationMs: end?.durationMs ?? output.durationMs } : {}),
          ...(end?.files ? { filesTouched: end.files } : {}),
        });
        return;
      }
    }
  }

  // A call whose output line is missing (the file ends, or the turn was aborted) may still have its end event.
  for (const [callId, end] of ends) {
    const action = reporter.get(callId);
    if (!action || action.outcome || notRun.has(callId) || !end.status) continue;
    action.outcome = outcomeOf({ status: end.status, ...(end.text ? { text: end.text } : {}), ...(end.at ? { at: end.at } : {}), ...(action.at ? { since: action.at } : {}), ...(end.durationMs !== undefined ? { durationMs: end.durationMs } : {}), ...(end.files ? { filesTouched: end.files } : {}) });
  }
  if (unreadCells) session.note(`${unreadCells} code-mode exec cell(s) compute the arguments of their tool calls: each is kept as one exec action with its code`);
  return session.build({ ...(sessionId ? { sessionId } : {}), ...(cwd ? { cwd } : {}), ...(firstModel ? { model: firstModel } : {}), skipped, ...(rollout ? { empty: 'a Codex rollout without any tool call' } : {}) });
}
