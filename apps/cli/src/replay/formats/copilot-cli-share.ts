import { commandFailed } from '@warden/agent-edge';
import type { RecordedSession } from '../recorded-session.js';
import { outcomeOf, SessionBuilder } from './session-builder.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);

/** The export's title, the first line Copilot CLI's `/share` writes. */
const TITLE = /^#\s*(?:🤖\s*)?Copilot CLI Session\s*$/;
/** A call's heading: `### ✅ \`bash\`` (the tool ran) or `### ❌ \`bash\`` (it failed). */
const CALL_HEADING = /^### (✅|❌) `([^`]+)`\s*$/;
/** The headings of the user's and Copilot's messages, and of what is neither (reasoning, notices). */
const USER_HEADING = /^### 👤 User\s*$/;
const REPLY_HEADING = /^### 💬 Copilot\s*$/;
const OTHER_HEADING = /^### (?:💭|ℹ️)/;
/** The time since the session started, above every entry: `<sub>⏱️ 3m 27s</sub>`. */
const ELAPSED = /^<sub>⏱️\s*((?:\d+h\s*)?(?:\d+m\s*)?(?:\d+s)?)\s*<\/sub>\s*$/;
const STARTED = /\*\*Started:\*\*\s*(.+?)\s*$/;
const SESSION_ID = /\*\*Session ID:\*\*\s*`([^`]+)`/;

/** Whether a text is a Copilot CLI `/share` export: its title within the first lines. */
export function looksLikeCopilotShare(text: string): boolean {
  return text.replace(/^\uFEFF/, '').split('\n', 5).some((line) => TITLE.test(line.trim()));
}

function seconds(elapsed: string): number {
  let total = 0;
  for (const [, n, unit] of elapsed.matchAll(/(\d+)([hms])/g)) total += Number(n) * (unit === 'h' ? 3600 : unit === 'm' ? 60 : 1);
  return total;
}

/** The export's start, a local time written `3/28/2026, 2:05:26 PM` (read as UTC: the export says no zone). */
function startOf(text: string): number | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}),\s*(\d{1,2}):(\d{2}):(\d{2})\s*([AP]M)?$/i.exec(text.trim());
  if (!m) return undefined;
  const hour = (Number(m[4]) % 12) + (m[7]?.toUpperCase() === 'PM' ? 12 : 0);
  return Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), m[7] ? hour : Number(m[4]), Number(m[5]), Number(m[6]));
}

/** A fenced block's text, from the line after its opening fence; the index of the line after its closing one. */
function fenced(lines: readonly string[], open: number): { text: string; next: number } {
  const fence = /^(`{3,})/.exec(lines[open]!)![1]!;
  // Closed by a line of as many backticks or more, and nothing else.
  const closes = (line: string) => /^`{3,}\s*$/.test(line) && line.trim().length >= fence.length;
  const body: string[] = [];
  let i = open + 1;
  for (; i < lines.length && !closes(lines[i]!); i++) body.push(lines[i]!);
  return { text: body.join('\n'), next: i + 1 };
}

/** A result as the model saw it: the `content` of the JSON Copilot writes, or the text as it stands. */
function resultOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isObject(parsed) && typeof parsed['content'] === 'string') return parsed['content'];
  } catch {
    // Plain text (an error, a short answer).
  }
  return text;
}

/** The arguments of a call the export shows in short: `$ npm test` (a command), `"TODO" in *.ts` (a search), a path. */
function shownInput(tool: string, shown: string): Obj {
  if (shown.startsWith('$ ')) return { command: shown.slice(2) };
  const search = /^"(.*)"(?:\s+in\s+(.+))?$/.exec(shown);
  if (search) return { pattern: search[1], ...(search[2] ? { glob: search[2] } : {}) };
  return /^(?:grep|glob|rg|search)/.test(tool) ? { pattern: shown } : { path: shown };
}

/**
 * A GitHub Copilot CLI session exported with `/share` as Markdown (`# 🤖 Copilot CLI Session`): what users commit
 * and publish, the session log (`events.jsonl`) staying in the home directory. Undocumented: the shape of public
 * exports, e.g. github.com/acabrera04/Harmony `llm-logs/frontend/02-18-pr58-review.md` @ 45a1af3 and
 * github.com/2026-spring-adv-fe/tca-unmatched `copilot-session-7a93dc58-….md` @ 90fe49a (the newer header, in a
 * `> [!NOTE]` list). Entries are separated by `---` lines, each under the time since the start
 * (`<sub>⏱️ 3m 27s</sub>`): `### 👤 User` and `### 💬 Copilot` messages, and calls `### ✅ \`tool\`` (ran) or `### ❌
 * \`tool\`` (failed), each with its arguments as JSON in a `<details>` block and its result in the fenced block after
 * it (JSON whose `content` the model read, or text); some calls are shown in short instead of their arguments
 * (`**what it is for**`, then `$ command`, a path, or `"pattern" in glob`). A shell call whose result ends `<exited with exit code N>`, N
 * not 0, failed, as the events' reader reads it. No call ids are exported: a call is known by its place,
 * `L<line of its heading>` (sent as is). No working directory, model or usage either.
 */
