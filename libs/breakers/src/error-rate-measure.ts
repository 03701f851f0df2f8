import type { ErrorRateSettings } from './breaker-settings.js';
import type { Measurement } from './measurement.js';

export interface ErrorWindowSnapshot {
  /** [epoch ms, 1 for an error or 0 for a success], oldest first. */
  events: [number, 0 | 1][];
}

/**
 * The error-rate breaker's measure (seed 002 §5): the share of failed outcomes in a sliding time
 * window, against a warning and a critical rate, once the window holds enough outcomes to mean something.
 */
export class ErrorRateMeasure {
  constructor(
    private readonly settings: ErrorRateSettings,
    readonly snapshot: ErrorWindowSnapshot,
  ) {}

  static empty(): ErrorWindowSnapshot {
    return { events: [] };
  }

  record(at: number, failed: boolean): void {
    const events = this.snapshot.events;
    events.push([at, failed ? 1 : 0]);
    // Outcomes arrive in order almost always; a late one is put in its place.
    if (events.length > 1 && events[events.length - 2]![0] > at) events.sort((a, b) => a[0] - b[0]);
    if (events.length > this.settings.max_events) events.splice(0, events.length - this.settings.max_events);
  }

  evaluate(now: number): Measurement {
    const { thresholds, window_ms, min_events } = this.settings;
    const from = now - window_ms;
    const events = this.snapshot.events;
    let drop = 0;
    while (drop < events.length && events[drop]![0] < from) drop++;
    if (drop) events.splice(0, drop);
    const errors = events.reduce((sum, [, failed]) => sum + failed, 0);
    const rate = events.length ? errors / events.length : 0;
    const base = { breaker: 'error_rate' as const, current: rate };
    if (events.length < min_events) return { ...base, level: 'ok', threshold: thresholds.critical };
    const percent = `${(rate * 100).toFixed(1)}%`;
    if (rate >= thresholds.critical) {
      return { ...base, level: 'trip', threshold: thresholds.critical, reason: 'ERROR_RATE_CRITICAL', suggestion: `Error rate ${percent} exceeds critical threshold. Halting operations.` };
    }
    if (rate >= thresholds.warning) {
      return { ...base, level: 'warning', threshold: thresholds.warning, reason: 'ERROR_RATE_WARNING', suggestion: `Error rate ${percent} above warning threshold. Monitoring closely.` };
    }
    return { ...base, level: 'ok', threshold: thresholds.critical };
  }

  reset(): void {
    this.snapshot.events = [];
  }
}
