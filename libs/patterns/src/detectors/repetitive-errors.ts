import { severityFor } from '../detector-settings.js';
import { detectDependencyLoop } from './dependency-loop.js';
import { confidenceFrom, lastIds, worse, type Finding, type SessionView } from './detector.js';
import type { Step } from '../action-step.js';
import { shellWords } from '../shell-words.js';
import { isRefusal } from '../signals.js';

interface FailureRun {
  ids: string[];
  tool?: string;
  cmd?: string;
  path?: string;
  errText?: string;
  errClass?: string;
}

/** The same failure again and again, the same mistake on one target after another, or a dependency fight that keeps failing the build: the worst. */
export function detectRepetitiveErrors(view: SessionView): Finding | undefined {
  return worse(worse(worse(worse(worse(detectSameFailure(view), detectSameMistake(view)), detectDependencyLoop(view.completed)), detectRewordedRetries(view)), detectUnusableTool(view)), detectRefusedAgain(view));
}

/** Refusals in the window after which the agent is asking again for what it was told no to. */
const REFUSED_AT = 3;

/**
 * Tool calls refused again and again — by the person, or by the agent's own permission system — whatever
 * each asked: the agent keeps asking instead of taking the refusal as an answer (asking what is wanted,
 * or doing without). Calls made together are refused together and count once. Medium at most: what it is
 * told is to stop asking, and the refusals themselves kept each call from running.
 */
function detectRefusedAgain(view: SessionView): Finding | undefined {
  const refused: Step[] = [];
  let last: { reported?: number; turn?: number } = {};
  for (const step of view.completed) {
    if (!isRefusal(step) || madeTogether(step, last)) continue;
    refused.push(step);
    last = { reported: step.done ?? step.at, ...(step.turn !== undefined ? { turn: step.turn } : {}) };
  }
  if (refused.length < REFUSED_AT) return undefined;
  const ladder = view.settings.repetitive_errors.severity;
  // Counted from the threshold, as the ladder's medium, and no higher.
  const severity = severityFor({ ...(ladder.low !== undefined ? { low: ladder.low } : {}), ...(ladder.medium !== undefined ? { medium: ladder.medium } : {}) }, refused.length - REFUSED_AT + (ladder.medium ?? 3));
  if (!severity) return undefined;
  const latest = refused[refused.length - 1]!;
  return {
    severity,
    confidence: confidenceFrom(0.6, 0.05 * (refused.length - REFUSED_AT)),
    description: `${refused.length} tool calls of this session were refused (latest: ${latest.cmd?.slice(0, 100) ?? latest.tool ?? 'a call'} — ${latest.err_text!.slice(0, 100)}), and the agent keeps asking: take the refusal as an answer — ask what is wanted, or do without.`,
    evidence: lastIds(refused.map((s) => s.id)),
    details: {
      repetitions: refused.length,
      tool: latest.tool ?? null,
      command: latest.cmd ?? null,
      error_class: 'refused',
      error_sample: latest.err_text!.slice(0, 200),
    },
    magnitude: refused.length,
  };
}

/**
 * Calls made together fail together: one proposed before the last counted failure was reported, or in the same
 * model response, had not seen it, so it is no retry of it.
 */
function madeTogether(step: Step, last: { reported?: number; turn?: number }): boolean {
  return (last.reported !== undefined && step.at < last.reported) || (step.turn !== undefined && step.turn === last.turn);
}

/** Commands in a row refused by the shell with the same error, whatever they asked, after which the shell counts as unusable here. */
const UNUSABLE_AT = 4;

/**
 * Whether an error says why, beyond that something failed: a search that finds nothing exits 1 with no
 * output, and four of those are no obstacle.
 */
function saysWhy(errText: string): boolean {
  const words = errText.replace(/\b(?:exit(?:ed)?|code|status|with|error|failed|failure|command|process|returned|non-zero)\b/g, ' ').match(/[a-z]{3,}/g);
  return (words?.length ?? 0) >= 3;
}

