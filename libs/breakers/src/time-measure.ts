import type { Phase } from '@warden/contracts';
import type { TimeSettings } from './breaker-settings.js';
import { phaseKey } from './iteration-measure.js';
import { levelOf, minutes, mostSevere, type Measurement } from './measurement.js';

export interface TimeSnapshot {
  /** When the session started, epoch ms. */
  started_at: number;
  /** When the current phase started; none before the first phase-start event. */
  phase_started_at?: number;
  /** The session's working time so far: the gaps between its events, each counted up to the idle gap. */
  active_ms?: number;
  /** The session's last event, epoch ms. */
  last_event_at?: number;
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

  /** An event of the session: the time since the last one counts as work, up to the idle gap. */
  touch(at: number): void {
    const last = this.snapshot.last_event_at ?? this.snapshot.started_at;
    if (at <= last) return;
    this.snapshot.active_ms = this.workedBy(at);
    this.snapshot.last_event_at = at;
  }

  /**
   * The session's time at `now` against its total: wall time since it started (the seed's reading, with
   * `idle_gap_ms` 0), or its working time, where a silence longer than the idle gap — the agent waiting
   * for its user, the laptop closed overnight — counts only up to the gap.
   */
  private elapsed(now: number): number {
    return this.settings.idle_gap_ms > 0 ? this.workedBy(now) : Math.max(0, now - this.snapshot.started_at);
  }

  private workedBy(now: number): number {
    const last = this.snapshot.last_event_at ?? this.snapshot.started_at;
    const gap = Math.max(0, now - last);
    return (this.snapshot.active_ms ?? 0) + (this.settings.idle_gap_ms > 0 ? Math.min(gap, this.settings.idle_gap_ms) : gap);
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
    const elapsed = this.elapsed(now);
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
    if (this.settings.idle_gap_ms > 0) {
      // Working time grows only until the idle gap after the last event: a deadline beyond it needs an event first.
      const last = this.snapshot.last_event_at ?? this.snapshot.started_at;
      const worked = this.snapshot.active_ms ?? 0;
      for (const at of [Math.ceil(timeouts.total * warning), timeouts.total]) if (at - worked <= this.settings.idle_gap_ms) moments.push(last + Math.max(0, at - worked));
    } else moments.push(this.snapshot.started_at + Math.ceil(timeouts.total * warning), this.snapshot.started_at + timeouts.total);
    const future = moments.filter((m) => m > now);
    return future.length ? Math.min(...future) : undefined;
  }

  /** Restarts both clocks (an operator reset). */
  reset(now: number): void {
    this.snapshot.started_at = now;
    this.snapshot.active_ms = 0;
    this.snapshot.last_event_at = now;
    if (this.snapshot.phase_started_at !== undefined) this.snapshot.phase_started_at = now;
  }
}
