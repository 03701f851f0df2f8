import { DEFAULT_BREAKER_SETTINGS, type BreakerSettings } from './breaker-settings.js';

/**
 * The seed's values (seed 002 §2-5) where Warden's defaults differ for real agents: its tests run on them.
 * Why each default differs is said beside it in breaker-settings.ts.
 */
export function seedSettings(): BreakerSettings {
  const s = structuredClone(DEFAULT_BREAKER_SETTINGS);
  s.iteration.counts = 'actions';
  s.iteration.limits.default = 10;
  s.cost.budgets.per_phase.default = 5;
  s.time.timeouts.total = 120 * 60_000;
  s.time.idle_gap_ms = 0;
  s.error_rate.thresholds = { warning: 0.1, critical: 0.25 };
  s.error_rate.min_events = 10;
  s.iteration.repeated_failures = 0;
  return s;
}
