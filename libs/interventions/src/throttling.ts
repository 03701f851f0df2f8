import type { Issue } from './issue.js';
import type { InterventionSettings, SessionLimits } from './intervention-settings.js';

export interface Throttle {
  limits: SessionLimits;
  /** The factor each kind of limit was multiplied by (1 = unchanged). */
  factors: { iterations: number; cost: number; tokens: number; file_operations: number; memory: number; time: number };
  /** The growth rates read from the issue, by resource; absent when the issue did not report one. */
  growth: Partial<Record<'file_operations' | 'tokens' | 'cost' | 'memory' | 'time' | 'processes', number>>;
}

type Factors = InterventionSettings['resource_throttling']['reduction_factors'];

/**
 * The seed's reduce_limit: growth above 2.0 halves a limit (aggressive), above 1.5 takes 30% off
 * (high), above 1.2 takes 15% off (moderate), otherwise leaves it.
 */
export function reductionFactor(growth: number | undefined, factors: Factors): number {
  if (growth === undefined || !Number.isFinite(growth)) return 1;
  if (growth > 2.0) return factors.aggressive;
  if (growth > 1.5) return factors.high;
  if (growth > 1.2) return factors.moderate;
  return 1;
}

const GROWTH_KEYS: Record<keyof Throttle['growth'], string[]> = {
  file_operations: ['file_operations_per_min', 'file_operation_growth', 'file_operations'],
  tokens: ['tokens_per_min', 'token_usage_growth', 'tokens'],
  cost: ['cost_usd_per_min', 'cost_growth', 'cost'],
  memory: ['memory_mb', 'memory_growth', 'memory'],
  time: ['time_growth', 'execution_time'],
  processes: ['background_processes', 'processes'],
};

/**
 * A growth rate (later ÷ earlier) from whatever the detector reported: a number is taken as the rate;
 * an object gives it as `ratio`/`growth`, or as `current` over `previous` (or `baseline`). Anything
 * else is no figure.
 */
export function growthRate(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  for (const key of ['ratio', 'growth', 'rate']) if (typeof v[key] === 'number') return growthRate(v[key]);
  const current = v['current'];
  const previous = v['previous'] ?? v['baseline'];
  if (typeof current === 'number' && typeof previous === 'number') return previous > 0 ? current / previous : current > 0 ? Infinity : 1;
  return undefined;
}

function readGrowth(details: Record<string, unknown>): Throttle['growth'] {
  const source = details['growth'] && typeof details['growth'] === 'object' ? (details['growth'] as Record<string, unknown>) : details;
  const growth: Throttle['growth'] = {};
  for (const [resource, keys] of Object.entries(GROWTH_KEYS) as [keyof Throttle['growth'], string[]][]) {
    for (const key of keys) {
      const rate = growthRate(source[key]);
      if (rate !== undefined) {
        growth[resource] = rate;
        break;
      }
    }
  }
  return growth;
}

const scale = (value: number | undefined, factor: number, integer: boolean, min: number): number | undefined => {
  if (value === undefined) return undefined;
  const scaled = value * factor;
  return Math.max(min, integer ? Math.round(scaled) : Math.round(scaled * 100) / 100);
};

/**
 * New limits for a session from its current ones and the growth the issue reports (seed 000 §3).
 * Without growth figures (or for an issue that is not a resource spiral) every limit is reduced by the
 * factor the issue's severity gives: moderate for low and medium, aggressive for high. A critical
 * issue is reduced by the severe factor whatever the figures. Actions per phase follow the strongest
 * reduction; the batch size halves, as in the seed.
 */
export function computeThrottle(current: SessionLimits, issue: Issue, factors: Factors): Throttle {
  const growth = readGrowth(issue.details);
  const measured = Object.keys(growth).length > 0;
  const fallback = issue.severity === 'high' ? factors.aggressive : factors.moderate;
  const pick = (rate: number | undefined) => {
    if (issue.severity === 'critical') return factors.severe;
    if (!measured) return fallback;
    return reductionFactor(rate, factors);
  };
  const f = {
    file_operations: pick(growth.file_operations),
    tokens: pick(growth.tokens),
    cost: pick(growth.cost ?? growth.tokens),
    memory: pick(growth.memory),
    time: pick(growth.time),
    iterations: 1,
  };
  // Background processes have no limit of their own here: they count toward the actions allowed.
  f.iterations = Math.min(f.file_operations, f.tokens, f.cost, f.memory, f.time, pick(growth.processes));
  const limits: SessionLimits = {};
  const set = <K extends keyof SessionLimits>(key: K, value: number | undefined) => {
    if (value !== undefined) limits[key] = value;
  };
  set('max_file_operations', scale(current.max_file_operations, f.file_operations, true, 1));
  set('max_memory_mb', scale(current.max_memory_mb, f.memory, true, 1));
  set('max_tokens', scale(current.max_tokens, f.tokens, true, 1));
  set('max_execution_time_ms', scale(current.max_execution_time_ms, f.time, true, 1));
  set('batch_size', current.batch_size === undefined ? undefined : Math.max(1, Math.floor(current.batch_size / 2)));
  set('max_iterations', scale(current.max_iterations, f.iterations, true, 1));
  set('max_cost_usd', scale(current.max_cost_usd, f.cost, false, 0.01));
  return { limits, factors: f, growth };
}
