import { GOAL_MAX_LENGTH, isSubjectToken, type PayloadOf } from '@warden/contracts';
import { TurnWords } from './turn-words.js';
import type { TokenUsage } from '@warden/pricing';
import { expectedPathsFor } from '@warden/agent-edge';
import type { RecordedAction, RecordedOutcome, RecordedSession, RecordingFormat, SkippedLine } from '../recorded-session.js';

/**
 * The id an action is proposed under for a recording's own id: kept when Warden's messages accept it (1-128
 * letters, digits, - or _), else every other character becomes `-` (a positional `L22.0` is sent as `L22-0`).
 */
export function actionIdFor(id: string): string {
  if (isSubjectToken(id)) return id;
  const safe = id.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 120);
  return safe || 'action';
}

/** An ISO 8601 time from what a recording holds: an ISO string, or epoch milliseconds. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value).toISOString();
  if (typeof value === 'string' && value.trim()) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
  }
  return undefined;
}

/** A bounded text of a tool's result, whatever its shape (a string, content parts, JSON). */
export function resultText(value: unknown, max = 8000): string | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value)) {
    text = value
      .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : typeof part === 'string' ? part : JSON.stringify(part)))
      .join('\n');
  } else text = JSON.stringify(value);
  return text.trim() ? text.slice(0, max) : undefined;
}

/** The arguments that say what a call acts on, in the spellings agents use (a command, a file, a query, a URL). */
const MAIN_ARGUMENTS = ['command', 'cmd', 'CommandLine', 'file_path', 'filePath', 'absolute_path', 'TargetFile', 'AbsolutePath', 'path', 'file', 'dir_path', 'DirectoryPath', 'SearchPath', 'pattern', 'Pattern', 'query', 'Query', 'url', 'Url', 'prompt'];

/**
 * A call's title in reports: the tool and what it acts on, after the agent's own summary of the call when
 * the recording has one, or its `description` argument (`Install dependencies — run_command: pip install -r
 * requirements.txt`).
 */
export function titleOf(tool: string, input: Record<string, unknown>, summary?: string): string {
  const value = MAIN_ARGUMENTS.map((key) => input[key]).find((v) => (typeof v === 'string' && v.trim()) || (Array.isArray(v) && v.length));
  const main = Array.isArray(value) ? value.join(' ') : (value as string | undefined);
  const call = main ? `${tool}: ${main.replace(/\s+/g, ' ').slice(0, 120)}` : tool;
  const said = (summary ?? (typeof input['description'] === 'string' ? input['description'] : undefined))?.replace(/\s+/g, ' ').trim();
  return said && !main?.includes(said) ? `${said.slice(0, 80)} — ${call}` : call;
}

/** What happened to a call, as the recording tells it. */
export interface ResultOf {
  status: 'success' | 'error';
  text?: string;
  /** When the result was recorded. */
  at?: string;
  /** When the call was made, for the duration when the recording gives none. */
  since?: string;
  durationMs?: number;
  filesTouched?: string[];
}

/** A recorded outcome: an error's text as its message, a success's as its output, the duration from the times when not given. */
export function outcomeOf(result: ResultOf): RecordedOutcome {
  const measured = result.at && result.since ? Date.parse(result.at) - Date.parse(result.since) : NaN;
  const durationMs = result.durationMs ?? (Number.isFinite(measured) && measured >= 0 ? measured : undefined);
  return {
    status: result.status,
    ...(result.status === 'error' ? { error: { message: (result.text ?? 'the tool failed').slice(0, 8000) } } : result.text ? { output: result.text.slice(0, 4000) } : {}),
    ...(durationMs !== undefined && Number.isFinite(durationMs) && durationMs >= 0 ? { durationMs: Math.round(durationMs) } : {}),
    ...(result.filesTouched?.length ? { filesTouched: result.filesTouched } : {}),
    ...(result.at ? { at: result.at } : {}),
  };
}

const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => {
  const sum = (x?: number, y?: number) => (x ?? 0) + (y ?? 0);
  const cacheRead = sum(a.cache_read, b.cache_read);
  const cacheWrite = sum(a.cache_write, b.cache_write);
  return { prompt: a.prompt + b.prompt, completion: a.completion + b.completion, ...(cacheRead ? { cache_read: cacheRead } : {}), ...(cacheWrite ? { cache_write: cacheWrite } : {}) };
};

/** The i-th of n shares of a usage, in whole tokens; the last share takes what the division leaves. */
const shareOf = (tokens: TokenUsage, i: number, n: number): TokenUsage => {
  const part = (total: number) => (i === n - 1 ? total - Math.floor(total / n) * (n - 1) : Math.floor(total / n));
  return {
    prompt: part(tokens.prompt),
    completion: part(tokens.completion),
    ...(tokens.cache_read ? { cache_read: part(tokens.cache_read) } : {}),
    ...(tokens.cache_write ? { cache_write: part(tokens.cache_write) } : {}),
  };
};

interface Usage {
  tokens: TokenUsage;
  model?: string;
}

/** Two usages as one; the later one's model wins. */
const merge = (a: Usage, b: Usage): Usage => ({ tokens: addUsage(a.tokens, b.tokens), ...((b.model ?? a.model) ? { model: b.model ?? a.model } : {}) });

/**
 * Builds a recorded session from an agent's recording, the same way for every agent: each action under
 * its recording's own id (a repeated record counts once); the user's first request as the goal and each
 * later one with the action that follows it (session.goal_changed); the model's token usage with the
 * action the model call proposed, so that cost can be priced.
 */
