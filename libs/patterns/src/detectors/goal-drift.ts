import type { Step } from '../action-step.js';
import { severityFor } from '../detector-settings.js';
import { commandPaths } from '../action-step.js';
import { baseName, isRelativePath, pathMatcher, pathsNamedIn, resolvePath, type PathMatcher } from '@warden/actions';
import { compiledMatcher } from '../settings-globs.js';
import { wordsOf } from '@warden/project-knowledge';
import { confidenceFrom, lastIds, type Finding, type SessionView } from './detector.js';

export interface GoalTargets {
  files: string[];
  stems: string[];
  keywords: string[];
  expected?: PathMatcher;
  /** Absolute paths the goal or a follow-up named ("build this in /home/ann/dev/app"): work there is the task. */
  named?: PathMatcher;
}

const SOURCE_FILE =
  /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|java|kts?|rb|php|cs|fs|c|cc|cpp|h|hpp|swift|mm?|scala|clj|ex|exs|erl|hs|lua|dart|r|jl|sh|bash|zsh|ps1|sql|json|ya?ml|toml|ini|cfg|conf|xml|gradle|md|mdx|rst|txt|html?|css|scss|sass|less|vue|svelte|astro|tf|hcl|proto|graphql|gql|sol|ipynb|lock)$/i;

/** `src/parser.spec.ts` → `parser`: the name a file and its tests share. */
function stemOf(path: string): string {
  return baseName(path).toLowerCase().split('.')[0] ?? '';
}

/** Words that make a document the goal names the task's instructions rather than the file to change. */
const FOLLOWED = String.raw`(?:read|follow|implement|execute|complete|carry\s+out|work\s+through|see|per|according\s+to|(?:described|outlined|specified|listed|defined|explained|written)\s+in|as\s+in)`;

/**
 * A prose document the goal sends the agent to for what to do ("Read task.md and implement it", "implement the
 * plan in PLAN.md", "as described in docs/spec.md"): the task is what it says, so the changes it asks for are
 * in other files, and the document is no target of its own.
 */
function isSpecification(goal: string, path: string): boolean {
  if (!/\.(?:md|mdx|txt|rst|adoc)$/i.test(path)) return false;
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(String.raw`\b${FOLLOWED}\s+(?:[\w-]+\s+){0,3}?[\`'"(]?(?:\S*/)?${escaped}`, 'i').test(goal);
}

const goals = new Map<string, GoalTargets>();
const MAX_CACHED = 1000;

