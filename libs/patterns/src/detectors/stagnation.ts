import { severityFor } from '../detector-settings.js';
import { confidenceFrom, lastIds, type Finding, type SessionView } from './detector.js';

/**
 * No progress for N iterations, judged per phase by the seed's definitions (`hasPhaseProgress`, the
 * breaker's own): the count runs as progress reports arrive and restarts with progress or a new phase.
 */
export function detectStagnation(view: SessionView): Finding | undefined {
  const phase = view.state.progress_phase;
  if (!phase) return undefined;
  const run = view.state.stagnation[phase];
  if (!run) return undefined;
  const ladder = view.settings.stagnation.severity;
  const severity = severityFor(ladder, run.count);
  if (!severity) return undefined;
  return {
    severity,
    confidence: confidenceFrom(0.7, 0.05 * (run.count - (ladder.medium ?? 3))),
    description: `${run.count} iterations in the ${phase} phase without progress; the approach is not working.`,
    evidence: lastIds(run.ids, 30),
    details: { phase, iterations_without_progress: run.count, threshold: ladder.medium ?? null, last_progress: view.state.last_progress[phase] ?? null },
    magnitude: run.count,
  };
}
