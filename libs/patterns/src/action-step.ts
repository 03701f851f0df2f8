import { ACTION_FIELDS, isApiRoute, isWindowsPath, readToolCall, resolvePath, type ToolKind } from '@warden/actions';
import type { TokenUsage } from '@warden/pricing';
import { fingerprint, foldErrorText } from '@warden/signatures';
import type { Phase } from '@warden/contracts';
import { contentMarks, localPortsIn, type ContentMark } from './signals.js';
import { shellWords } from './shell-words.js';
import { statusCheckOf } from './status-checks.js';
import { checkKindOf, showsFailure } from './turn-claims.js';

/** What kind of thing an action does, as far as the detectors care. */
export type StepOp = 'read' | 'write' | 'search' | 'exec' | 'poll' | 'other';

/**
 * One action of a session, reduced to what the detectors read and bounded in size: the proposal (tool,
 * command, paths), its outcome (status, error fingerprint, output fingerprint, tokens, cost) and the
 * reviewer's goal alignment. Either half may arrive first; both are keyed by the action id.
 */
export interface Step {
  id: string;
  /** When it was proposed (or reported, if the outcome came first), epoch ms. */
  at: number;
  tool?: string;
  op?: StepOp;
  /** Same signature: the same action (tool + command, or tool + target path). */
  sig?: string;
  /** The command line (Bash), whitespace folded, at most 300 characters. */
  cmd?: string;
  /** A status check (see status-checks.ts): a fingerprint of the job it looks at. */
  check?: string;
  /** Paths the action targets, resolved against the working directory (at most 8). */
  paths?: string[];
  /** The description and short input fields other than the command, lower case (at most 200 characters). */
  text?: string;
  /** What the written content shows (read once, when the action arrives; the content itself is not kept). */
  marks?: ContentMark[];
  /** Local ports the command or the written content names (`localhost:3000` → `3000`). */
  ports?: string[];
  /** +1: started a background process; -1: stopped one. */
  bg?: 1 | -1;
  phase?: Phase;
  status?: 'success' | 'error';
  /** Error class and message with numbers, quotes and hex folded: equal for the same failure. */
  err?: string;
  /** The error text, lower case (at most 300 characters), for symptom matching. */
  err_text?: string;
  /** Fingerprint of the output excerpt: equal outputs, equal fingerprints. */
  out?: string;
  /** When a failure was reported, epoch ms (kept for failures only: what a retry is counted against). */
  done?: number;
  files_touched?: number;
  tokens?: number;
  cost_usd?: number;
  /** The reviewer's goal alignment of this action (0-1), when a verdict carried it. */
  alignment?: number;
  /** A check (a test run, a build, a linter) that exited 0 while its output shows a failure: its status was lost in a pipe (`swift build | tail`). */
  shows_failure?: true;
  /** Its output asked whether to destroy something (`… will be removed and reinstalled from scratch. Proceed? (Y/n)`). */
  destroy_prompt?: true;
  /** The reviewer blocked it: attempted, never run. */
  blocked?: true;
  /**
   * The model response it came in, when the agent says (a 32-bit key of its id, plus one): calls of one
   * response had not seen each other's results.
   */
  turn?: number;
}

/** A step that ran and whose result arrived: what the detectors judge (a step without a signature is not an action). */
export function isCompleted(step: Step): boolean {
  return step.sig !== undefined && step.status !== undefined;
}

/** A write or a command: what an agent tries, as opposed to what it reads or searches. */
export function isWriteOrCommand(step: Step): boolean {
  return step.op === 'write' || step.op === 'exec';
}

const MAX_TEXT = 200;
const MAX_CONTENT = 20_000;
const MAX_COMMAND = 300;
const MAX_PATHS = 8;
const MAX_PATH = 512;
const WHITESPACE = /\s+/g;

/** What the detectors count each kind of tool as (the kinds are @warden/actions' reading of every agent's tools). */
const KIND_OPS: Partial<Record<ToolKind, StepOp>> = { read: 'read', write: 'write', edit: 'write', delete: 'write', search: 'search', poll: 'poll' };