/**
 * The shell failing every command with the same error, whatever the command (the shell's own program is
 * missing: "PowerShell 6+ (pwsh) is not available"): the agent keeps calling a tool that cannot work here
 * instead of dealing with the cause or using another. What counts is an error that names nothing of the
 * command (an error about the command's own words is the command's), met by two programs or more (one program
 * failing alike on file after file is work on each). A success of the tool ends it, and so does another error
 * (the tool ran); other tools in between do not. Calls made together count once.
 */
function detectUnusableTool(view: SessionView): Finding | undefined {
  type Run = { err: string; steps: Step[]; programs: Set<string>; reported: number; turn?: number };
  const runs = new Map<string, Run>();
  let worst: Run | undefined;
  for (const step of view.completed) {
    if (!step.tool || !step.cmd || step.blocked) continue;
    if (step.status === 'success') {
      runs.delete(step.tool);
      continue;
    }
    if (step.status !== 'error' || !step.err || !step.err_text || !saysWhy(step.err_text)) continue;
    const attempt = attemptOf(step);
    let run = runs.get(step.tool);
    if ([...attempt.words].some((w) => w.length >= 4 && step.err_text!.includes(w))) {
      runs.delete(step.tool);
      continue;
    }
    if (run?.err === step.err) {
      if (madeTogether(step, run)) continue;
      run.steps.push(step);
    } else {
      run = { err: step.err, steps: [step], programs: new Set(), reported: 0 };
      runs.set(step.tool, run);
    }
    if (attempt.program) run.programs.add(attempt.program);
    run.reported = step.done ?? step.at;
    run.turn = step.turn;
    if (run.programs.size >= 2 && (!worst || run.steps.length > worst.steps.length)) worst = run;
  }
  if (!worst || worst.steps.length < UNUSABLE_AT) return undefined;
  const ladder = view.settings.repetitive_errors.severity;
  // Counted from the threshold: UNUSABLE_AT refusals read as the ladder's medium.
  const severity = severityFor(ladder, worst.steps.length - UNUSABLE_AT + (ladder.medium ?? 3));
  if (!severity) return undefined;
  const last = worst.steps[worst.steps.length - 1]!;
  return {
    severity,
    confidence: confidenceFrom(0.6, 0.05 * (worst.steps.length - UNUSABLE_AT)),
    description: `${last.tool} failed ${worst.steps.length} calls in a row with the same error, whatever they asked (${last.err_text!.slice(0, 120)}): the tool cannot work here as it is; deal with the cause or use another tool.`,
    evidence: lastIds(worst.steps.map((s) => s.id)),
    details: {
      repetitions: worst.steps.length,
      tool: last.tool ?? null,
      command: last.cmd ?? null,
      error_class: last.err?.split(':')[0] || null,
      error_sample: last.err_text!.slice(0, 200),
    },
    magnitude: worst.steps.length,
  };
}

/** Reworded attempts at one command, each failing, that make a loop. */
const REWORDED_AT = 5;
/** Runs of reworded attempts followed at once; the oldest is let go first. */
const MAX_OPEN_RUNS = 8;
/** Words that say how a command is launched, not what it does. */
const LAUNCH_WORDS = new Set(['cmd', 'powershell', 'pwsh', 'bash', 'zsh', 'set', 'export', 'env', 'call', 'start', 'sudo', 'npx', 'npm', 'pnpm', 'yarn', 'bun', 'node', 'python', 'python3', 'run', 'exec', 'echo', 'then', 'done', 'true', 'false', 'latest', 'path', 'the', 'and']);

/** A path a command names that is a program (`C:\\Program Files\\nodejs\\npx.cmd`), not what it works on. */
const PROGRAM_PATH = /\.(?:cmd|exe|bat|ps1|sh)$|\/(?:program files[^/]*|progra~\d|bin|sbin|scripts)\//i;

interface Attempt {
  /** The pieces of its words (`create-next-app@latest` → create, next, app), without launchers, options and paths. */
  words: Set<string>;
  /** What it works on: the paths it names other than programs. */
  targets: Set<string>;
  /** The program it runs (its first word that is no launcher) and how it failed, when it did. */
  program?: string;
  failure?: string;
}

