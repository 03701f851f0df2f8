import type { BreakerKind, Phase } from '@warden/contracts';
import type { ModelPrice } from '@warden/pricing';

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
  /**
   * What an iteration is: `checks` counts the actions that run a check (tests, a build, a linter, a
   * deployment), one try at making the phase pass; `actions` counts every proposed action,
   * as the seed does for a pipeline whose steps are its iterations.
   */
  counts: 'checks' | 'actions';
  /** Iterations allowed per phase (seed 002 §2.1). */
  limits: PhaseLimits;
  /** Consecutive progress reports without progress that trip the breaker (seed: 3). */
  stagnation_threshold: number;
  /** Failures in a row of the same action with the same error that trip the breaker, holding back that action; 0 = off (the seed's behaviour). */
  repeated_failures: number;
}


export interface CostSettings extends CircuitSettings {
  budgets: {
    /** USD per phase of a run; `default` for a session without a phase. */
    per_phase: PhaseLimits;
    per_run: number;
    /** USD per agent in any rolling 24 hours, across all its sessions. */
    per_day: number;
  };
  /**
   * Model prices per 1,000 tokens, laid over Warden's price table (@warden/pricing). A model in neither
   * is priced by its family or as the fallback model, and reported once per session (breaker.error
   * unknown_model): never a zero.
   */
  pricing: Record<string, ModelPrice>;
  /** Width of the buckets the rolling day is kept in: the day's edge is exact to this. */
  day_bucket_ms: number;
}

export interface TimeSettings extends CircuitSettings {
  /** Per-phase timeouts measured from the phase-start event, and the session's total (seed 002 §4). */
  timeouts: Record<Phase | 'default' | 'total', number>;
  /**
   * The total counts working time: a silence between two events of the session counts only up to this
   * (ms). 0 counts wall time since the session started, as the seed does.
   */
  idle_gap_ms: number;
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

/**
 * Every default of the breaker, in one place: the seed's values (seed 002 §2-5) plus probing and backoff.
 * A configuration file overrides any part of it (see config.ts).
 */
export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = {
  iteration: {
    ...CIRCUIT_DEFAULTS,
    warning: 0.8,
    // A tool-calling agent reads and edits many times per try; counting every call, a declared testing phase
    // (limit 5) ended at the fifth file the agent read. Its tries are the checks it runs.
    counts: 'checks',
    // `default` counts the iterations of a session that declares no phase (Claude Code, SWE-agent): the seed's
    // 10 is a pipeline phase's budget, and a productive 200-call session would trip on its 11th action.
    // A runaway is caught by repetition (repeated_failures, stagnation) instead; 1,000 stays as a backstop.
    limits: { default: 1000, planning: 20, implementation: 50, review: 10, testing: 5, deployment: 3 },
    stagnation_threshold: 3,
    repeated_failures: 5,
  },
  cost: {
    ...CIRCUIT_DEFAULTS,
    warning: 0.8,
    budgets: {
      // `default` is the budget of a session that declares no phase: the seed's $5 is one pipeline phase,
      // less than an ordinary hour of a coding agent; such a session is held to the run's budget instead.
      per_phase: { default: 50, planning: 5, implementation: 10, review: 2, testing: 3, deployment: 2 },
      per_run: 50,
      per_day: 200,
    },
    // The seed's five models and more are in Warden's price table; this adds to or changes it.
    pricing: {},
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
      // The seed's two hours fit one pipeline run; an interactive coding session is worked on for a day.
      // Counted as working time (idle_gap_ms), eight hours of it is a runaway, not a long task.
      total: 8 * 60 * MINUTE,
    },
    // The seed counts wall time, so an interactive session that waited for its user over lunch, or was
    // resumed the next day, trips at once; a gap over 10 minutes is waiting, not work.
    idle_gap_ms: 10 * MINUTE,
  },
  error_rate: {
    ...CIRCUIT_DEFAULTS,
    // The seed's warning for this breaker is a rate (thresholds.warning); this fraction is not used.
    warning: 0.4,
    window_ms: 5 * MINUTE,
    // The seed's 10 % / 25 % suit API calls. A coding agent's failing commands are its work: tests that
    // fail before the fix, a grep that finds nothing, a reproduction of the bug. Ordinary real sessions
    // reach 30-40 % in a five-minute window; failing most of what it tries is the runaway.
    thresholds: { warning: 0.35, critical: 0.6 },
    min_events: 12,
    max_events: 1000,
  },
};
