import type { Severity } from '@warden/contracts';
import { isCheckCommand } from '@warden/signatures';
import type { Step } from '../action-step.js';
import { baseName } from '@warden/actions';
import { confidenceFrom, lastIds, type Finding } from './detector.js';

/** Changing what the project depends on: installs, removals, updates, a lock file thrown away. */
const DEPENDENCY_CHANGE =
  /\b(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|remove|rm|uninstall|update|upgrade|up|ci|pkg\s+set|dedupe)\b|\bpip3?\s+(?:install|uninstall)\b|\bpython3?\s+-m\s+pip\s+install\b|\bcargo\s+(?:update|add|remove|generate-lockfile)\b|\bgo\s+(?:get|mod\s+tidy)\b|\bbundle\s+(?:install|update|add)\b|\bpoetry\s+(?:add|remove|update|lock)\b|\buv\s+(?:add|remove|sync|lock|pip\s+install)\b|\bcomposer\s+(?:require|update|install)\b|\brm\s+-[a-z]*r[a-z]*\s+[^;&|]*(?:node_modules|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock)/i;
/** Files that declare dependencies. */
const MANIFEST = /^(?:package\.json|cargo\.toml|requirements[\w.-]*\.txt|pyproject\.toml|setup\.py|gemfile|go\.mod|build\.gradle(?:\.kts)?|pom\.xml|composer\.json|hardhat\.config\.\w+|tsconfig\.json)$/i;
export const changesDependencies = (step: Step) => (!!step.cmd && DEPENDENCY_CHANGE.test(step.cmd)) || (step.op === 'write' && !!step.paths?.some((p) => MANIFEST.test(baseName(p))));
export const runsCheck = (step: Step) => !!step.cmd && isCheckCommand(step.cmd);

/**
 * A dependency fight: the agent changes dependencies (installs, removes, pins, edits the manifest) and
 * the build or tests fail again, round after round — a cargo update / cargo build loop, npm installs
 * between failing compiles. Each failure's text differs, so it is not the same error repeated; what
 * repeats is the round. A passing check ends the fight. Three rounds are reported, five are high.
 */
export function detectDependencyLoop(completed: readonly Step[]): Finding | undefined {
  let rounds = 0;
  let changed: Step[] = [];
  let evidence: Step[] = [];
  let checks: string[] = [];
  for (const step of completed) {
    if (runsCheck(step)) {
      if (step.status === 'success') {
        rounds = 0;
        changed = [];
        evidence = [];
        checks = [];
      } else if (step.status === 'error' && changed.length) {
        rounds++;
        evidence.push(...changed, step);
        checks.push(step.cmd!.slice(0, 100));
        changed = [];
      }
      continue;
    }
    if (changesDependencies(step)) changed.push(step);
  }
  if (rounds < 3) return undefined;
  const severity: Severity = rounds >= 5 ? 'high' : 'medium';
  return {
    severity,
    confidence: confidenceFrom(0.65, 0.06 * (rounds - 3)),
    description: `${rounds} rounds of changing dependencies and failing the build again (last: \`${checks.at(-1)}\`): the conflict is not being solved by trying versions. Read the error for the package and version it names, or ask for help.`,
    evidence: lastIds(evidence.map((s) => s.id)),
    details: { loop: 'dependency_conflict', rounds, failing_checks: checks.slice(-5) },
    magnitude: rounds,
  };
}
