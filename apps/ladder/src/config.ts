import type { AutomationLevel } from '@warden/contracts';
import { booleanFromEnv, ConfigurationError, integerFromEnv, loadServiceRuntime, type ServiceRuntime } from '@warden/service-bootstrap';
import { DEFAULT_LADDER_SETTINGS, type LadderSettings } from '@warden/ladder';

/**
 * The ladder's configuration: the shared service environment (HTTP port 3106 by default; see
 * loadServiceRuntime) plus, with the defaults of DEFAULT_LADDER_SETTINGS (seed 002 §7.2):
 *
 * - `LADDER_INITIAL_LEVEL` [1]: the level of an agent the ladder has not seen before (0-4).
 * - `LADDER_ALLOW_LEVEL_UP` [true]: whether agents are promoted when they meet the next level's
 *   requirements; demotions and operator commands apply either way.
 * - `LADDER_APPROVAL_ALPHA` [0.1]: weight of the newest human approval in the approval rate, in (0, 1].
 * - `LADDER_PROBATION_RUNS` [10]: runs after an automatic demotion before the agent may be promoted again.
 */
export interface LadderConfig extends ServiceRuntime {
  ladder: LadderSettings;
}

export function loadLadderConfig(env: NodeJS.ProcessEnv = process.env): LadderConfig {
  const initialLevel = integerFromEnv(env, 'LADDER_INITIAL_LEVEL', DEFAULT_LADDER_SETTINGS.initialLevel);
  if (initialLevel > 4) throw new ConfigurationError(`LADDER_INITIAL_LEVEL must be an automation level from 0 to 4 (got "${env.LADDER_INITIAL_LEVEL}")`);
  return {
    ...loadServiceRuntime('ladder', env),
    ladder: {
      ...DEFAULT_LADDER_SETTINGS,
      initialLevel: initialLevel as AutomationLevel,
      allowLevelUp: booleanFromEnv(env, 'LADDER_ALLOW_LEVEL_UP', DEFAULT_LADDER_SETTINGS.allowLevelUp),
      approvalAlpha: fractionFromEnv(env, 'LADDER_APPROVAL_ALPHA', DEFAULT_LADDER_SETTINGS.approvalAlpha),
      probationRuns: integerFromEnv(env, 'LADDER_PROBATION_RUNS', DEFAULT_LADDER_SETTINGS.probationRuns),
    },
  };
}

/** A number in (0, 1]: an alpha of 0 would freeze the approval rate for good. */
function fractionFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) throw new ConfigurationError(`${name} must be a number greater than 0 and at most 1 (got "${raw}")`);
  return value;
}