/** What the declared goal points at: files it names, their stems and directories, and its meaningful words. */
export function goalTargets(
  goal: string,
  cwd: string | undefined,
  home: string | undefined,
  expected: readonly string[] | undefined,
  ignoredWords: readonly string[],
  namedPaths: readonly string[] = [],
): GoalTargets {
  const key = `${goal}\u0000${cwd ?? ''}\u0000${(expected ?? []).join(',')}\u0000${namedPaths.join(',')}`;
  const cached = goals.get(key);
  if (cached) return cached;
  // Only what reads as a project file: an issue text's `msg.value`, `marshmallow.fields` or an attached screenshot is no file to fix.
  const named = commandPaths(goal.replace(/[`'"(),:;]/g, ' ')).filter((p) => SOURCE_FILE.test(p) && !isSpecification(goal, p));
  const files = named.map((p) => resolvePath(p, cwd, home));
  // Goal words are looked for inside paths, so `-ed` stays: `shared/` holds no `shar`.
  const ignored = new Set(ignoredWords.flatMap((w) => wordsOf(w, { pastTense: false })));
  const keywords = [...new Set(wordsOf(goal.replace(/\S+\.[a-z0-9]{1,8}\b/gi, ' '), { pastTense: false }).filter((w) => w.length >= 4 && !ignored.has(w)))];
  const targets: GoalTargets = {
    files,
    stems: files.map(stemOf),
    keywords,
    ...(expected?.length ? { expected: pathMatcher(expected, cwd) } : {}),
  };
  const namedPlaces = [...pathsNamedIn(goal, cwd, home), ...namedPaths];
  if (namedPlaces.length) targets.named = pathMatcher(namedPlaces, cwd);
  if (goals.size >= MAX_CACHED) goals.clear();
  goals.set(key, targets);
  return targets;
}

/**
 * Related to the goal: it touches a file the goal names or one named
 * after it (its tests), or its path inside the project has a goal word in it. When the goal names no
 * file, or the user steers with follow-up requests, every change inside the expected paths is related:
 * the drift left to see is work outside them, and a word match against a conversation ("yes, go ahead")
 * judges nothing.
 */
function related(step: Step, targets: GoalTargets, project: string | undefined, followedUp: boolean): boolean {
  // A goal that names no file is about its project, and once the user steers with follow-up requests the
  // project is the task whatever the first request named: a change inside the expected paths is related.
  if ((followedUp || !targets.files.length) && (step.paths ?? []).some((path) => targets.expected?.(path))) return true;
  // Where the user said to work ("build this in /home/ann/dev/app") is the task; without a known working
  // directory a relative path is the project's, and the project is where the user said to work.
  if ((step.paths ?? []).some((path) => targets.named?.(path) || (!project && !!targets.named && isRelativePath(path)))) return true;
  // The reviewer's alignment is high for anything inside the project, so only a low one says something here;
  // without a known project (a recording that names no working directory) it is low for every path.
  if (project && step.alignment !== undefined && step.alignment <= 0.3) return false;
  return (step.paths ?? []).some((path) => {
    const inside = (project && path.startsWith(`${project}/`) ? path.slice(project.length + 1) : path).toLowerCase();
    const stem = stemOf(path);
    if (targets.files.includes(path) || targets.stems.some((s) => s && (stem === s || stem.startsWith(s)))) return true;
    if (targets.keywords.some((k) => inside.includes(k))) return true;
    return !targets.files.length && !!targets.expected?.(path);
  });
}

/**
 * The actions stop relating to the declared goal: the latest changes (writes) all touch files the goal
 * does not point at, e.g. the agent abandons the file it was asked to fix and edits others.
 */
export function detectGoalDrift(view: SessionView): Finding | undefined {
  const { goal, cwd, expected_paths } = view.state.context;
  if (!goal) return undefined;
  const settings = view.settings.goal_drift;
  const targets = goalTargets(goal, cwd, view.home, expected_paths, settings.ignored_goal_words, view.state.named_paths);
  const project = cwd ? resolvePath(cwd, undefined, view.home) : undefined;
  // A goal that names no file leaves only its words, and words ("Proceed", a task told in the domain's terms
  // while the files have the code's names) say too little to call a change unrelated: without a project or
  // expected paths to hold the changes against, there is nothing to judge.
  if (!targets.files.length && !targets.expected && !project) return undefined;
  if (!targets.files.length && !targets.keywords.length && !targets.expected) return undefined;
  const since = view.state.goal_since ?? -Infinity;
  // The agent's own notes and plans, temporary files and caches are no change to the project; work
  // outside the project is scope creep's to judge, not a second finding here.
  const ignored = compiledMatcher(view.settings.scope_creep.ignored_paths);
  const inScope = view.inScope;
  const notTheProjects = (s: Step) => !!s.paths?.length && s.paths.every((p) => ignored(p) || (!!inScope && !inScope(p)));
  const writes = view.completed.filter((s) => s.at >= since && (s.op === 'write' || (s.cmd && /^(sed -i|perl -pi|mv|rm|git mv|git rm)\b/.test(s.cmd))) && !notTheProjects(s));
  const drift: Step[] = [];
  let anyRelated = false;
  for (let i = writes.length - 1; i >= 0; i--) {
    if (related(writes[i]!, targets, project, view.state.goal_since !== undefined)) {
      anyRelated = true;
      break;
    }
    drift.unshift(writes[i]!);
  }
  const severity = severityFor(settings.severity, drift.length);
  if (!severity) return undefined;
  const paths = [...new Set(drift.flatMap((s) => s.paths ?? []))];
  return {
    severity,
    confidence: confidenceFrom(anyRelated ? 0.7 : 0.55, 0.04 * (drift.length - (settings.severity.medium ?? 4))),
    description: `The last ${drift.length} changes touched ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ' and others' : ''}, none of which the goal is about${targets.files.length ? ` (it names ${targets.files.slice(0, 3).join(', ')}${targets.files.length > 3 ? ` and ${targets.files.length - 3} more` : ''})` : ''}.`,
    evidence: lastIds(drift.map((s) => s.id)),
    details: {
      goal: goal.slice(0, 300),
      goal_files: targets.files.slice(0, 20),
      unrelated_changes: drift.length,
      recent_targets: paths.slice(-10),
      worked_on_goal_before: anyRelated,
    },
    magnitude: drift.length,
  };
}
