import type { TokenUsage } from '@warden/pricing';
import { RecordingError, type RecordedAction, type RecordedSession, type SkippedLine } from '../recorded-session.js';
import { readJsonLines } from './json-lines.js';
import { isoTime, outcomeOf, resultText, SessionBuilder } from './session-builder.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);
const STREAM_TYPES = new Set(['init', 'message', 'tool_use', 'tool_result', 'result', 'error']);

/** A chat session document: `{sessionId, projectHash, startTime, messages: [...]}`. */
export const looksLikeGeminiChat = (doc: unknown): boolean =>
  isObject(doc) && Array.isArray(doc['messages']) && ('projectHash' in doc || ('sessionId' in doc && (doc['messages'] as unknown[]).some((m) => isObject(m) && MESSAGE_TYPES.has(String(m['type'])) && 'content' in m)));

/** The report Gemini CLI writes when a model call fails: `{error, context}`, the context the conversation so far. */
export const looksLikeGeminiErrorReport = (doc: unknown): boolean => isObject(doc) && 'error' in doc && Array.isArray(doc['context']);

/** A line of a chat session in JSON Lines (newer builds): the metadata, a message, or a metadata patch. */
export const looksLikeGeminiChatLine = (record: Obj): boolean =>
  ('projectHash' in record && 'sessionId' in record) || '$set' in record || '$rewindTo' in record || (record['type'] === 'gemini' && 'id' in record);

/** A line of `gemini --output-format stream-json`. */
export const looksLikeGeminiStream = (record: Obj): boolean => {
  const type = record['type'];
  if (typeof type !== 'string' || !STREAM_TYPES.has(type) || 'message' in record || 'payload' in record) return false;
  if (type === 'init') return 'session_id' in record;
  if (type === 'tool_use' || type === 'tool_result') return 'tool_id' in record;
  if (type === 'result') return 'stats' in record || 'status' in record;
  if (type === 'message') return 'role' in record && typeof record['content'] === 'string';
  return 'severity' in record && 'message' in record;
};

/** Gemini CLI's call ids carry the time they were made (`<tool>-<epoch ms>-<random>`): the only time some recordings have. */
const timeInId = (id: string | undefined) => {
  const ms = id ? /(?:^|[-_])(1\d{12})(?:[-_]|$)/.exec(id)?.[1] : undefined;
  return ms ? new Date(Number(ms)).toISOString() : undefined;
};

/** The Gemini API's usage: the prompt count includes the cached part; thinking is billed as output. */
const chatTokens = (t: Obj): TokenUsage => {
  const cached = Number(t['cached'] ?? 0);
  return { prompt: Math.max(0, Number(t['input'] ?? 0) - cached), completion: Number(t['output'] ?? 0) + Number(t['thoughts'] ?? 0), ...(cached ? { cache_read: cached } : {}) };
};

/** A shell command's failure shows only in its output (`Exit Code: 1`). */
const exitFailed = (text: string | undefined) => {
  const code = text ? /^Exit Code: (-?\d+)/m.exec(text.slice(0, 4000))?.[1] : undefined;
  return code !== undefined && code !== '0';
};

