import { severityFor } from '../detector-settings.js';
import { detectDependencyLoop } from './dependency-loop.js';
import { confidenceFrom, lastIds, worse, type Finding, type SessionView } from './detector.js';

interface FailureRun {
  ids: string[];
  tool?: string;
  cmd?: string;
  path?: string;
  errText?: string;
  errClass?: string;
}

/** The same failure again and again, or a dependency fight that keeps failing the build: the worse. */
export function detectRepetitiveErrors(view: SessionView): Finding | undefined {
  return worse(detectSameFailure(view), detectDependencyLoop(view.completed));
}

/** `npx vitest run test/a.test.ts` → `npx vitest`: a check of the same kind, whatever it narrows to. */
function familyOf(cmd: string | undefined): string | undefined {
  if (!cmd) return undefined;
  const words = cmd.replace(/^(?:cd\s+\S+\s*&&\s*)+/, '').split(/\s+/).filter((w) => !/^[A-Z_]+=/.test(w));
  return words.slice(0, ['npx', 'npm', 'pnpm', 'yarn', 'bun', 'python', 'python3', 'go', 'cargo', 'bundle', 'uv'].includes(words[0] ?? '') ? 2 : 1).join(' ');
}

/**
 * The same failing action again and again: same action (command, or tool and file), same error class
 * and the same error text once numbers, quotes and ids are folded. Edits in between do not break the
 * run — a stuck agent edits and retries; a success of that action ends it, and so does a success of a
 * check of the same kind (the whole test suite passing after one test file failed).
 */
function detectSameFailure(view: SessionView): Finding | undefined {
  const runs = new Map<string, FailureRun & { family?: string }>();
  for (const step of view.completed) {
    if (!step.sig) continue;
    if (step.status === 'success') {
      const family = familyOf(step.cmd);
      for (const [key, run] of runs) if (key.startsWith(`${step.sig}|`) || (family && run.family === family)) runs.delete(key);
      continue;
    }
    const key = `${step.sig}|${step.err ?? ''}`;
    const run = runs.get(key) ?? { ids: [] };
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
