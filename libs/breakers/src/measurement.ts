import type { BreakerKind, Phase } from '@warden/contracts';

/** ok: under the warning fraction; warning: past it; trip: the threshold is reached. */
export type MeasurementLevel = 'ok' | 'warning' | 'trip';

/** One breaker's reading of a session at one moment (the seed's BreakerResult). */
export interface Measurement {
  breaker: BreakerKind;
  level: MeasurementLevel;
  /** Machine-readable, as in the seed: MAX_ITERATIONS_EXCEEDED, RUN_BUDGET_WARNING, … */
  reason?: string;
  current: number;
  threshold: number;
  phase?: Phase;
  /** Written for the agent to read. */
  suggestion?: string;
  /** The one action a trip holds back, when the trip is about that action repeating (not the session). */
  repeated_action?: { tool: string; target: string };
}

const RANK: Record<MeasurementLevel, number> = { ok: 0, warning: 1, trip: 2 };

/** The most severe of several readings; the first one wins a tie, so callers list them in the seed's order. */
export function mostSevere(measurements: readonly Measurement[]): Measurement {
  let worst = measurements[0]!;
  for (const m of measurements) if (RANK[m.level] > RANK[worst.level]) worst = m;
  return worst;
}

/** `level` for a value against a threshold: trip at or past it, warning at or past `warning` of it. */
export function levelOf(current: number, threshold: number, warningFraction: number): MeasurementLevel {
  if (current >= threshold) return 'trip';
  if (current >= threshold * warningFraction) return 'warning';
  return 'ok';
}

export const usd = (value: number) => `$${value.toFixed(2)}`;
export const minutes = (ms: number) => `${Math.round((ms / 60_000) * 10) / 10} minute${ms === 60_000 ? '' : 's'}`;
