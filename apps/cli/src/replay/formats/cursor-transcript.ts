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