/** The words of a command, quoted parts split again (`cmd /c "set PATH=… && npx x"` holds a command of its own). */
function flatWords(command: string, depth = 0): string[] {
  return shellWords(command).flatMap((w) => (depth < 3 && /\s/.test(w.trim()) ? flatWords(w, depth + 1) : [w]));
}

/** What a command attempts, without how it is launched. */
function attemptOf(step: Step): Attempt {
  const words = new Set<string>();
  let program: string | undefined;
  for (const word of flatWords(step.cmd!.toLowerCase())) {
    if (/^[-/$%]|[\\/]/.test(word)) continue;
    for (const piece of word.split(/[^a-z0-9]+/)) {
      if (piece.length < 3 || LAUNCH_WORDS.has(piece) || /^\d+$/.test(piece)) continue;
      program ??= piece;
      words.add(piece);
    }
  }
  const failure = step.status === 'error' ? step.err : undefined;
  return { words, targets: new Set((step.paths ?? []).filter((p) => !PROGRAM_PATH.test(p))), ...(program ? { program } : {}), ...(failure ? { failure } : {}) };
}

/** Whether two sets of paths name the same things: one holds the other's paths or lies within them, or names none. */
function nested(a: Set<string>, b: Set<string>): boolean {
  if (!a.size || !b.size) return true;
  for (const x of a) for (const y of b) if (x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`)) return true;
  return false;
}

/** More than half of the words of both are shared, and they work on the same things: the same attempt, reworded (a run joins any of its attempts). */
function sameAttempt(a: Attempt, b: Attempt): boolean {
  if (!a.words.size || !b.words.size) return false;
  // The same program failing the same way on the same things (`pytest tests/unit`, then one file of it, then
  // `pytest --version`, each killed by the sandbox): narrowing the command down does not change what stands in
  // the way. The same failure on one file after another (a linter's parse error) is work on each.
  if (a.program && a.program === b.program && a.failure && a.failure === b.failure && nested(a.targets, b.targets)) return true;
  if (a.targets.size && b.targets.size && ![...a.targets].some((t) => b.targets.has(t))) return false;
  let shared = 0;
  for (const w of a.words) if (b.words.has(w)) shared++;
  return shared * 2 > Math.max(a.words.size, b.words.size);
}

/**
 * One command tried again and again in different words (requoted, another launcher, another path to the
 * program), each attempt failing with an error: the agent is guessing at the same obstacle instead of
 * finding out what it is; so is one program run on less and less (a test suite, one file, its version), each
 * run failing the same way. A change to a file ends the run (the agent tried to fix something), and so does a
 * success of the attempt; other steps in between (reads, status checks, other commands failing) do not.
 * Identical attempts are the same failure's business.
 */
function detectRewordedRetries(view: SessionView): Finding | undefined {
  type Run = { steps: Step[]; attempts: Attempt[]; sigs: Set<string> };
  // Runs open side by side: another command failing in between (a probe of the interpreter) ends none of them.
  let runs: Run[] = [];
  let worst: { steps: Step[]; sigs: Set<string> } | undefined;
  for (const step of view.completed) {
    if (step.op === 'write') {
      runs = [];
      continue;
    }
    if (!step.cmd) continue;
    // Read only where it can matter: a failure, or a success while a run is open (the detector runs on every event).
    // A failure that says only that it failed (a search that found nothing) stands in no way.
    const failed = step.status === 'error' && !!step.err_text && saysWhy(step.err_text);
    if (!failed && !(runs.length && step.status === 'success')) continue;
    const attempt = attemptOf(step);
    const joined = runs.filter((r) => r.attempts.some((a) => sameAttempt(a, attempt)));
    if (!failed) {
      if (joined.length) runs = runs.filter((r) => !joined.includes(r));
      continue;
    }
    const run = joined[0];
    if (run) {
      run.steps.push(step);
      run.attempts.push(attempt);
      if (step.sig) run.sigs.add(step.sig);
    } else {
      runs.push({ steps: [step], attempts: [attempt], sigs: new Set(step.sig ? [step.sig] : []) });
      if (runs.length > MAX_OPEN_RUNS) runs.shift();
    }
    const current = run ?? runs[runs.length - 1]!;
    if (current.sigs.size >= REWORDED_AT - 1 && (!worst || current.steps.length > worst.steps.length)) worst = current;
  }
  if (!worst || worst.steps.length < REWORDED_AT) return undefined;
  const ladder = view.settings.repetitive_errors.severity;
  // Counted from the threshold: REWORDED_AT attempts read as the ladder's medium.
  const severity = severityFor(ladder, worst.steps.length - REWORDED_AT + (ladder.medium ?? 3));
  if (!severity) return undefined;
  const last = worst.steps[worst.steps.length - 1]!;
  return {
    severity,
    confidence: confidenceFrom(0.55, 0.05 * (worst.steps.length - REWORDED_AT)),
    description: `The same command was tried ${worst.steps.length} times in ${worst.sigs.size} wordings, and failed each time (last: \`${last.cmd!.slice(0, 120)}\`); find out what stands in the way before trying another wording.`,
    evidence: lastIds(worst.steps.map((s) => s.id)),
    details: {
      repetitions: worst.steps.length,
      wordings: worst.sigs.size,
      tool: last.tool ?? null,
      command: last.cmd ?? null,
      error_sample: last.err_text?.slice(0, 200) ?? null,
    },
    magnitude: worst.steps.length,
  };
}

/** How many times one tool must refuse calls with the same error, on two targets or more, to be a mistake the agent keeps making. */
const SAME_MISTAKE_AT = 5;

/** An error text with what names its target folded away: paths, file names and numbers. */
export function withoutTargets(errorText: string): string {
  return errorText
    .replace(/[a-z]:[\\/][^\s'"`]*|[\w.~-]*\/[^\s'"`]*|[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,4}\b/g, '<path>')
    .replace(/\d+/g, '#');
}

/**
 * The same mistake on one target after another: a tool refusing the agent's calls with the same error
 * whatever file they named (an argument it does not take there, a path it does not accept), each call
 * corrected and the next one made the same way. Successes do not end it: the agent does not learn. Tools
 * other than the shell only, whose errors are the tool's answer to the call; a command's are its
 * environment's, and the same one on many commands (a failing build) is no mistake of the call's.
 */
function detectSameMistake(view: SessionView): Finding | undefined {
  const mistakes = new Map<string, FailureRun & { targets: Set<string>; turn?: number }>();
  for (const step of view.completed) {
    if (step.status !== 'error' || step.cmd || !step.tool || !step.err_text || !step.paths?.length) continue;
    const key = `${step.tool}|${withoutTargets(step.err_text)}`;
    const mistake = mistakes.get(key) ?? { ids: [], tool: step.tool, targets: new Set<string>() };
    // The calls of one model response make their mistake once: none had seen another's error.
    if (madeTogether(step, { turn: mistake.turn })) continue;
    mistake.turn = step.turn;
    mistake.ids.push(step.id);
    mistake.targets.add(step.paths[0]!);
    mistake.path = step.paths[0];
    mistake.errText = step.err_text;
    if (step.err) mistake.errClass = step.err.split(':')[0] || undefined;
    mistakes.set(key, mistake);
  }
  let worst: (FailureRun & { targets: Set<string> }) | undefined;
  for (const mistake of mistakes.values()) if (mistake.targets.size > 1 && (!worst || mistake.ids.length > worst.ids.length)) worst = mistake;
  if (!worst || worst.ids.length < SAME_MISTAKE_AT) return undefined;
  const ladder = view.settings.repetitive_errors.severity;
  // Counted from the threshold: SAME_MISTAKE_AT refusals read as the ladder's medium.
  const severity = severityFor(ladder, worst.ids.length - SAME_MISTAKE_AT + (ladder.medium ?? 3));
  if (!severity) return undefined;
  return {
    severity,
    confidence: confidenceFrom(0.6, 0.05 * (worst.ids.length - SAME_MISTAKE_AT)),
    description: `${worst.tool} refused ${worst.ids.length} calls on ${worst.targets.size} targets with the same error${worst.errClass ? ` (${worst.errClass})` : ''}: the agent keeps making the same mistake; read the error and change how it calls the tool.`,
    evidence: lastIds(worst.ids),
    details: {
      repetitions: worst.ids.length,
      tool: worst.tool ?? null,
      command: null,
      file_path: worst.path ?? null,
      targets: worst.targets.size,
      error_class: worst.errClass ?? null,
      error_sample: worst.errText?.slice(0, 200) ?? null,
    },
    magnitude: worst.ids.length,
  };
}

/** Programs whose second word says what they do: `git switch` and `git push` are no checks of one kind. */
const BY_SUBCOMMAND = new Set(['npx', 'npm', 'pnpm', 'yarn', 'bun', 'python', 'python3', 'go', 'cargo', 'bundle', 'uv', 'git', 'gh', 'docker', 'kubectl', 'dotnet', 'terraform', 'helm', 'make']);

/** `npx vitest run test/a.test.ts` → `npx vitest`: a check of the same kind, whatever it narrows to. */
function familyOf(cmd: string | undefined): string | undefined {
  if (!cmd) return undefined;
  const words = cmd.replace(/^(?:cd\s+\S+\s*&&\s*)+/, '').split(/\s+/).filter((w) => !/^[A-Z_]+=/.test(w));
  return words.slice(0, BY_SUBCOMMAND.has(words[0] ?? '') ? 2 : 1).join(' ');
}

/**
 * The same failing action again and again: same action (command, or tool and file), same error class
 * and the same error text once numbers, quotes and ids are folded. Edits in between do not break the
 * run — a stuck agent edits and retries; a success of that action ends it, and so does a success of a
 * check of the same kind (the whole test suite passing after one test file failed).
 */
function detectSameFailure(view: SessionView): Finding | undefined {
  const runs = new Map<string, FailureRun & { family?: string; reported?: number; turn?: number }>();
  for (const step of view.completed) {
    if (!step.sig) continue;
    if (step.status === 'success') {
      const family = familyOf(step.cmd);
      for (const [key, run] of runs) if (key.startsWith(`${step.sig}|`) || (family && run.family === family)) runs.delete(key);
      continue;
    }
    const key = `${step.sig}|${step.err ?? ''}`;
    const run = runs.get(key) ?? { ids: [] };
    if (madeTogether(step, run)) {
      run.reported = Math.max(run.reported ?? 0, step.done ?? 0);
      continue;
    }
    if (step.done !== undefined) run.reported = step.done;
    run.turn = step.turn;
    run.ids.push(step.id);
    if (step.tool) run.tool = step.tool;
    if (step.cmd) {
      run.cmd = step.cmd;
      run.family = familyOf(step.cmd);
    }
    if (step.paths?.[0]) run.path = step.paths[0];
    if (step.err_text) run.errText = step.err_text;
    if (step.err) run.errClass = step.err.split(':')[0] || undefined;
    runs.set(key, run);
  }
  let worst: FailureRun | undefined;
  for (const run of runs.values()) if (!worst || run.ids.length > worst.ids.length) worst = run;
  if (!worst) return undefined;
  const ladder = view.settings.repetitive_errors.severity;
  const severity = severityFor(ladder, worst.ids.length);
  if (!severity) return undefined;
  const what = worst.cmd ? `\`${worst.cmd.slice(0, 120)}\`` : `${worst.tool ?? 'the action'}${worst.path ? ` on ${worst.path}` : ''}`;
  return {
    severity,
    confidence: confidenceFrom(0.6, 0.07 * (worst.ids.length - (ladder.medium ?? 3))),
    description: `${what} failed ${worst.ids.length} times with the same error${worst.errClass ? ` (${worst.errClass})` : ''}; retrying it unchanged will not help.`,
    evidence: lastIds(worst.ids),
    details: {
      repetitions: worst.ids.length,
      tool: worst.tool ?? null,
      command: worst.cmd ?? null,
      file_path: worst.path ?? null,
      error_class: worst.errClass ?? null,
      error_sample: worst.errText?.slice(0, 200) ?? null,
    },
    magnitude: worst.ids.length,
  };
}
