import type { InterventionType, Severity, PatternType } from '@warden/contracts';

export type StrategyType = 'progressive' | 'pattern_specific' | 'custom';

/** Limits a session works within; throttling shrinks them. All optional: only known limits are reduced. */
export interface SessionLimits {
  max_file_operations?: number;
  max_memory_mb?: number;
  max_tokens?: number;
  max_execution_time_ms?: number;
  batch_size?: number;
  max_iterations?: number;
  max_cost_usd?: number;
}

/**
 * The intervention controller's settings: the seed's configuration file (seed 000 "Intervention
 * Configuration") with its values as defaults, plus the few figures the seed leaves implicit (marked).
 */
export interface InterventionSettings {
  enabled: boolean;
  max_interventions_per_execution: number;
  intervention_cooldown_seconds: number;
  /** Implicit in the seed (its `:timer.minutes(5)`): how far back the history counts for escalation. */
  history_window_seconds: number;
  soft_correction: {
    enabled: boolean;
    /** Soft corrections per execution; after that the issue gets context reinforcement or more. */
    max_attempts: number;
    /** YAML or JSON file of prompt templates overriding the built-in texts (see prompts.ts). */
    custom_prompts_path: string | null;
  };
  context_reinforcement: {
    enabled: boolean;
    reinforcement_strength: 'light' | 'medium' | 'strong';
    include_examples: boolean;
  };
  resource_throttling: {
    enabled: boolean;
    /** moderate for growth > 1.2, high (the seed's 0.7) for > 1.5, aggressive for > 2.0, severe for a critical issue. */
    reduction_factors: { moderate: number; high: number; aggressive: number; severe: number };
    metrics_window_seconds: number;
    /** Implicit in the seed (its state.resource_limits): a session's limits before any throttling. */
    default_limits: SessionLimits;
  };
  checkpoint_rollback: {
    enabled: boolean;
    /** A rollback goes back at most this many checkpoints from the newest. */
    max_rollback_depth: number;
    checkpoint_retention_minutes: number;
    safe_checkpoint_criteria: { min_success_rate: number; no_errors_duration_seconds: number };
  };
  emergency_stop: {
    enabled: boolean;
    /**
     * The least severity of an issue that may stop the session. Below it, escalation ends at the strongest
     * milder step (a rollback): a stuck or wandering agent is corrected, not stopped.
     */
    min_severity: Severity;
    auto_cleanup: boolean;
    /** Notifiers by name: `log` writes the incident to the service log, `webhook` posts it to `webhook.url`. */
    notification_channels: string[];
    preserve_incident_data_days: number;
    webhook: { url: string | null; timeout_ms: number; retries: number; backoff_ms: number };
  };
  strategy: {
    type: StrategyType;
    /** At or above: the intervention worked, and the next one may be milder. */
    effectiveness_threshold: number;
    /** How long after an intervention what the agent does counts toward its effectiveness. */
    escalation_delay_seconds: number;
    /** Implicit in the seed: outcomes after an intervention that settle its effectiveness early. */
    effectiveness_window_actions: number;
    /** The seed's `escalation * 0.3`: how much each ineffective intervention on the issue adds to its score. */
    escalation_weight: number;
  };
  /** Custom intervention handlers (the seed's register_intervention): module paths, each exporting a handler. */
  custom_handlers: string[];
}

export const PROGRESSION: readonly InterventionType[] = [
  'soft_correction',
  'context_reinforcement',
  'resource_throttling',
  'checkpoint_rollback',
  'emergency_stop',
];

/** The seed's pattern-specific ladders; `default` covers the other types (the seed names it without a value). */
export const PATTERN_INTERVENTIONS: Partial<Record<PatternType, readonly InterventionType[]>> & { default: readonly InterventionType[] } = {
  repetitive_errors: ['soft_correction', 'context_reinforcement', 'checkpoint_rollback'],
  scope_creep: ['context_reinforcement', 'resource_throttling', 'emergency_stop'],
  resource_spiral: ['resource_throttling', 'checkpoint_rollback', 'emergency_stop'],
  goal_drift: ['soft_correction', 'context_reinforcement', 'checkpoint_rollback'],
  hallucination: ['context_reinforcement', 'checkpoint_rollback', 'emergency_stop'],
  default: ['soft_correction', 'context_reinforcement', 'resource_throttling', 'emergency_stop'],
};

/** Every default, in one place (deploy/intervention-controller/interventions.yaml repeats them). */
export const DEFAULT_INTERVENTION_SETTINGS: InterventionSettings = {
  enabled: true,
  max_interventions_per_execution: 10,
  intervention_cooldown_seconds: 30,
  history_window_seconds: 300,
  soft_correction: { enabled: true, max_attempts: 3, custom_prompts_path: null },
  context_reinforcement: { enabled: true, reinforcement_strength: 'medium', include_examples: true },
  resource_throttling: {
    enabled: true,
    reduction_factors: { moderate: 0.85, high: 0.7, aggressive: 0.5, severe: 0.25 },
    metrics_window_seconds: 60,
    // max_tokens counts the tokens a throttled session newly reads or writes (not its cached context, which
    // a coding agent re-reads every turn and re-caches after a pause): a Claude Code turn adds 500-10,000. 200,000 ended ordinary
    // sessions within thirty turns of a throttle; a million is a budget for the rest of the work.
    default_limits: { max_file_operations: 1000, max_tokens: 1_000_000, batch_size: 100, max_iterations: 50, max_cost_usd: 50 },
  },
  checkpoint_rollback: {
    enabled: true,
    max_rollback_depth: 3,
    checkpoint_retention_minutes: 30,
    safe_checkpoint_criteria: { min_success_rate: 0.8, no_errors_duration_seconds: 60 },
  },
  emergency_stop: {
    enabled: true,
    // The seed stops at any severity once escalation reaches the top: on real sessions that stopped ordinary
    // work whose blocked actions had already been prevented. Only a critical issue is an emergency.
    min_severity: 'critical',
    auto_cleanup: false,
    notification_channels: ['log'],
    preserve_incident_data_days: 30,
    webhook: { url: null, timeout_ms: 5000, retries: 3, backoff_ms: 500 },
  },
  strategy: { type: 'progressive', effectiveness_threshold: 0.6, escalation_delay_seconds: 120, effectiveness_window_actions: 5, escalation_weight: 0.3 },
  custom_handlers: [],
};