/** The text of a user message: a string, or its text parts. */
const textOf = (content: unknown): string | undefined => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((p) => (isObject(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('\n');
};

/** The context Gemini CLI sends before the conversation (date, OS, folder structure): no request of the user. */
const SESSION_CONTEXT = /^\s*(?:<session_context>|This is the Gemini CLI\. We are setting up the context)/;
/** The project's directory as that context names it (older builds: "I'm currently working in the directory: …"; newer: "Workspace Directories: - …"). */
const workingDirectory = (text: string) =>
  (/currently working in the directory:\s*([^\n]+?)\s*$/m.exec(text) ?? /Workspace Directories:\**\s*\n\s*-\s*([^\n]+?)\s*$/m.exec(text))?.[1]?.replace(/[.`]+$/, '');

/** A request of the user, or nothing for Gemini CLI's own context and for a command without arguments (`/stats`). */
const requestOf = (text: string | undefined): string | undefined => {
  const words = text?.trim();
  if (!words || SESSION_CONTEXT.test(words) || /^\/[\w-]+$/.test(words)) return undefined;
  return words;
};

/** What a tool's functionResponse part says: its output, or its error. */
const functionResponse = (parts: unknown): { output?: string; error?: string } => {
  const list = Array.isArray(parts) ? parts : [parts];
  for (const part of list) {
    const response = isObject(part) && isObject(part['functionResponse']) ? part['functionResponse']['response'] : undefined;
    if (!isObject(response)) continue;
    if (response['error'] !== undefined) return { error: resultText(response['error']) ?? 'the tool failed' };
    return { ...(resultText(response['output'] ?? response) ? { output: resultText(response['output'] ?? response)! } : {}) };
  }
  return {};
};

/**
 * Gemini CLI's recordings (google-gemini/gemini-cli): the chat session it keeps for `/resume`
 * (`~/.gemini/tmp/<project>/chats/session-*.json`, or `.jsonl` in newer builds; the shape:
 * `packages/core/src/services/chatRecordingService.ts`), the error report it writes when a model call
 * fails (`$TMPDIR/gemini-client-error-*.json`, `{error, context}`), and the events of headless runs
 * (`gemini -p … --output-format stream-json`). Tools keep Gemini CLI's names and arguments.
 */
export function parseGeminiCli(text: string): RecordedSession {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (looksLikeGeminiChat(doc)) return readChat(doc as Obj, []);
  if (looksLikeGeminiErrorReport(doc)) return readErrorReport(doc as Obj);
  const { records, skipped } = readJsonLines(text);
  if (records.some(({ record }) => looksLikeGeminiStream(record))) return readStream(records.map((r) => r.record), skipped);
  if (records.some(({ record }) => looksLikeGeminiChatLine(record))) {
    // A chat in JSON Lines: metadata first, then each message as it is written (a later line with the same id updates it).
    const meta: Obj = {};
    const messages = new Map<string, Obj>();
    for (const { record } of records) {
      if (isObject(record['$set'])) Object.assign(meta, record['$set']);
      else if ('projectHash' in record && !('type' in record)) Object.assign(meta, record);
      else if (typeof record['id'] === 'string' && MESSAGE_TYPES.has(String(record['type']))) messages.set(record['id'], { ...messages.get(record['id']), ...record });
    }
    return readChat({ ...meta, messages: [...messages.values()] }, skipped);
  }
  throw new RecordingError('not a Gemini CLI chat session, error report or stream-json run');
}

/**
 * A chat session: `messages[]` with `type` user | gemini | info | error | warning; a gemini message's
 * `toolCalls[]` are the actions (`id`, `name`, `args`, `status`, `result` as functionResponse parts,
 * `timestamp`), its `tokens` and `model` the model call that proposed them. A call the user cancelled
 * never ran and reports no outcome.
 */
function readChat(doc: Obj, skipped: SkippedLine[]): RecordedSession {
  const session = new SessionBuilder('gemini-cli', 'gemini');
  const directories = Array.isArray(doc['directories']) ? doc['directories'].filter((d): d is string => typeof d === 'string') : [];
  let cwd: string | undefined = directories[0];
  let model: string | undefined;
  for (const message of (doc['messages'] as unknown[]).filter(isObject)) {
    if (message['type'] === 'user') {
      const words = textOf(message['content']);
      if (words && SESSION_CONTEXT.test(words)) cwd ??= workingDirectory(words);
      session.prompt(requestOf(words));
      continue;
    }
    if (message['type'] !== 'gemini') continue;
    model = str(message['model']) ?? model;
    // A reply without tool calls may be the words that end the turn (text beside calls came before them).
    if (!(Array.isArray(message['toolCalls']) && message['toolCalls'].length)) session.reply(textOf(message['content']));
    const at = isoTime(message['timestamp']);
    for (const call of (Array.isArray(message['toolCalls']) ? message['toolCalls'] : []).filter(isObject)) {
      const id = str(call['id']);
      if (!id) continue;
      const proposedAt = timeInId(id) ?? at;
      const action = session.add(id, {
        tool: str(call['name']) ?? 'tool',
        input: isObject(call['args']) ? call['args'] : {},
        kind: 'tool_use',
        // The tool calls of one of the model's messages came together.
        ...(str(message['id']) ? { turn: str(message['id'])! } : {}),
        ...(proposedAt ? { at: proposedAt } : {}),
      });
      if (!action) continue;
      const status = call['status'];
      if (status !== 'success' && status !== 'error') continue;
      const result = functionResponse(call['result']);
      const display = resultText(call['resultDisplay']);
      const failed = status === 'error' || exitFailed(result.output);
      const doneAt = isoTime(call['timestamp']) ?? at;
      action.outcome = outcomeOf({ status: failed ? 'error' : 'success', ...(result.error ?? result.output ?? display ? { text: result.error ?? result.output ?? display } : {}), ...(doneAt ? { at: doneAt } : {}), ...(action.at ? { since: action.at } : {}) });
    }
    if (isObject(message['tokens'])) session.usage(chatTokens(message['tokens']), str(message['model']));
  }
  return session.build({ ...(str(doc['sessionId']) ? { sessionId: str(doc['sessionId'])! } : {}), ...(cwd ? { cwd } : {}), ...(model ? { model } : {}), skipped, empty: `a Gemini CLI chat of ${(doc['messages'] as unknown[]).length} messages without any tool call` });
}

/**
 * The error report: `context` is the conversation as sent to the model (`{role, parts}`); its
 * `functionCall` parts carry no id, so the n-th is known as `fc-<n>`; the `functionResponse` parts that
 * follow answer them in order. The times come from the responses' ids; the report holds no model usage.
 */
function readErrorReport(doc: Obj): RecordedSession {
  const session = new SessionBuilder('gemini-cli', 'gemini');
  const context = doc['context'] as unknown[];
  let cwd: string | undefined;
  let n = 0;
  const waiting: RecordedAction[] = [];
  for (const entry of context) {
    // A plain string is the message the user had typed when the call failed.
    if (typeof entry === 'string') {
      session.prompt(requestOf(entry));
      continue;
    }
    if (!isObject(entry) || !Array.isArray(entry['parts'])) continue;
    const parts = entry['parts'].filter(isObject);
    if (entry['role'] === 'user') {
      for (const part of parts) {
        if (typeof part['text'] === 'string') {
          if (SESSION_CONTEXT.test(part['text'])) cwd ??= workingDirectory(part['text']);
          else if (!parts.some((p) => 'functionResponse' in p)) session.prompt(requestOf(part['text']));
        }
        const response = isObject(part['functionResponse']) ? part['functionResponse'] : undefined;
        if (!response) continue;
        const index = waiting.findIndex((a) => a.tool === response['name']);
        const action = waiting.splice(index >= 0 ? index : 0, 1)[0];
        if (!action) continue;
        const at = timeInId(str(response['id']));
        if (at && !action.at) action.at = at;
        const result = functionResponse(part);
        action.outcome = outcomeOf({ status: result.error !== undefined || exitFailed(result.output) ? 'error' : 'success', ...(result.error ?? result.output ? { text: result.error ?? result.output } : {}) });
      }
      continue;
    }
    for (const part of parts) {
      const call = isObject(part['functionCall']) ? part['functionCall'] : undefined;
      if (!call) continue;
      n++;
      const action = session.add(`fc-${n}`, { tool: str(call['name']) ?? 'tool', input: isObject(call['args']) ? call['args'] : {}, kind: 'tool_use' });
      if (action) waiting.push(action);
    }
  }
  const error = isObject(doc['error']) ? str(doc['error']['message']) : str(doc['error']);
  if (error) session.note(`the session ended on a failed model call: ${error.split('\n')[0]!.slice(0, 200)}`);
  return session.build({ ...(cwd ? { cwd } : {}), empty: `a Gemini CLI error report of ${context.length} messages without any tool call` });
}

/**
 * A headless run's events, one per line: `init` (session id, model), `message` (the user's prompt, the
 * model's text), `tool_use` (`tool_name`, `tool_id`, `parameters`), `tool_result` (`tool_id`, `status`,
 * `output`, `error`), `result` (the run's status and token totals, which go with its last action). A file
 * may hold several runs one after the other: they are read in order as one session.
 */
function readStream(records: Obj[], skipped: SkippedLine[]): RecordedSession {
  const session = new SessionBuilder('gemini-cli', 'gemini');
  let sessionId: string | undefined;
  let model: string | undefined;
  let runs = 0;
  for (const record of records.filter(looksLikeGeminiStream)) {
    const at = isoTime(record['timestamp']) ?? isoTime(record['ts']);
    switch (record['type']) {
      case 'init':
        runs++;
        sessionId ??= str(record['session_id']);
        model = str(record['model']) ?? model;
        break;
      case 'message':
        if (record['role'] === 'user') session.prompt(requestOf(str(record['content'])));
        break;
      case 'tool_use': {
        const id = str(record['tool_id']);
        if (id) session.add(id, { tool: str(record['tool_name']) ?? 'tool', input: isObject(record['parameters']) ? record['parameters'] : {}, kind: 'tool_use', ...(at ? { at } : {}) });
        break;
      }
      case 'tool_result': {
        const action = session.get(str(record['tool_id']) ?? '');
        if (!action || action.outcome) break;
        const error = isObject(record['error']) ? str(record['error']['message']) : undefined;
        const output = resultText(record['output']);
        const failed = record['status'] === 'error' || exitFailed(output);
        action.outcome = outcomeOf({ status: failed ? 'error' : 'success', ...(error ?? output ? { text: failed ? (error ?? output) : output } : {}), ...(at ? { at } : {}), ...(action.at ? { since: action.at } : {}) });
        break;
      }
      case 'result': {
        const stats = isObject(record['stats']) ? record['stats'] : undefined;
        if (stats) {
          const cached = Number(stats['cached'] ?? 0);
          const prompt = typeof stats['input'] === 'number' ? stats['input'] : Math.max(0, Number(stats['input_tokens'] ?? 0) - cached);
          session.usage({ prompt, completion: Number(stats['output_tokens'] ?? 0), ...(cached ? { cache_read: cached } : {}) }, model, 'run');
        }
        break;
      }
    }
  }
  if (runs > 1) session.note(`${runs} headless runs (init events) in one file: read in order as one session`);
  return session.build({ ...(sessionId ? { sessionId } : {}), ...(model ? { model } : {}), skipped, empty: 'a Gemini CLI stream-json run without any tool call' });
}
