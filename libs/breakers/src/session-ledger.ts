import type { BreakerKind, PayloadOf, Phase, PhaseProgress } from '@warden/contracts';
import type { TokenUsage } from '@warden/pricing';
import type { BreakerSettings } from './breaker-settings.js';
import type { CircuitSnapshot } from './circuit.js';
import type { CostSnapshot } from './cost-measure.js';
import type { ErrorWindowSnapshot } from './error-rate-measure.js';
import type { IterationSnapshot, PhaseKey } from './iteration-measure.js';
import type { SessionUsage, ThrottleLimits } from './throttle-limits.js';
import type { TimeSnapshot } from './time-measure.js';
import type { SpendRecord } from './usage-accounting.js';

/** What the breaker publishes about a session. */
export type BreakerEventType =
  | 'breaker.tripped'
  | 'breaker.warning'
  | 'breaker.state_changed'
  | 'breaker.cost_recorded'
  | 'breaker.error'
  | 'breaker.command_applied';
export type BreakerEvent = { [T in BreakerEventType]: { type: T; payload: PayloadOf<T> } }[BreakerEventType];

/** Everything the breaker keeps about one session between events: stored in the ledger as it is. */
export interface SessionLedger {
  version: 1;
  agent_id: string;
  session_id: string;
  phase?: Phase;
  ended?: boolean;
  time: TimeSnapshot;
  iteration: IterationSnapshot;
  cost: CostSnapshot;
  errors: ErrorWindowSnapshot;
  circuits: Record<BreakerKind, CircuitSnapshot>;
  /** Warnings already published, `<breaker>:<reason>:<phase>`, so a warning is sent once per crossing. */
  warned: string[];
  /** Ids of the last messages applied, so that a redelivered one is not counted twice. */
  processed: string[];
  /**
   * Limits tightened by the intervention controller's resource throttling: the product of every
   * factor applied so far, per kind (1 or absent = the configured limits).
   */
  throttle?: { iterations: number; cost: number; caps?: ThrottleCaps } & ThrottleLimits;
  /** Tokens and file operations since the throttle's limits were last set, read against them. */
  usage?: SessionUsage;
  /** Where the session's model usage is counted from (the agent's telemetry or its transcript), and what was counted. */
  spend?: SpendRecord;
  /** The last proposed actions (id, signature, tool, target), so that an outcome finds what it is about. */
  recent?: { id: string; sig: string; tool: string; target: string; at?: number; turn?: string }[];
}

/**
 * What a throttle left the session: its budgets and iteration limits as absolute values, set from what
 * it had used when it was throttled (a factor shrinks what is left, not what is already spent).
 */
export interface ThrottleCaps {
  per_run?: number;
  per_phase?: Partial<Record<PhaseKey, number>>;
  iterations?: Partial<Record<PhaseKey, number>>;
}

/**
 * The settings with a session's throttling applied: the caps a throttle set, or, for a ledger stored
 * before caps existed, the configured limits scaled by the factors.
 */
export function throttledSettings(settings: BreakerSettings, throttle: SessionLedger['throttle']): BreakerSettings {
  if (throttle?.caps) {
    const { caps } = throttle;
    return {
      ...settings,
      iteration: { ...settings.iteration, limits: { ...settings.iteration.limits, ...caps.iterations } },
      cost: {
        ...settings.cost,
        budgets: { ...settings.cost.budgets, per_phase: { ...settings.cost.budgets.per_phase, ...caps.per_phase }, per_run: caps.per_run ?? settings.cost.budgets.per_run },
      },
    };
  }
  if (!throttle || (throttle.iterations >= 1 && throttle.cost >= 1)) return settings;
  const limits = Object.fromEntries(
    Object.entries(settings.iteration.limits).map(([phase, limit]) => [phase, Math.max(1, Math.round(limit * throttle.iterations))]),
  ) as typeof settings.iteration.limits;
  const perPhase = Object.fromEntries(
    Object.entries(settings.cost.budgets.per_phase).map(([phase, budget]) => [phase, budget * throttle.cost]),
  ) as typeof settings.cost.budgets.per_phase;
  return {
    ...settings,
    iteration: { ...settings.iteration, limits },
    cost: { ...settings.cost, budgets: { ...settings.cost.budgets, per_phase: perPhase, per_run: settings.cost.budgets.per_run * throttle.cost } },
  };
}

/** The part of an action outcome the breakers read. */
export interface OutcomeReading {
  action_id: string;
  status: 'success' | 'error';
  error?: { message: string; class?: string };
  phase?: Phase;
  model?: string;
  tokens?: TokenUsage;
  progress?: PhaseProgress;
  /** The model response the action came in, when the agent could tell it only once it ran. */
  turn?: string;
}

/** The part of a proposed action the breakers read. */
export interface ActionReading {
  action_id?: string;
  tool?: string;
  kind?: string;
  input?: Record<string, unknown>;
  turn?: string;
}

export type BreakerCommandPayload = PayloadOf<'breaker.command'>;
