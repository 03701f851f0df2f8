import type { SessionState } from '../session-state.js';
import type { Finding, SessionView } from './detector.js';

/**
 * Tool runs the agent's telemetry reported beyond the actions its hooks proposed before a hook is judged
 * silent: room for a few tools a hook may not be asked about, and for telemetry that overtakes proposals
 * still on their way.
 */
export const UNPROPOSED_RUNS = 5;
/** Run keys a session keeps, the newest: an exporter's retry names runs of its last few exports. */
const KEYS_KEPT = 256;
/** How long a gap must outlast the report that showed it, with no proposal meanwhile, on the agent's clock (the runs' times). */
const CONFIRM_AFTER_MS = 10_000;

/** What the agent's own telemetry said it ran, held against what its hooks proposed (`SessionState.proposed`). */
export interface ToolRunTally {
  /** Distinct tool runs reported. */
  runs: number;
  /** Keys of the latest runs (an export sent again names them again). */
  keys: string[];
  /** The latest tools reported (at most 8), for the report. */
  tools: string[];
  /** A gap was seen at this time with this many proposals: confirmed if it outlasts `CONFIRM_AFTER_MS` without one more. */
  suspect?: { at: number; proposed: number };
  /** Confirmed: the runs no proposal accounts for, when last reported. */
  silent?: { unproposed: number; since: number };
}

/**
 * Counts the tool runs of a telemetry report (each run once, whatever retries bring) and decides whether the
 * session's hook went silent: more runs than proposals by `UNPROPOSED_RUNS`, in two reports at least
 * `CONFIRM_AFTER_MS` apart with no proposal between them (a report's time: its latest run's, on the agent's
 * clock, else `at`). A proposal that comes clears the suspicion; the tally lives in the session's stored
 * state. Returns whether anything changed.
 */
export function tallyToolRuns(state: Pick<SessionState, 'proposed' | 'tool_runs'>, at: number, runs: readonly { key: string; tool: string; at?: string }[]): boolean {
  const tally = (state.tool_runs ??= { runs: 0, keys: [], tools: [] });
  const known = new Set(tally.keys);
  let added = 0;
  let latest = Number.NEGATIVE_INFINITY;
  for (const run of runs) {
    if (known.has(run.key)) continue;
    known.add(run.key);
    const ran = run.at === undefined ? Number.NaN : Date.parse(run.at);
    if (ran > latest) latest = ran;
    tally.keys.push(run.key);
    tally.tools.push(run.tool);
    tally.runs++;
    added++;
  }
  if (!added) return false;
  const reportedAt = Number.isFinite(latest) ? latest : at;
  if (tally.keys.length > KEYS_KEPT) tally.keys.splice(0, tally.keys.length - KEYS_KEPT);
  if (tally.tools.length > 8) tally.tools.splice(0, tally.tools.length - 8);
  const proposed = state.proposed ?? 0;
  const unproposed = tally.runs - proposed;
  if (unproposed < UNPROPOSED_RUNS) {
    delete tally.suspect;
    delete tally.silent;
  } else if (tally.silent || (tally.suspect && tally.suspect.proposed === proposed && reportedAt - tally.suspect.at >= CONFIRM_AFTER_MS)) {
    tally.silent = { unproposed, since: tally.silent?.since ?? reportedAt };
  } else if (!tally.suspect || tally.suspect.proposed !== proposed) {
    tally.suspect = { at: reportedAt, proposed };
  }
  return true;
}

/**
 * The agent keeps working while its hook is silent: its telemetry reports tool runs that no hook call
 * proposed (the hook removed, disabled, or failing open). High: nothing the agent does is reviewed.
 */
export function detectSilentHook(view: SessionView): Finding | undefined {
  const silent = view.state.tool_runs?.silent;
  if (!silent) return undefined;
  const tools = [...new Set(view.state.tool_runs!.tools)];
  return {
    severity: 'high',
    confidence: 0.9,
    description: `The agent's own telemetry reports ${silent.unproposed} tool runs that no hook call proposed (latest: ${tools.join(', ')}): its Warden hook is no longer called, so what it does is not reviewed. Check the agent's hook settings.`,
    evidence: [],
    details: { kind: 'silent_hook', unproposed_runs: silent.unproposed, reported_runs: view.state.tool_runs!.runs, proposed: view.state.proposed ?? 0, since: new Date(silent.since).toISOString() },
    magnitude: silent.unproposed,
  };
}
