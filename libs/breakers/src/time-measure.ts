import type { Phase } from '@warden/contracts';
import type { TimeSettings } from './breaker-settings.js';
import { phaseKey } from './iteration-measure.js';
import { levelOf, minutes, mostSevere, type Measurement } from './measurement.js';

export interface TimeSnapshot {
  /** When the session started, epoch ms. */
  started_at: number;
  /** When the current phase started; none before the first phase-start event. */
  phase_started_at?: number;
}

/**
 * The time breaker's measure (seed 002 §4): time in the phase since its start event against the
 * phase's timeout, and time since the session started against the total. Also says when the reading
 * will next change, so that a silent session is checked by a timer and still trips.
 */
export class TimeMeasure {
  constructor(
    private readonly settings: TimeSettings,
    readonly snapshot: TimeSnapshot,
  ) {}

  startPhase(at: number): void {
    this.snapshot.phase_started_at = at;
  }

  evaluate(phase: Phase | undefined, now: number): Measurement {
    const { timeouts, warning } = this.settings;
    const readings: Measurement[] = [];
    const name = phase ?? 'default';
    if (this.snapshot.phase_started_at !== undefined) {
      const elapsed = Math.max(0, now - this.snapshot.phase_started_at);
      const limit = timeouts[phaseKey(phase)];
      const level = levelOf(elapsed, limit, warning);
      const base = { breaker: 'time' as const, level, current: elapsed, threshold: limit, ...(phase ? { phase } : {}) };
      if (level === 'trip') readings.push({ ...base, reason: 'PHASE_TIMEOUT_EXCEEDED', suggestion: `Phase ${name} exceeded ${minutes(limit)} timeout.` });
      else if (level === 'warning') readings.push({ ...base, reason: 'PHASE_TIMEOUT_WARNING', suggestion: `Phase ${name} has ${Math.ceil((limit - elapsed) / 60_000)} minutes remaining.` });
      else readings.push(base);
    }
    const elapsed = Math.max(0, now - this.snapshot.started_at);
    const limit = timeouts.total;
    const level = levelOf(elapsed, limit, warning);
    const base = { breaker: 'time' as const, level, current: elapsed, threshold: limit, ...(phase ? { phase } : {}) };
    if (level === 'trip') readings.push({ ...base, reason: 'TOTAL_TIMEOUT_EXCEEDED', suggestion: `Total pipeline exceeded ${minutes(limit)} timeout.` });
    else if (level === 'warning') readings.push({ ...base, reason: 'TOTAL_TIMEOUT_WARNING', suggestion: `Pipeline has ${Math.ceil((limit - elapsed) / 60_000)} minutes remaining.` });
    else readings.push(base);
    // The seed prefers the phase's reading when both say the same.
    return mostSevere(readings);
  }

  /** The next moment after `now` at which a warning or a timeout is reached. */
  nextDeadline(phase: Phase | undefined, now: number): number | undefined {
    const { timeouts, warning } = this.settings;
    const moments: number[] = [];
    if (this.snapshot.phase_started_at !== undefined) {
      const limit = timeouts[phaseKey(phase)];
      moments.push(this.snapshot.phase_started_at + Math.ceil(limit * warning), this.snapshot.phase_started_at + limit);
    }
    moments.push(this.snapshot.started_at + Math.ceil(timeouts.total * warning), this.snapshot.started_at + timeouts.total);
    const future = moments.filter((m) => m > now);
    return future.length ? Math.min(...future) : undefined;
  }

  /** Restarts both clocks (an operator reset). */
  reset(now: number): void {
    this.snapshot.started_at = now;
    if (this.snapshot.phase_started_at !== undefined) this.snapshot.phase_started_at = now;
  }
}