export class SessionBuilder {
  readonly actions: RecordedAction[] = [];
  private readonly byId = new Map<string, RecordedAction>();
  private readonly sentIds = new Set<string>();
  private readonly usageOf = new Map<RecordedAction, Usage>();
  private readonly notes = new Set<string>();
  private goal: string | undefined;
  private pending: string | undefined;
  private readonly turnWords = new TurnWords();
  /** Actions added since the last model usage was recorded. */
  private sinceUsage: RecordedAction[] = [];
  /**
   * Usage that goes with the next action added: a model call that proposed no action (a text reply), or
   * usage a recording reports before the actions it belongs to (Aider prints it, then applies the edits).
   */
  private upcoming: Usage | undefined;

  constructor(
    private readonly format: RecordingFormat,
    private readonly agentKind: string,
  ) {}

  /** A request of the user: the first is the session's goal, a later one goes with the next action (the latest, as for Claude Code). */
  prompt(text: string | undefined): void {
    const request = text?.trim();
    if (!request) return;
    this.turnWords.ended(this.actions.at(-1));
    if (this.goal === undefined) this.goal = request.slice(0, GOAL_MAX_LENGTH);
    else this.pending = request.slice(0, GOAL_MAX_LENGTH);
  }

  /** Adds an action under the recording's own id; undefined when that id was seen before (a repeated record). */
  add(id: string, action: Omit<RecordedAction, 'actionId' | 'recordedId'>): RecordedAction | undefined {
    if (this.byId.has(id)) return undefined;
    let actionId = actionIdFor(id);
    for (let n = 2; this.sentIds.has(actionId); n++) actionId = `${actionIdFor(id).slice(0, 110)}-${n}`;
    const recorded: RecordedAction = { actionId, ...(actionId !== id ? { recordedId: id } : {}), ...action };
    if (!recorded.title && typeof action.tool === 'string' && action.input) recorded.title = titleOf(action.tool, action.input);
    if (this.pending) {
      recorded.request = this.pending;
      this.pending = undefined;
    }
    this.byId.set(id, recorded);
    this.sentIds.add(actionId);
    this.actions.push(recorded);
    this.sinceUsage.push(recorded);
    if (this.upcoming) {
      this.usageOf.set(recorded, this.upcoming);
      this.upcoming = undefined;
    }
    return recorded;
  }

  /** A text reply of the agent: the last before the user's next request (or the end) ended its turn. */
  reply(text: string | undefined): void {
    this.turnWords.said(text, this.actions.at(-1));
  }

  get(id: string): RecordedAction | undefined {
    return this.byId.get(id);
  }

  /**
   * A model call's token usage: it goes with the first action added since the previous usage (the call
   * that proposed it), or with the next action added when the recording reports usage before the actions.
   * A run's total reported at its end (`run`) is shared out over the run's actions: it was spent over the
   * run, not in its last minute. A call that proposed no action (a text reply) goes with the next action,
   * so that the session's spending adds up.
   */
  usage(tokens: TokenUsage, model?: string, place: 'first' | 'run' | 'next' = 'first'): void {
    const usage: Usage = { tokens, ...(model ? { model } : {}) };
    const actions = place === 'first' ? this.sinceUsage.slice(0, 1) : place === 'run' ? this.sinceUsage : [];
    if (!actions.length) {
      this.upcoming = this.upcoming ? merge(this.upcoming, usage) : usage;
      return;
    }
    actions.forEach((action, i) => {
      const share: Usage = { tokens: shareOf(tokens, i, actions.length), ...(model ? { model } : {}) };
      const before = this.usageOf.get(action);
      this.usageOf.set(action, before ? merge(before, share) : share);
    });
    this.sinceUsage = [];
  }

  /** Something the reader could not read, or read in a way worth saying; said once. */
  note(text: string): void {
    this.notes.add(text);
  }

  build(options: { sessionId?: string; cwd?: string; model?: string; skipped?: SkippedLine[]; empty?: string }): RecordedSession {
    this.placeUsage();
    this.turnWords.ended(this.actions.at(-1));
    const context: PayloadOf<'session.started'>['context'] = {
      ...(options.cwd ? { cwd: options.cwd, expected_paths: expectedPathsFor(options.cwd) } : {}),
      ...(this.goal ? { goal: this.goal } : {}),
    };
    return {
      format: this.format,
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      declaration: { context, agent_kind: this.agentKind, ...(options.model ? { model: options.model.slice(0, 128) } : {}) },
      actions: this.actions,
      ...(options.skipped?.length ? { skippedLines: options.skipped } : {}),
      ...(this.notes.size ? { notes: [...this.notes] } : {}),
      ...(!this.actions.length && options.empty ? { empty: options.empty } : {}),
    };
  }

  /** Usage lives on outcomes: usage of an action that reported none moves to the next one that did. */
  private placeUsage(): void {
    const left = this.upcoming;
    if (left && this.actions.length) {
      // What the model spent after the last action (its closing reply) belongs to the session's last call.
      const last = this.actions.at(-1)!;
      const before = this.usageOf.get(last);
      this.usageOf.set(last, before ? merge(before, left) : left);
    }
    let pending: Usage | undefined;
    for (const action of this.actions) {
      const own = this.usageOf.get(action);
      const usage = own && pending ? merge(pending, own) : (own ?? pending);
      if (!usage) continue;
      if (!action.outcome) {
        pending = usage;
        continue;
      }
      pending = undefined;
      action.outcome.tokens = usage.tokens;
      if (usage.model) action.outcome.model = usage.model;
    }
  }
}