const URL_LIKE = /^[a-z]+:\/\//i;
const FILE_LIKE = /^(\.[\w-]+|[\w@.+-]+\.[a-z0-9]{1,8})$/i;
const REDIRECT = /^\d?[<>]{1,2}&?/;

/** A Windows command's switch (`/E`, `/NFL`, `/s`, `/MIR`, `/R:3`), which reads like a path elsewhere. */
const WINDOWS_SWITCH = /^\/[A-Za-z?][A-Za-z0-9]{0,7}(:\S*)?$/;
/** A bind mount or copy target `host:/inside` (docker -v, rsync-style): the host side is the path here. */
const ELSEWHERE = /(?:^|[;&|]\s*)(?:sudo\s+|sshpass\s+(?:-[pfdP]\s*\S+\s+|-e\s+)?)?(?:(?:docker|podman|nerdctl)(?:\s+container)?\s+(?:run|exec)|(?:docker|podman)[\s-]compose\s+(?:[^;&|]*\s)?exec|(?:kubectl|oc)\s+exec|(?:lxc|incus)\s+exec|ssh)\s/;
const BIND = /^([^:\s]{2,}):(\/[^:]*)(:[a-z,]+)?$/i;

/**
 * The words of `for p in / /llms.txt /robots.txt; do curl "https://example.com$p"; done`: a loop whose
 * variable is appended to an address goes over the paths of a site, not of this machine.
 */
function urlLoopWords(command: string): Set<string> {
  const words = new Set<string>();
  for (const loop of command.matchAll(/\bfor\s+([A-Za-z_]\w*)\s+in\s+([^;]*?)\s*;\s*do\b([\s\S]*?)\bdone\b/g)) {
    const [, name, list, body] = loop;
    // An address with its scheme written out: `${BASE_URL}$p` does not say what the variable holds.
    if (new RegExp(`[a-z][a-z0-9+.-]*://[^\\s"'$]*\\$\\{?${name}\\b`, 'i').test(body!)) for (const word of shellWords(list!)) words.add(word);
  }
  return words;
}

