import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { inTempDirectory, readToolCall, resolvePath } from '@warden/actions';
import { segmentsRunning } from '../parsing/segment-index.js';
import { basename } from '../parsing/shell-command.js';
import type { ReviewSession } from '../session/review-session.js';
import { ownEntry } from '../own-entry.js';

export interface RationalityComponents {
  goal_alignment: number;
  logical_progression: number;
  efficiency: number;
  completeness: number;
}

export interface RationalityAnalysis {
  score: number;
  components: RationalityComponents;
  /** e.g. unrelated_to_goal, repeats_failed_action, contradicts_previous, inefficient, incomplete. */
  issues: string[];
  suggestions: string[];
}

/** Goal alignment weighs most: an action that serves no declared purpose is the clearest sign of a lost agent. */
const GIT = new Set(['git']);
const SLEEP = new Set(['sleep']);
const WEIGHTS: RationalityComponents = { goal_alignment: 0.35, logical_progression: 0.25, efficiency: 0.2, completeness: 0.2 };

const STOP_WORDS = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'make', 'sure', 'when', 'then', 'than', 'them', 'they', 'have', 'should',
  'would', 'could', 'will', 'file', 'files', 'code', 'please', 'also', 'just', 'some', 'your', 'their', 'what', 'which', 'where',
]);

/** A word without its plural ending: "activities" and "activity", "leads" and "lead" are one word to a goal. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Words of four letters or more, lower-cased and stemmed: the vocabulary an action must share with the goal. */
function keywords(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) if (word.length >= 4 && !STOP_WORDS.has(word)) words.add(stem(word));
  return words;
}

/** The vocabulary of every request of a session is kept up to this many words. */
const MAX_GOAL_WORDS = 4000;

/** Dedicated tools Claude Code offers for what agents often do through the shell. */
const TOOL_FOR_COMMAND: Record<string, string> = {
  cat: 'Read', head: 'Read', tail: 'Read', less: 'Read', grep: 'Grep', rg: 'Grep', egrep: 'Grep', find: 'Glob', ls: 'Glob',
};

/**
 * Seed 001's rationality checker, scored from the context the agent declared and the session's history:
 * goal alignment (1 or 0), logical progression (builds on 1, explores 0.7, repeats 0.3, contradicts 0),
 * efficiency (0.5 when a clearly better way exists) and completeness (the action has what it needs).
 */
export class RationalityChecker {
  // eslint-disable-next-line no-restricted-syntax -- keyed by the session, which outlives its reviews: nothing of a review is kept.
  private readonly goalWords = new WeakMap<ReviewSession, { goal: string; earlier: number; words: Set<string> }>();

  check(action: ParsedAction, session: ReviewSession, inProject: (path: string) => boolean): RationalityAnalysis {
    const issues: string[] = [];
    const suggestions: string[] = [];
    const components: RationalityComponents = {
      goal_alignment: this.goalAlignment(action, session, inProject, issues, suggestions),
      logical_progression: this.logicalProgression(action, session, issues, suggestions),
      efficiency: this.efficiency(action, suggestions, issues),
      completeness: this.completeness(action, session, issues, suggestions),
    };
    let score = 0;
    for (const key of Object.keys(WEIGHTS) as (keyof RationalityComponents)[]) score += WEIGHTS[key] * components[key];
    return { score: Math.round(score * 1000) / 1000, components, issues, suggestions };
  }

  /**
   * The words of the goal and of the goals before it: a follow-up request replaces the goal, but what the user
   * asked for earlier in the session (the app it builds, the deployment it named) is still the task's.
   */
  private wordsOfGoal(session: ReviewSession): Set<string> {
    const goal = session.context.goal ?? '';
    const earlier = session.earlierGoals.length;
    const cached = this.goalWords.get(session);
    if (cached?.goal === goal && cached.earlier === earlier) return cached.words;
    const words = keywords(goal);
    for (let i = earlier - 1; i >= 0 && words.size < MAX_GOAL_WORDS; i--) for (const word of keywords(session.earlierGoals[i]!)) words.add(word);
    this.goalWords.set(session, { goal, earlier, words });
    return words;
  }

  private goalAlignment(action: ParsedAction, session: ReviewSession, inProject: (path: string) => boolean, issues: string[], suggestions: string[]): number {
    const { goal, expectedPaths, cwd } = session.context;
    // The expected paths, or without them the working directory: the project the task is about.
    const declared = expectedPaths.length > 0 || !!cwd;
    // Nothing declared: nothing to measure against, so no penalty.
    if (!goal && !declared) return 1;
    if (action.intent === 'message' || action.intent === 'delegation') return 1;
    // Without a goal only the expected paths can be left: an action that names no path, or only paths inside them, is aligned.
    if (!goal && (action.readOnly || action.paths.every((p) => inProject(p) || inTempDirectory(p)))) return 1;
    if (action.paths.length && declared && action.paths.every(inProject)) return 1;
    // Looking around, running the project's tests and builds serve any goal in the project.
    if ((action.readOnly || action.intents.every((i) => i === 'command_execution' || i === 'file_read')) && !action.paths.some((p) => !inProject(p) && declared)) return 1;
    const goalWords = this.wordsOfGoal(session);
    if (goalWords.size) {
      const text = [action.command ?? '', ...action.paths.map(basename), ...action.packages, action.description ?? '', ...action.urls].join(' ');
      for (const word of keywords(text)) if (goalWords.has(word)) return 1;
    }
    issues.push('unrelated_to_goal');
    suggestions.push(goal ? `Relate each step to the task: "${goal.slice(0, 200)}".` : 'Stay within the expected paths of the task.');
    return 0;
  }

