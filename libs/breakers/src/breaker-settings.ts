import type { BreakerKind, Phase } from '@warden/contracts';

/** How a breaker acts on a trip: `enforce` blocks the session's actions; `metrics_only` reports and counts but blocks nothing. */
export type BreakerMode = 'enforce' | 'metrics_only';

/** What every breaker shares: the seed's BreakerConfig plus HALF_OPEN probing with backoff. */
export interface CircuitSettings {
  enabled: boolean;
  mode: BreakerMode;
  /** Fraction of the threshold at which a warning is raised (0-1). */
  warning: number;
  /** How long a breaker stays OPEN before it lets probes through (HALF_OPEN). */
  reset_after_ms: number;
  /** Probe events that must pass in HALF_OPEN before the breaker closes. */
  half_open_probes: number;
  /** Each consecutive OPEN period lasts this many times longer than the last... */
  backoff_multiplier: number;
  /** ...up to this. */
  max_reset_after_ms: number;
}

export type PhaseLimits = Record<Phase | 'default', number>;

export interface IterationSettings extends CircuitSettings {
  /** Actions allowed per phase (seed 002 §2.1). */
  limits: PhaseLimits;
  /** Consecutive progress reports without progress that trip the breaker (seed: 3). */
  stagnation_threshold: number;
}

export interface ModelPrice {
  /** USD per 1,000 prompt tokens. */
  input: number;
  /** USD per 1,000 completion tokens. */
  output: number;
}

export interface CostSettings extends CircuitSettings {
  budgets: {
    /** USD per phase of a run; `default` for a session without a phase. */
    per_phase: PhaseLimits;
    per_run: number;
    /** USD per agent in any rolling 24 hours, across all its sessions. */
    per_day: number;
  };
  /** Model prices per 1,000 tokens. An outcome naming a model missing here is an error event, not a zero. */
  pricing: Record<string, ModelPrice>;
  /** Width of the buckets the rolling day is kept in: the day's edge is exact to this. */
  day_bucket_ms: number;
}

export interface TimeSettings extends CircuitSettings {
  /** Per-phase timeouts measured from the phase-start event, and the session's total (seed 002 §4). */
  timeouts: Record<Phase | 'default' | 'total', number>;
}

export interface ErrorRateSettings extends CircuitSettings {
  window_ms: number;
  thresholds: { warning: number; critical: number };
  /** Outcomes the window must hold before a rate counts, so one error in one call does not trip. */
  min_events: number;
  /** Most outcomes kept in the window (seed: a circular buffer of 1000). */
  max_events: number;
}

export interface BreakerSettings {
  iteration: IterationSettings;
  cost: CostSettings;
  time: TimeSettings;
  error_rate: ErrorRateSettings;
}

export type SettingsOf<K extends BreakerKind> = BreakerSettings[K];

const MINUTE = 60_000;

const CIRCUIT_DEFAULTS = {
  enabled: true,
  mode: 'enforce',
  reset_after_ms: 5 * MINUTE,
  half_open_probes: 3,
  backoff_multiplier: 2,
  max_reset_after_ms: 60 * MINUTE,
} as const satisfies Omit<CircuitSettings, 'warning'>;

/** The seed's models and prices per 1,000 tokens (seed 002 §3.1). */
export const DEFAULT_MODEL_PRICING: Record<string, ModelPrice> = {
  'claude-sonnet-4-5-20250929': { input: 0.003, output: 0.015 },
  'claude-haiku-4-5-20251001': { input: 0.00025, output: 0.00125 },
  'claude-opus-4-6': { input: 0.015, output: 0.075 },
  'gpt-4o': { input: 0.0025, output: 0.01 },
  'gpt-4o-mini': { input: 0.00015, output: 0.0006 },
};

/**
 * Every default of the breaker, in one place: the seed's values (seed 002 §2-5) plus probing and backoff.
 * A configuration file overrides any part of it (see config.ts).
 */
export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = {
  iteration: {
    ...CIRCUIT_DEFAULTS,
    warning: 0.8,
    limits: { default: 10, planning: 20, implementation: 50, review: 10, testing: 5, deployment: 3 },
    stagnation_threshold: 3,
  },
  cost: {
    ...CIRCUIT_DEFAULTS,
    warning: 0.8,
    budgets: {
      per_phase: { default: 5, planning: 5, implementation: 10, review: 2, testing: 3, deployment: 2 },
      per_run: 50,
      per_day: 200,
    },
    pricing: DEFAULT_MODEL_PRICING,
    day_bucket_ms: 5 * MINUTE,
  },
  time: {
    ...CIRCUIT_DEFAULTS,
    warning: 0.9,
    timeouts: {
      default: 60 * MINUTE,
      planning: 30 * MINUTE,
      implementation: 60 * MINUTE,
      review: 30 * MINUTE,
      testing: 20 * MINUTE,
      deployment: 15 * MINUTE,
      total: 120 * MINUTE,
    },
  },
  error_rate: {
    ...CIRCUIT_DEFAULTS,
    // The seed's warning for this breaker is a rate (thresholds.warning); this fraction is not used.
    warning: 0.4,
    window_ms: 5 * MINUTE,
    thresholds: { warning: 0.1, critical: 0.25 },
    min_events: 10,
    max_events: 1000,
  },
};
