import type { RecordedSession } from '../recorded-session.js';
import { readJsonLines } from './json-lines.js';
import { SessionBuilder } from './session-builder.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A line of a Cursor agent transcript: `{role, message: {content: [...]}}`, no record type. */
export const looksLikeCursorLine = (record: Obj): boolean =>
  (record['role'] === 'user' || record['role'] === 'assistant') && !('type' in record) && isObject(record['message']) && Array.isArray(record['message']['content']);

/** What the user typed: the `<user_query>` of the message, without the context Cursor attaches. */
const requestOf = (text: string) => (/<user_query>([\s\S]*?)(?:<\/user_query>|$)/.exec(text)?.[1] ?? text).trim() || undefined;

/**
 * A Cursor agent transcript (`~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl`; Cursor documents
 * no shape: this is the one public transcripts have, e.g. github.com/SatyamOzaR/ts-nim `cursor-transcript.jsonl`).
 * One message per line, `{role, message: {content: [...]}}`: a user's `text` blocks hold the request in
 * `<user_query>`, an assistant's `tool_use` blocks (`name`, `input`) are the actions. The blocks carry no
 * id, so a call is known by its place, `L<line>.<k>` (the k-th tool_use block, from 0, of line `<line>`;
 * sent as `L<line>-<k>`). The transcript records no results, times, working directory or model usage:
 * the actions have no outcome, and a Shell call's `working_directory` is its directory.
 */
export function parseCursorTranscript(text: string): RecordedSession {
  const { records, skipped } = readJsonLines(text);
  const session = new SessionBuilder('cursor', 'cursor');
  let messages = 0;
  for (const { line, record } of records) {
    if (!looksLikeCursorLine(record)) continue;
    messages++;
    const blocks = ((record['message'] as Obj)['content'] as unknown[]).filter(isObject);
    if (record['role'] === 'user') {
      const words = blocks.filter((b) => b['type'] === 'text').map((b) => str(b['text']) ?? '').join('\n');
      session.prompt(requestOf(words));
      continue;
    }
    // A reply without tool calls may be the words that end the turn (text beside calls came before them).
    if (!blocks.some((b) => b['type'] === 'tool_use')) session.reply(blocks.filter((b) => b['type'] === 'text').map((b) => str(b['text']) ?? '').join('\n'));
    blocks
      .filter((b) => b['type'] === 'tool_use')
      .forEach((block, k) => {
        const input = isObject(block['input']) ? block['input'] : {};
        const cwd = str(input['working_directory']);
        session.add(`L${line}.${k}`, { tool: str(block['name']) ?? 'tool', input, kind: 'tool_use', turn: `L${line}`, ...(cwd ? { cwd } : {}) });
      });
  }
  return session.build({ skipped, ...(messages ? { empty: `a Cursor transcript of ${messages} messages without any tool call` } : {}) });
}

/** The head of a Cursor agent transcript in text: its first message's role on a line of its own, and a tool call or a reply. */
export const looksLikeCursorText = (text: string): boolean => /^\uFEFF?(?:user|assistant):\r?\n/.test(text) && /\n(?:\[Tool call\] \S|assistant:\r?\n)/.test(text);

/** A line that opens a message or a call's result, or a call: what ends a call's arguments. */
const MESSAGE_LINE = /^(?:user|assistant):$/;
const CALL_LINE = /^\[Tool call\] (.+)$/;
const RESULT_LINE = /^\[Tool result\] /;
/** An argument's first line: two spaces, its name, a colon. A line that is none continues the argument before it (`old_string`'s lines). */
const ARGUMENT_LINE = /^ {2}([A-Za-z_][\w-]*): ?(.*)$/;

/** An argument's value: JSON where it is written as JSON (`["all"]`, `false`, `[{…}]`), text otherwise. */
function argumentValue(text: string): unknown {
  if (/^(?:\[.*\]|\{.*\}|true|false|-?\d+(?:\.\d+)?)$/s.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * A Cursor agent transcript in text (`~/.cursor/projects/<project>/agent-transcripts/<id>.txt`, what Cursor
 * writes besides or instead of the JSON Lines one; undocumented: the shape of public transcripts, e.g.
 * github.com/wldnd1808-creator/azas-project `.cursor/projects/home-ubuntu/agent-transcripts/*.txt`). Messages
 * start with `user:` or `assistant:` on a line of their own; a call is `[Tool call] <name>` followed by its
 * arguments, one `  name: value` each (a value's further lines follow it as written); `[Tool result] <name>`
 * records that a result came, not what it was. A call is known by its place, `L<line>.<k>`: the k-th call
 * (from 0) of the `assistant:` message that starts on line `<line>` (sent as `L<line>-<k>`). As in the JSON
 * Lines transcript there are no results, times, working directory or usage.
 */
export function parseCursorTextTranscript(text: string): RecordedSession {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const session = new SessionBuilder('cursor', 'cursor');
  let messages = 0;
  let role: 'user' | 'assistant' | undefined;
  let messageLine = 0;
  let calls = 0;
  let words: string[] = [];
  let call: { name: string; k: number; input: Obj; key?: string } | undefined;
  const endCall = () => {
    if (!call) return;
    const input: Obj = {};
    for (const [key, value] of Object.entries(call.input)) input[key] = argumentValue(String(value).replace(/\n+$/, ''));
    const cwd = str(input['working_directory']);
    session.add(`L${messageLine}.${call.k}`, { tool: call.name, input, kind: 'tool_use', turn: `L${messageLine}`, ...(cwd ? { cwd } : {}) });
    call = undefined;
  };
  const endMessage = () => {
    endCall();
    const said = words.join('\n').replace(/<think>[\s\S]*?(?:<\/think>|$)/g, '').trim();
    if (role === 'user') session.prompt(requestOf(said));
    else if (role === 'assistant' && !calls && said) session.reply(said);
    words = [];
  };
  lines.forEach((line, i) => {
    if (MESSAGE_LINE.test(line)) {
      endMessage();
      role = line === 'user:' ? 'user' : 'assistant';
      messageLine = i + 1;
      calls = 0;
      messages++;
      return;
    }
    const named = CALL_LINE.exec(line);
    if (named && role === 'assistant') {
      endCall();
      call = { name: named[1]!.trim(), k: calls++, input: {} };
      return;
    }
    if (RESULT_LINE.test(line)) {
      endCall();
      return;
    }
    if (call) {
      const argument = ARGUMENT_LINE.exec(line);
      if (argument) {
        call.key = argument[1]!;
        call.input[call.key] = argument[2]!;
      } else if (call.key !== undefined) call.input[call.key] = `${String(call.input[call.key])}\n${line}`;
      return;
    }
    words.push(line);
  });
  endMessage();
  return session.build({ ...(messages ? { empty: `a Cursor transcript of ${messages} messages without any tool call` } : {}) });
}
