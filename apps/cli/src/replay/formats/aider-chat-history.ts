import type { RecordedAction, RecordedSession } from '../recorded-session.js';
import { outcomeOf, SessionBuilder } from './session-builder.js';

const CHAT_STARTED = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/;
/** What only Aider writes: its session header, or a user line together with a note of an applied edit, a commit or the usage. */
export const looksLikeAiderHistory = (text: string): boolean =>
  /^# aider chat started at /m.test(text) || (/^#### /m.test(text) && /^> (?:Applied edit to |Commit [0-9a-f]{7,} |Tokens: )/m.test(text));

/** Notes that only Aider writes, never a model's code. */
const ACTION_NOTE = /^> (?:Applied edit to |Skipping edits to |Commit [0-9a-f]{7,} |Committing .+ before applying edits|Tokens: [\d.,]+[kM]? sent)/;

/** `1.6k`, `5,359`, `2.1M`. */
const count = (text: string | undefined): number => {
  if (!text) return 0;
  const match = /^([\d.,]+)([kM]?)$/.exec(text.trim());
  if (!match) return 0;
  const n = Number(match[1]!.replace(/,/g, ''));
  return Math.round(n * (match[2] === 'k' ? 1e3 : match[2] === 'M' ? 1e6 : 1));
};

/** The edit blocks the model wrote for a file in its reply: the fenced blocks under a line naming the file. */
function editBlocks(reply: readonly string[], file: string): string | undefined {
  const blocks: string[] = [];
  const named = (line: string) => {
    const name = line.trim().replace(/^[`*]+|[`*:]+$/g, '');
    return name === file || name.replace(/\\/g, '/') === file.replace(/\\/g, '/');
  };
  for (let i = 0; i < reply.length - 1; i++) {
    if (!named(reply[i]!) || !/^\s*(`{3,}|~{3,})/.test(reply[i + 1]!)) continue;
    const fence = /^\s*(`{3,}|~{3,})/.exec(reply[i + 1]!)![1]!;
    const end = reply.findIndex((line, j) => j > i + 1 && line.trim() === fence);
    blocks.push(reply.slice(i + 2, end < 0 ? reply.length : end).join('\n'));
    if (end > 0) i = end;
  }
  // A unified diff names its file in its own header.
  if (!blocks.length) {
    const header = reply.findIndex((line) => line === `--- ${file}` || line === `--- a/${file}`);
    if (header >= 0) {
      const end = reply.findIndex((line, j) => j > header && /^\s*`{3,}\s*$/.test(line));
      blocks.push(reply.slice(header, end < 0 ? reply.length : end).join('\n'));
    }
  }
  return blocks.length ? blocks.join('\n').slice(0, 8000) : undefined;
}

/**
 * An Aider chat history (`.aider.chat.history.md` in the repository Aider works on; the shape:
 * Aider-AI/aider `aider/io.py`, which writes the user's input as `#### ` lines, its own notes as `> `
 * lines and the model's replies as they are). Aider calls no tools: what it does is read from its notes.
 * `> Applied edit to <file>` is an edit (with the edit blocks the reply wrote for that file), `> Skipping
 * edits to <file>` an edit the user declined (no outcome), `> Commit <sha> <message>` a commit,
 * `> Committing <file> before applying edits.` a commit of the user's pending changes (its outcome the note
 * that follows: the commit, or git's error), `> Running <command>` a shell command the model suggested
 * and the user confirmed, and a user's `/run <command>` (or `!<command>`, `/git …`, `/test …`) a command the
 * user ran. None carries an id: each is known by its 1-based line, `L<line>`. `> Tokens: … sent, …
 * received` is the usage of the reply whose actions follow; `> Model:` names the model. The only times are
 * the `# aider chat started at` headers (the machine's local time, read as UTC): the first action after one
 * carries it. No command's exit status is recorded: commands have no outcome.
 */
export function parseAiderChatHistory(text: string): RecordedSession {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const session = new SessionBuilder('aider', 'aider');
  let model: string | undefined;
  let started: string | undefined;
  let reply: string[] = [];
  let userText: string[] | undefined;
  let committing: RecordedAction | undefined;
  let gitError: string[] | undefined;
  let chats = 0;

  const add = (line: number, action: Omit<RecordedAction, 'actionId' | 'recordedId'>) => {
    const recorded = session.add(`L${line}`, { ...action, ...(started ? { at: started } : {}) });
    started = undefined;
    return recorded;
  };
  const endUserMessage = () => {
    if (!userText) return;
    const words = userText.join('\n').trim();
    userText = undefined;
    // Aider's own commands set the chat up (`/add`, `/drop`, `/clear`); `/code`, `/ask` and `/architect` carry a request.
    const asked = /^\/(?:code|ask|architect|context)\s+([\s\S]+)$/.exec(words);
    if (asked) session.prompt(asked[1]);
    else if (!words.startsWith('/')) session.prompt(words);
  };
  const endGitError = () => {
    // `cmdline:` is the command git was given (its message differs each time), not what went wrong.
    if (committing && gitError) committing.outcome = outcomeOf({ status: 'error', text: gitError.filter((note) => !note.startsWith('cmdline:')).join('\n') });
    if (gitError) committing = undefined;
    gitError = undefined;
  };

  let inFence = false;
  lines.forEach((raw, index) => {
    const line = index + 1;
    // Inside a fenced block of the model's reply every line is the reply's, even one starting with `>` or `####`.
    // A reply cut short leaves its fence open: Aider's own notes and headers close it.
    if (inFence && (CHAT_STARTED.test(raw) || ACTION_NOTE.test(raw))) inFence = false;
    if (inFence) {
      reply.push(raw);
      if (/^\s*(`{3,}|~{3,})\s*$/.test(raw)) inFence = false;
      return;
    }
    const header = CHAT_STARTED.exec(raw);
    if (header) {
      endUserMessage();
      endGitError();
      chats++;
      started = new Date(`${header[1]}T${header[2]}Z`).toISOString();
      reply = [];
      return;
    }
    if (raw.startsWith('####')) {
      endGitError();
      const input = raw.replace(/^####\s?/, '').replace(/\s+$/, '');
      if (userText) {
        userText.push(input);
        return;
      }
      reply = [];
      const run = /^(?:\/run\s+|!)(.+)$/.exec(input) ?? /^\/(git|test)\s+(.+)$/.exec(input);
      if (run) {
        const command = run.length === 3 ? (run[1] === 'git' ? `git ${run[2]}` : run[2]!) : run[1]!;
        add(line, { tool: 'run', input: { command: command.trim() }, kind: 'tool_use', description: `run by the user (${input.split(/\s/)[0]})` });
        return;
      }
      userText = [input];
      return;
    }
    endUserMessage();
    if (!(raw === '>' || raw.startsWith('> '))) {
      endGitError();
      reply.push(raw);
      if (/^\s*(`{3,}|~{3,})/.test(raw)) inFence = true;
      return;
    }
    const note = raw.replace(/^>\s?/, '').replace(/\s+$/, '');
    if (gitError) {
      if (/^(?:Commit [0-9a-f]{7,} |Applied edit to |Committing )/.test(note)) endGitError();
      else {
        gitError.push(note);
        return;
      }
    }
    let match: RegExpExecArray | null;
    if ((match = /^(?:Main model|Model|Models): (\S+)/.exec(note))) model = match[1];
    else if ((match = /^Tokens: ([\d.,]+[kM]?) sent(?:, ([\d.,]+[kM]?) cache write)?(?:, ([\d.,]+[kM]?) cache hit)?, ([\d.,]+[kM]?) received/.exec(note))) {
      const [cacheWrite, cacheRead] = [count(match[2]), count(match[3])];
      session.usage({ prompt: count(match[1]), completion: count(match[4]), ...(cacheRead ? { cache_read: cacheRead } : {}), ...(cacheWrite ? { cache_write: cacheWrite } : {}) }, model, 'next');
    } else if ((match = /^Applied edit to (.+)$/.exec(note))) {
      const file = match[1]!;
      const edit = editBlocks(reply, file);
      committing = undefined;
      // `file_path`, the field every reader of actions takes a written file from (@warden/actions).
      const action = add(line, { tool: 'edit', input: { file_path: file, ...(edit ? { edit } : {}) }, kind: 'tool_use', title: `edit ${file}` });
      if (action) action.outcome = outcomeOf({ status: 'success', filesTouched: [file] });
    } else if ((match = /^Skipping edits to (.+)$/.exec(note))) {
      const file = match[1]!;
      const edit = editBlocks(reply, file);
      add(line, { tool: 'edit', input: { file_path: file, ...(edit ? { edit } : {}) }, kind: 'tool_use', title: `edit ${file}`, description: 'the user declined it' });
    } else if ((match = /^Committing (.+?) before applying edits\.?$/.exec(note))) {
      committing = add(line, { tool: 'commit', input: { files: [match[1]!], message: 'the changes to commit before applying edits' }, kind: 'tool_use', title: `commit ${match[1]!} before applying edits` });
    } else if ((match = /^Commit ([0-9a-f]{7,}) (.*)$/.exec(note))) {
      if (committing && !committing.outcome) {
        committing.outcome = outcomeOf({ status: 'success', text: note });
        committing = undefined;
      } else {
        const action = add(line, { tool: 'commit', input: { sha: match[1]!, message: match[2]! }, kind: 'tool_use', title: `commit ${match[1]!} ${match[2]!}`.slice(0, 200) });
        if (action) action.outcome = outcomeOf({ status: 'success', text: note });
      }
    } else if (committing && !committing.outcome && /^(?:Cmd\('git'\) failed|Unable to commit|Git error)/.test(note)) {
      gitError = [note];
    } else if (/^Unable to commit\b/.test(note)) {
      // The commit Aider makes after applying edits failed (a signing error, a hook): an attempt, its error the notes after it.
      committing = add(line, { tool: 'commit', input: { message: 'the edits just applied' }, kind: 'tool_use', title: 'commit the edits just applied' });
      gitError = [note];
    } else if ((match = /^Running (.+)$/.exec(note))) {
      add(line, { tool: 'run', input: { command: match[1]! }, kind: 'tool_use', description: 'suggested by the model, confirmed by the user' });
    }
  });
  endUserMessage();
  endGitError();
  return session.build({ ...(model ? { model } : {}), ...(chats ? { empty: `an Aider chat history of ${chats} chat(s) without an edit, commit or command` } : {}) });
}
