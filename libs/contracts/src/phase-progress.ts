import Type, { type Static } from 'typebox';
import type { Phase } from './vocabulary.js';

/**
 * What an agent reports about its progress at the end of an iteration (seed 002 §2). Counters named
 * `*_count`, `lines_added`, `tests_passed` and `health_score` are cumulative for the phase; the others
 * describe this iteration alone. The breaker's stagnation detector and the pattern detector's
 * stagnation pattern judge progress from these reports with `hasPhaseProgress`.
 */
export const PhaseProgress = Type.Object(
  {
    tasks_count: Type.Optional(Type.Integer({ minimum: 0, description: 'planning: tasks, decisions and architecture elements defined so far.' })),
    files_modified: Type.Optional(Type.Integer({ minimum: 0, description: 'implementation: files changed in this iteration.' })),
    lines_added: Type.Optional(Type.Integer({ minimum: 0, description: 'implementation: lines of code written so far.' })),
    tests_passed_delta: Type.Optional(Type.Integer({ description: 'implementation: change in passing tests in this iteration.' })),
    findings_resolved: Type.Optional(Type.Integer({ minimum: 0, description: 'review: findings addressed in this iteration.' })),
    new_findings: Type.Optional(Type.Integer({ minimum: 0, description: 'review: findings detected in this iteration.' })),
    tests_passed: Type.Optional(Type.Integer({ minimum: 0, description: 'testing: passing tests so far.' })),
    failures_reduced: Type.Optional(Type.Integer({ minimum: 0, description: 'testing: failures fixed in this iteration.' })),
    deployment_stage: Type.Optional(Type.String({ maxLength: 128, description: 'deployment: the stage reached.' })),
    health_score: Type.Optional(Type.Number({ description: 'deployment: health of the deployed system.' })),
  },
  { description: 'Progress made in one iteration, per the per-phase definitions of seed 002 §2.' },
);
export type PhaseProgress = Static<typeof PhaseProgress>;

/**
 * Whether an iteration made progress, per phase (seed 002 §2): planning defines more tasks;
 * implementation modifies files, adds lines or makes tests pass; review resolves or finds findings;
 * testing passes more tests or reduces failures; deployment reaches a new stage or better health.
 * `previous` is the last report of the same phase. Without a phase nothing counts as progress.
 */
export function hasPhaseProgress(phase: Phase | undefined, current: PhaseProgress, previous: PhaseProgress | undefined): boolean {
  switch (phase) {
    case 'planning':
      return (current.tasks_count ?? 0) > (previous?.tasks_count ?? 0);
    case 'implementation':
      return (
        (current.files_modified ?? 0) > 0 ||
        (current.lines_added ?? 0) > (previous?.lines_added ?? 0) ||
        (current.tests_passed_delta ?? 0) > 0
      );
    case 'review':
      return (current.findings_resolved ?? 0) > 0 || (current.new_findings ?? 0) > 0;
    case 'testing':
      return (current.tests_passed ?? 0) > (previous?.tests_passed ?? 0) || (current.failures_reduced ?? 0) > 0;
    case 'deployment':
      return (
        current.deployment_stage !== previous?.deployment_stage ||
        (current.health_score ?? 0) > (previous?.health_score ?? 0)
      );
    default:
      return false;
  }
}