export function parseCopilotShare(text: string): RecordedSession {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const session = new SessionBuilder('copilot-cli', 'copilot');
  const header = lines.slice(0, 12);
  const sessionId = header.map((l) => SESSION_ID.exec(l)?.[1]).find(Boolean);
  const started = header.map((l) => STARTED.exec(l)?.[1]).find(Boolean);
  const start = started ? startOf(started) : undefined;
  let at: string | undefined;
  let entries = 0;
  let i = 0;
  // The words of a message, up to the `---` that ends its entry.
  const message = (): string => {
    const words: string[] = [];
    for (; i < lines.length && lines[i] !== '---'; i++) {
      if (/^`{3,}/.test(lines[i]!)) {
        const block = fenced(lines, i);
        words.push(...lines.slice(i, block.next));
        i = block.next - 1;
      } else words.push(lines[i]!);
    }
    return words.join('\n').trim();
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const elapsed = ELAPSED.exec(line);
    if (elapsed) {
      if (start !== undefined) at = new Date(start + seconds(elapsed[1]!) * 1000).toISOString();
      i++;
      continue;
    }
    if (USER_HEADING.test(line)) {
      entries++;
      i++;
      session.prompt(message());
      continue;
    }
    if (REPLY_HEADING.test(line)) {
      entries++;
      i++;
      session.reply(message());
      continue;
    }
    const call = CALL_HEADING.exec(line);
    if (!call) {
      i++;
      if (OTHER_HEADING.test(line)) message();
      continue;
    }
    entries++;
    const id = `L${i + 1}`;
    const tool = call[2]!;
    let input: Obj = {};
    let result: string | undefined;
    let inArguments = false;
    let description: string | undefined;
    let shown: string | undefined;
    for (i++; i < lines.length && lines[i] !== '---'; ) {
      const l = lines[i]!;
      if (/^<summary>Arguments<\/summary>/.test(l)) inArguments = true;
      if (/^<\/details>/.test(l)) inArguments = false;
      if (!/^`{3,}/.test(l)) {
        // Before its blocks, a call may be shown instead of its arguments: `**what it is for**`, then `$ command`, a path or a pattern.
        const bold = /^\*\*(.+)\*\*\s*$/.exec(l);
        if (bold) description ??= bold[1];
        else if (l.trim() && !l.startsWith('<') && result === undefined && shown === undefined) shown = l.trim();
        i++;
        continue;
      }
      const block = fenced(lines, i);
      i = block.next;
      if (inArguments) {
        try {
          const parsed = JSON.parse(block.text) as unknown;
          if (isObject(parsed)) input = parsed;
        } catch {
          input = { arguments: block.text };
        }
      } else result ??= resultOf(block.text);
    }
    if (!Object.keys(input).length && shown !== undefined) input = shownInput(tool, shown);
    if (description !== undefined && input['description'] === undefined) input = { ...input, description };
    const failed = call[1] === '❌' || commandFailed(result);
    const added = session.add(id, { tool, input, kind: 'tool_use', ...(at ? { at } : {}) });
    if (added) added.outcome = outcomeOf({ status: failed ? 'error' : 'success', ...(result?.trim() ? { text: result } : {}), ...(at ? { at } : {}) });
  }
  return session.build({ ...(sessionId ? { sessionId } : {}), ...(entries ? { empty: `a Copilot CLI export of ${entries} entries without any tool call` } : {}) });
}