/** Words of a command that name files or directories; `windows` for a session on Windows, where `/x` is a switch. */
export function commandPaths(command: string, windows = false): string[] {
  const paths: string[] = [];
  // What runs inside a container or on another host names that machine's paths: only mounts name ours.
  const elsewhere = ELSEWHERE.test(command);
  const addresses = urlLoopWords(command);
  for (let word of shellWords(command)) {
    if (addresses.has(word)) continue;
    word = word.replace(REDIRECT, '');
    // What keeps `<` or `>` after its redirection is stripped is markup (`</script>`, `<div>`), not a path.
    if (!word || /^\/{2,}$/.test(word) || word.startsWith('-') || URL_LIKE.test(word) || word.includes('=') || /[|;&()$`<>]/.test(word.replace(/^\$\{?HOME\}?/, ''))) continue;
    if (windows && WINDOWS_SWITCH.test(word)) continue;
    const bind = BIND.exec(word);
    if (bind) {
      if (/^(~|\/|\.\.?\/)/.test(bind[1]!) || bind[1]!.includes('/')) paths.push(bind[1]!);
      continue;
    }
    if (elsewhere || isApiRoute(word)) continue;
    if (word === '~' || word.startsWith('~/') || word.startsWith('/') || word.startsWith('./') || word.startsWith('../') || /^\$\{?HOME\}?(\/|$)/.test(word)) paths.push(word);
    else if (word.includes('/') && !word.includes('//') && !/^\d/.test(word)) paths.push(word);
    else if (FILE_LIKE.test(word) && !/^\d+(\.\d+)+$/.test(word)) paths.push(word);
  }
  return paths;
}

/** The command without the bodies of its here-documents (`<<EOF … EOF`, `<<-'EOF'`); an unterminated one runs to the end. */
export function withoutHereDocuments(command: string): string {
  return command.replace(/<<-?\s*(["']?)([\w.-]+)\1[^\n]*\n[\s\S]*?(?:\n[ \t]*\2[ \t]*(?=\n|$)|$)/g, (all) => all.slice(0, all.indexOf('\n')));
}

export interface ProposedAction {
  action_id: string;
  kind: string;
  tool: string;
  input: Record<string, unknown>;
  description?: string;
  phase?: Phase;
  turn?: string;
}

/** A model response's id as a number a step keeps in its window (FNV-1a, plus one: 0 is none). */
export function turnKey(turn: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < turn.length; i++) hash = Math.imul(hash ^ turn.charCodeAt(i), 0x01000193) >>> 0;
  return hash + 1;
}

/** The proposal half of a step. */
export function stepOfAction(action: ProposedAction, at: number, cwd: string | undefined, home: string | undefined): Step {
  const input = action.input;
  const call = readToolCall(action.tool, input);
  // A shell tool may say where it runs (Codex's workdir, Antigravity's Cwd): relative paths are read from there.
  if (call.cwd) cwd = resolvePath(call.cwd, cwd, home);
  const line = call.command?.replace(WHITESPACE, ' ').trim();
  const cmd = line?.slice(0, MAX_COMMAND);
  // A here-document's body is text (a commit message, a file's content), not words of the command.
  const pathText = call.command !== undefined && call.command.includes('<<') ? withoutHereDocuments(call.command).replace(WHITESPACE, ' ').trim() : line;
  // A web search looks around like a search of the disk does.
  const op = call.query !== undefined ? 'search' : (KIND_OPS[call.kind] ?? (cmd !== undefined ? 'exec' : 'other'));
  const raw: string[] = [...call.read, ...call.written];
  // A search without a path searches the working directory.
  if (op === 'search' && call.query === undefined && !raw.length) raw.push('.');
  // Paths are read from the kept part of the line; a word cut at its end is no path (`/home/me/.lo`).
  if (pathText) raw.push(...commandPaths(pathText.length > MAX_COMMAND ? pathText.slice(0, MAX_COMMAND).replace(/\S+$/, '') : pathText, !!cwd && isWindowsPath(cwd)));
  // `cd dir && python tests/x.py`: the line's relative paths are read from where it moved.
  const moved = cmd ? /^cd\s+("[^"]+"|'[^']+'|[^\s;&|]+)\s*(?:&&|;)/.exec(cmd) : null;
  if (moved && !/[$`*]/.test(moved[1]!)) cwd = resolvePath(moved[1]!.replace(/^["']|["']$/g, ''), cwd, home);
  const paths = [...new Set(raw.slice(0, 32).map((p) => resolvePath(p.slice(0, MAX_PATH), cwd, home)))].slice(0, MAX_PATHS);
  const textParts = [action.description ?? ''];
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && !ACTION_FIELDS.has(key) && value.length <= 300) textParts.push(value);
  }
  const text = textParts.join(' ').replace(WHITESPACE, ' ').trim().toLowerCase().slice(0, MAX_TEXT);
  const content = call.content?.slice(0, MAX_CONTENT);
  const marks = content ? contentMarks(content) : [];
  const ports = [...new Set([...localPortsIn(cmd ?? ''), ...localPortsIn(content ?? '')])];
  const poll = op === 'poll' ? (call.process ?? '') : undefined;
  // A write is the same action on the same file whatever it writes; anything else but a fetch is the same when its input is.
  // A fetch is the same action on the same address, whatever it asks of the page.
  const target = cmd ?? poll ?? (op === 'write' ? paths.join(' ') : call.kind === 'fetch' && call.urls.length ? call.urls[0]! : stableInput(input));
  const step: Step = { id: action.action_id, at, tool: action.tool, op, sig: fingerprint(`${action.tool}\u0000${target}`) };
  if (cmd) step.cmd = cmd;
  // Any read of a background command's output is a look at background work, whichever it reads.
  const check = op === 'poll' ? `poll ${action.tool}` : cmd ? statusCheckOf(shellWords(cmd)) : undefined;
  if (check) step.check = fingerprint(check);
  if (paths.length) step.paths = paths;
  if (text) step.text = text;
  if (marks.length) step.marks = marks;
  if (ports.length) step.ports = ports.slice(0, 8);
  if (call.background || (cmd && /(^|[^&])&\s*$/.test(cmd)) || (cmd && /^nohup\b/.test(cmd))) step.bg = 1;
  else if (call.kind === 'kill' || (cmd && /^(kill|pkill|killall)\b/.test(cmd))) step.bg = -1;
  if (action.phase) step.phase = action.phase;
  if (action.turn) step.turn = turnKey(action.turn);
  return step;
}

function stableInput(input: Record<string, unknown>): string {
  const keys = Object.keys(input).sort();
  return JSON.stringify(keys.map((k) => [k, input[k]])).slice(0, 1000);
}

export interface ReportedOutcome {
  action_id: string;
  status: 'success' | 'error';
  error?: { message: string; class?: string };
  files_touched?: string[];
  tokens?: TokenUsage;
  model?: string;
  output_excerpt?: string;
  phase?: Phase;
  /** The model response the action came in, when the agent could tell it only once it ran. */
  turn?: string;
}

/** Adds the outcome half to a step. */
export function addOutcome(step: Step, outcome: ReportedOutcome, costUsd: number | undefined, at?: number): void {
  step.status = outcome.status;
  if (at !== undefined && outcome.status === 'error') step.done = at;
  if (outcome.error) {
    step.err = `${outcome.error.class ?? ''}:${fingerprint(foldErrorText(outcome.error.message))}`;
    step.err_text = `${outcome.error.class ?? ''} ${outcome.error.message}`.replace(WHITESPACE, ' ').trim().toLowerCase().slice(0, 240);
  }
  if (outcome.output_excerpt !== undefined) step.out = fingerprint(outcome.output_excerpt);
  if (outcome.status === 'success' && outcome.output_excerpt && checkKindOf(step) && showsFailure(outcome.output_excerpt)) step.shows_failure = true;
  if (asksToDestroy(outcome.output_excerpt) || asksToDestroy(outcome.error?.message)) step.destroy_prompt = true;
  if (outcome.files_touched?.length) step.files_touched = outcome.files_touched.length;
  // Tokens the model newly read or wrote: re-reading the cached context is not growth.
  if (outcome.tokens) step.tokens = outcome.tokens.prompt + outcome.tokens.completion + (outcome.tokens.cache_write ?? 0);
  if (costUsd !== undefined) step.cost_usd = costUsd;
  if (outcome.phase && !step.phase) step.phase = outcome.phase;
  if (outcome.turn && step.turn === undefined) step.turn = turnKey(outcome.turn);
}

/**
 * A counted step keeps only what the detectors read later: its output fingerprint and cost served the
 * polling run and the resource slots once, when it was counted.
 */
export function settle(step: Step): void {
  delete step.out;
  delete step.cost_usd;
}

/** A file operation for the resource figures: reads, writes, searches and commands that touched files. */
export function fileOperations(step: Step): number {
  if (step.op === 'read' || step.op === 'write' || step.op === 'search') return Math.max(1, step.files_touched ?? 0);
  return step.files_touched ?? 0;
}

/**
 * A question about destroying something, answered by nobody: a removal or deletion and, on the same line, a prompt
 * (`Proceed?`, `(y/N)`, `Are you sure`). A question about anything else (`Ok to proceed? (y)` before npx installs a
 * package) is not one, nor `cp -i`'s `overwrite 'x'?`: the copy the agent asked for is what overwrites.
 */
const DESTROY_PROMPT = /\b(?:remov|delet|destroy|eras|wip|drop|purg|discard)\w*\b[^\n]{0,200}?(?:\?|\((?:y\/n|y|yes\/no)\)|\[(?:y\/n|yes\/no)\])|\bare you sure\b[^\n]{0,120}?\b(?:remov|delet|destroy|eras|wip|drop|purg)/i;

/** Terminal colour and cursor codes, which a prompt is drawn with. */
const TERMINAL_CODES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** A question a program is left waiting on is its output's last line: one inside the output (a review comment an API returned) is not. */
function asksToDestroy(text: string | undefined): boolean {
  if (!text) return false;
  const end = text.slice(-800).replace(TERMINAL_CODES, '').trimEnd();
  return DESTROY_PROMPT.test(end.slice(end.lastIndexOf('\n') + 1).slice(-400));
}
