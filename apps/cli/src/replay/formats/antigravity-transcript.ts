import type { RecordedAction, RecordedSession } from '../recorded-session.js';
import { readJsonLines } from './json-lines.js';
import { isoTime, outcomeOf, SessionBuilder, titleOf } from './session-builder.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A step of an Antigravity transcript: `{step_index, source, type, status, created_at, …}`. */
export const looksLikeAntigravityStep = (record: Obj): boolean => typeof record['step_index'] === 'number' && typeof record['type'] === 'string';

/** Steps that are no tool's result: the user, the model, and what the system adds between them. */
const NOT_A_RESULT = new Set(['USER_INPUT', 'PLANNER_RESPONSE', 'CONVERSATION_HISTORY', 'CHECKPOINT', 'SYSTEM_MESSAGE', 'EPHEMERAL_MESSAGE']);

/**
 * `transcript.jsonl` writes each argument JSON-encoded (`"CommandLine": "\"npm test\""`), `transcript_full.jsonl`
 * as it is: a call whose every string argument decodes is decoded.
 */
function argumentsOf(args: unknown): Obj {
  if (!isObject(args)) return {};
  const decoded: Obj = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') {
      decoded[key] = value;
      continue;
    }
    try {
      decoded[key] = JSON.parse(value) as unknown;
    } catch {
      return args;
    }
  }
  return decoded;
}

/** The text of a result step without its `Created At` / `Completed At` header, and those two times. */
function resultOf(content: string): { text: string; created?: string; completed?: string } {
  const created = /^Created At: (\S+)/m.exec(content)?.[1];
  const completed = /^Completed At: (\S+)/m.exec(content)?.[1];
  const text = content
    .replace(/^(?:Created At|Completed At): \S+\n?/gm, '')
    .replace(/^\t+/gm, '')
    .trim();
  return { text, ...(isoTime(created) ? { created: isoTime(created)! } : {}), ...(isoTime(completed) ? { completed: isoTime(completed)! } : {}) };
}

/** What the user asked: the `<USER_REQUEST>` of the input, without the metadata Antigravity adds. */
const requestOf = (content: string | undefined) => {
  if (!content) return undefined;
  const tagged = /<USER_REQUEST>([\s\S]*?)(?:<\/USER_REQUEST>|$)/.exec(content)?.[1];
  return (tagged ?? content.replace(/<(ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>[\s\S]*?<\/\1>/g, '')).trim() || undefined;
};

const FAILED_COMMAND = /The command failed with exit code: (-?\d+)/;

/**
 * An Antigravity transcript (`~/.gemini/antigravity/brain/<conversation>/.system_generated/logs/transcript.jsonl`,
 * or `transcript_full.jsonl`; the shape: specstoryai/getspecstory `specstory-cli/docs/antigravity-format-spec.md`).
 * One step per line: `USER_INPUT` (the user's request), `PLANNER_RESPONSE` (the model; its `tool_calls[]`,
 * `{name, args}`, are the actions), then one result step per call (`RUN_COMMAND`, `CODE_ACTION`,
 * `VIEW_FILE`, `LIST_DIRECTORY`, `GREP_SEARCH`, `MCP_TOOL`, `GENERIC`, …, or `ERROR_MESSAGE` when the call was
 * refused), with `status` DONE | RUNNING | ERROR and `Created At` / `Completed At` in its content. Calls carry
 * no id and `step_index` repeats or goes back in a transcript that kept only its tail, so a call is known
 * by its place: `L<line>.<k>`, the k-th call (from 0) of the response on line `<line>` (sent as `L<line>-<k>`).
 * A failed command is DONE with `The command failed with exit code: N`; a command left RUNNING went to the
 * background, and a later system message may report how it ended. The transcript holds no model usage.
 */
export function parseAntigravityTranscript(text: string): RecordedSession {
  const { records, skipped } = readJsonLines(text);
  const session = new SessionBuilder('antigravity', 'antigravity');
  let waiting: RecordedAction[] = [];
  const background = new Map<string, RecordedAction>();
  let steps = 0;
  for (const { line, record } of records) {
    if (!looksLikeAntigravityStep(record)) continue;
    steps++;
    const type = record['type'] as string;
    const content = str(record['content']) ?? '';
    const at = isoTime(record['created_at']);
    if (type === 'USER_INPUT') {
      session.prompt(requestOf(content));
      waiting = [];
      continue;
    }
    if (type === 'PLANNER_RESPONSE') {
      // Calls of the previous response that got no result step never ran (cancelled, or awaiting approval).
      waiting = [];
      const calls = Array.isArray(record['tool_calls']) ? record['tool_calls'].filter(isObject) : [];
      // A response without calls may be the words that end the turn (text beside calls came before them).
      if (!calls.length) session.reply(content);
      calls.forEach((call, k) => {
        const tool = str(call['name']) ?? 'tool';
        const input = argumentsOf(call['args']);
        const summary = str(input['toolAction']) ?? str(input['toolSummary']);
        const cwd = str(input['Cwd']);
        const action = session.add(`L${line}.${k}`, {
          tool,
          input,
          kind: 'tool_use',
          // The calls of one planner response are one line.
          turn: `L${line}`,
          title: titleOf(tool, input, summary),
          ...(at ? { at } : {}),
          ...(cwd ? { cwd } : {}),
        });
        if (action) waiting.push(action);
      });
      continue;
    }
    if (type === 'SYSTEM_MESSAGE') {
      // A background command's end: `Task id "<conversation>/task-54" finished with result: … failed with exit code: 1`.
      const task = /Task id "([^"]+)" finished with result:/.exec(content);
      const action = task ? background.get(task[1]!) : undefined;
      if (action?.outcome) {
        // It ended when the message says, after whatever the agent did meanwhile.
        const failed = FAILED_COMMAND.exec(content);
        const result = content.slice(content.indexOf(task![0]) + task![0].length);
        const text = (failed ? content.slice(content.indexOf(failed[0])) : result).replace(/^\t+/gm, '').replace(/<\/SYSTEM_MESSAGE>\s*$/, '').trim();
        const ended = isoTime(/\btimestamp=(\S+)/.exec(content)?.[1]) ?? at;
        action.outcome = outcomeOf({ status: failed ? 'error' : 'success', ...(text ? { text } : {}), ...(ended ? { at: ended } : {}), ...(action.at ? { since: action.at } : {}) });
        background.delete(task![1]!);
      }
      continue;
    }
    if (NOT_A_RESULT.has(type)) continue;
    const action = waiting.shift();
    if (!action) continue;
    const result = resultOf(content);
    const error = str(record['error']);
    const failed = record['status'] === 'ERROR' || type === 'ERROR_MESSAGE' || (type === 'RUN_COMMAND' && FAILED_COMMAND.test(result.text));
    const doneAt = result.completed ?? at;
    action.outcome = outcomeOf({
      status: failed ? 'error' : 'success',
      ...(failed && error ? { text: error } : result.text ? { text: result.text } : {}),
      ...(doneAt ? { at: doneAt } : {}),
      ...(result.created ?? action.at ? { since: result.created ?? action.at } : {}),
    });
    const task = record['status'] === 'RUNNING' ? /background task with task id: (\S+)/.exec(result.text)?.[1] : undefined;
    if (task) background.set(task, action);
  }
  return session.build({ skipped, ...(steps ? { empty: `an Antigravity transcript of ${steps} steps without any tool call` } : {}) });
}