  private logicalProgression(action: ParsedAction, session: ReviewSession, issues: string[], suggestions: string[]): number {
    const previous = session.last();
    if (!previous) return 1;
    const failedBefore = session.failuresSinceChange(action.key) > 0;
    if (this.contradicts(action, session)) {
      issues.push('contradicts_previous');
      suggestions.push('This undoes work done earlier in the session; say why before reverting it.');
      return 0;
    }
    if ((failedBefore && !action.readOnly) || (previous.key === action.key && !action.readOnly)) {
      issues.push(failedBefore ? 'repeats_failed_action' : 'repeats_previous');
      suggestions.push(failedBefore ? 'The same action failed before: read the error and change something first.' : 'This repeats the previous action.');
      return 0.3;
    }
    if (action.paths.some((p) => session.hasSeen(p))) return 1;
    // Verifying after a change, or investigating after a failure, builds on what came before.
    if (previous.writtenPaths.length && action.intents.includes('command_execution')) return 1;
    if (previous.status === 'error' && action.readOnly) return 1;
    return 0.7;
  }

  /** Reverting (git checkout/restore) or deleting project files this session itself wrote. */
  private contradicts(action: ParsedAction, session: ReviewSession): boolean {
    const reverted = segmentsRunning(action.segments, GIT).flatMap((s) => {
      if (s.argv[1] === 'restore') return s.argv.slice(2).filter((a) => !a.startsWith('-'));
      if (s.argv[1] === 'checkout' && s.argv.includes('--')) return s.argv.slice(s.argv.indexOf('--') + 1);
      return [];
    });
    // Deleting what the session itself created (a scratch script, a check's output) is tidying up, not undoing work.
    const deleted = action.intents.includes('file_deletion') ? action.writtenPaths.filter((p) => !createdInSession(p, session)) : [];
    const targets = [...reverted.map((p) => resolvePath(p, action.cwd)), ...deleted];
    const covers = (target: string, written: string) => written === target || written.startsWith(`${target}/`);
    return targets.some(
      (target) => !target.startsWith('/tmp/') && session.history.some((r) => r.verdict !== 'block' && r.status !== 'error' && r.writtenPaths.some((w) => covers(target, w))),
    );
  }

  private efficiency(action: ParsedAction, suggestions: string[], issues: string[]): number {
    if (action.tool === 'Bash' && action.segments.length === 1) {
      const segment = action.segments[0]!;
      const better = ownEntry(TOOL_FOR_COMMAND, commandName(segment));
      if (better && !segment.redirects.length && !(commandName(segment) === 'ls' && segment.argv.length <= 2)) {
        issues.push('inefficient');
        suggestions.push(`Use the ${better} tool instead of ${commandName(segment)} in the shell.`);
        return 0.5;
      }
    }
    const sleep = segmentsRunning(action.segments, SLEEP).find((s) => Number.parseFloat(s.argv[1] ?? '0') >= 30);
    if (sleep) {
      issues.push('inefficient');
      suggestions.push('Wait for the process itself (or poll its output) instead of sleeping for a fixed time.');
      return 0.5;
    }
    return 1;
  }

  private completeness(action: ParsedAction, session: ReviewSession, issues: string[], suggestions: string[]): number {
    const input = action.input;
    const missing = (field: string) => {
      issues.push('incomplete');
      suggestions.push(`${action.tool} needs ${field}.`);
      return 0;
    };
    if (action.command !== undefined && !action.command.trim()) return missing('a command');
    if (['Edit', 'MultiEdit'].includes(action.tool)) {
      if (typeof input['file_path'] !== 'string') return missing('file_path');
      if (action.tool === 'Edit' && (typeof input['old_string'] !== 'string' || typeof input['new_string'] !== 'string')) return missing('old_string and new_string');
      if (action.tool === 'Edit' && input['old_string'] === input['new_string']) {
        issues.push('incomplete');
        suggestions.push('old_string and new_string are the same: the edit changes nothing.');
        return 0;
      }
      if (session.history.length && !action.paths.some((p) => session.hasSeen(p))) {
        issues.push('edits_unread_file');
        suggestions.push('Read the file before editing it.');
        return 0.7;
      }
    }
    if (action.tool === 'Write') {
      // Claude Code's Write has file_path and content, Cursor's path and contents: read as every agent's writes are.
      const call = readToolCall(action.tool, input);
      if (!call.written.length) return missing('the path to write');
      if (call.content === undefined) return missing('the content to write');
    }
    if (action.tool === 'WebFetch' && typeof input['url'] !== 'string') return missing('a url');
    return 1;
  }
}

/** The session's first action on the path created it (and ran): the file did not exist before the session. */
function createdInSession(path: string, session: ReviewSession): boolean {
  for (const record of session.history) {
    if (!record.paths.includes(path)) continue;
    if (record.verdict === 'block' || record.status === 'error') continue;
    return record.writtenPaths.includes(path) && record.intents.includes('file_creation');
  }
  return false;
}
