import type { RecordedAction, RecordedSession } from './recorded-session.js';

/** Gap assumed between two recorded actions that carry no time. */
export const STEP_MS = 5_000;

/** When a recording carries no time at all, its clock starts here. */
const NO_TIME_START = Date.UTC(2026, 0, 1);

/** A recorded time in epoch ms (NaN when there is none). */
export const timeOf = (iso: string | undefined) => (iso ? Date.parse(iso) : NaN);

/**
 * The recording's own clock: when each of its events happened, as `warden eval` judges them and `warden
 * replay --timing recorded` stamps them (so that the suite reads the same times). A recorded time is
 * kept unless it goes back; an action without one comes STEP_MS after the event before it, an outcome
 * its duration after its action. The session is declared just before its first recorded action.
 */
export class RecordingClock {
  readonly declaredAt: number;
  private previous: number;

  constructor(recording: RecordedSession) {
    const first = recording.actions.map((a) => timeOf(a.at)).find(Number.isFinite);
    this.declaredAt = first !== undefined ? first - 1 : NO_TIME_START;
    this.previous = this.declaredAt;
  }

  /** When the action was proposed. */
  action(recorded: RecordedAction): number {
    const at = timeOf(recorded.at);
    this.previous = Number.isFinite(at) && at >= this.previous ? at : this.previous + STEP_MS;
    return this.previous;
  }

  /** When the action's outcome came (an action that ran and has one). */
  outcome(recorded: RecordedAction): number {
    const at = timeOf(recorded.outcome?.at);
    this.previous = Number.isFinite(at) && at >= this.previous ? at : this.previous + (recorded.outcome?.durationMs ?? 0);
    return this.previous;
  }
}

/** How long the recording spans, from its declaration to its last recorded time (0 when it carries none). */
export function recordedSpanMs(recording: RecordedSession): number {
  const times = recording.actions.flatMap((a) => [timeOf(a.at), timeOf(a.outcome?.at)]).filter(Number.isFinite);
  return times.length ? Math.max(...times) - Math.min(...times) : 0;
}

/**
 * What runs on the suite's clock whatever the replay stamps: it reads these on the time the replay
 * took, `warden eval` on the recording's.
 */
export const SUITE_CLOCK_PARTS = "the reviewer's memory of recent patterns and the breakers' time budget and cool-downs";
