import { severityFor } from '../detector-settings.js';
import { confidenceFrom, lastIds, type Finding, type SessionView } from './detector.js';

/**
 * Many identical actions, or status checks of one job however written, that all succeed and change
 * nothing — an agent polling a background job. The run is counted as outcomes arrive (see
 * SessionPatterns), so it can outgrow the count window.
 */
export function detectPollingLoop(view: SessionView): Finding | undefined {
  const run = view.state.polling;
  if (!run) return undefined;
  const ladder = view.settings.polling_loop.severity;
  const severity = severityFor(ladder, run.count);
  if (!severity) return undefined;
  const what = run.cmd ? `\`${run.cmd.slice(0, 120)}\`` : (run.tool ?? 'the same action');
  const ran = run.varied ? `The status of what ${what} looks at was checked ${run.count} times in a row, by one command or another,` : `${what} ran ${run.count} times in a row,`;
  return {
    severity,
    confidence: confidenceFrom(0.6, 0.01 * (run.count - (ladder.medium ?? 10))),
    description: `${ran} each time successfully and without changing anything; wait for the job differently or stop polling.`,
    evidence: lastIds(run.ids, 30),
    details: { repetitions: run.count, tool: run.tool ?? null, command: run.cmd ?? null, distinct_outputs: run.outputs.length },
    magnitude: run.count,
  };
}
