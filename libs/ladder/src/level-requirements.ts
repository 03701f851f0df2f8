import { AUTOMATION_LEVEL_DEFINITIONS, type AutomationLevel, type AutomationLevelDefinition } from '@warden/contracts';
import { falsePositiveRate, type LevelMetrics } from './track-record.js';

export const HIGHEST_LEVEL = 4 as AutomationLevel;

/** The outcome of checking one level's requirements against a track record, in words an operator reads. */
export interface RequirementCheck {
  met: boolean;
  /** Every requirement with its figure, e.g. `false-positive rate 0.04 <= 0.2`. */
  findings: string[];
  /** Only the requirements that failed. */
  failures: string[];
}

export function definitionOf(level: AutomationLevel): AutomationLevelDefinition {
  return AUTOMATION_LEVEL_DEFINITIONS[level]!;
}

/** `AI Acts (level 2)`. */
export function levelLabel(level: AutomationLevel): string {
  return `${definitionOf(level).name} (level ${level})`;
}

const figure = (value: number) => String(Number(value.toFixed(3)));

/**
 * Seed 002 §7.2 `checkLevelTransition`: totalRuns >= minRuns, FP rate <= maxFalsePositiveRate, missed
 * critical bugs <= maxMissedCriticalBugs, approval rate >= minApprovalRate when the level has one.
 *
 * `includeRuns: false` leaves out the run count. The count only grows, so for a level the agent earned
 * it still holds; a level given by configuration or an operator did not have to earn it, and staying
 * there is judged on the quality of the runs alone.
 */
export function checkRequirements(level: AutomationLevel, metrics: LevelMetrics, options: { includeRuns: boolean } = { includeRuns: true }): RequirementCheck {
  const required = definitionOf(level).requirements;
  const results: [boolean, string][] = [];
  if (options.includeRuns) {
    const ok = metrics.totalRuns >= required.minRuns;
    results.push([ok, `${metrics.totalRuns} runs ${ok ? '>=' : '<'} ${required.minRuns}`]);
  }
  const fpRate = falsePositiveRate(metrics);
  const fpOk = fpRate <= required.maxFalsePositiveRate;
  results.push([fpOk, `false-positive rate ${figure(fpRate)} ${fpOk ? '<=' : '>'} ${figure(required.maxFalsePositiveRate)}`]);
  const missedOk = metrics.missedCriticalBugs <= required.maxMissedCriticalBugs;
  if (Number.isFinite(required.maxMissedCriticalBugs)) {
    results.push([missedOk, `missed critical bugs ${metrics.missedCriticalBugs} ${missedOk ? '<=' : '>'} ${required.maxMissedCriticalBugs}`]);
  }
  if (required.minApprovalRate !== undefined) {
    const ok = metrics.approvalRate >= required.minApprovalRate;
    results.push([ok, `approval rate ${figure(metrics.approvalRate)} ${ok ? '>=' : '<'} ${figure(required.minApprovalRate)}`]);
  }
  return {
    met: results.every(([ok]) => ok),
    findings: results.map(([, text]) => text),
    failures: results.filter(([ok]) => !ok).map(([, text]) => text),
  };
}

/**
 * The highest level at or below `ceiling` whose requirements (without the run count) still hold. Level 0
 * is the floor: it requires nothing an agent can fail (its false-positive limit of 1.0 is a rate, and
 * false positives are counted per run, so the rate can exceed 1 without making manual work any less manual).
 */
export function highestLevelStillHeld(ceiling: AutomationLevel, metrics: LevelMetrics): AutomationLevel {
  for (let level = ceiling; level > 0; level--) {
    if (checkRequirements(level as AutomationLevel, metrics, { includeRuns: false }).met) return level as AutomationLevel;
  }
  return 0;
}
