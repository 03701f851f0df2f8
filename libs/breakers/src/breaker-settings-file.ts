import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { isSettingsMapping, mergeSettings, settingsSection } from '@warden/settings';
import { DEFAULT_BREAKER_SETTINGS, type BreakerSettings } from './breaker-settings.js';

export class BreakerSettingsError extends Error {}

const Positive = Type.Number({ exclusiveMinimum: 0 });
const Fraction = Type.Number({ minimum: 0, maximum: 1 });
const Duration = Type.Integer({ minimum: 1 });
const PhaseNumbers = <T extends TSchema>(value: T) =>
  Type.Object(
    { default: value, planning: value, implementation: value, review: value, testing: value, deployment: value },
    { additionalProperties: false },
  );

const circuit = {
  enabled: Type.Boolean(),
  mode: Type.Enum(['enforce', 'metrics_only']),
  warning: Fraction,
  reset_after_ms: Duration,
  half_open_probes: Type.Integer({ minimum: 1 }),
  backoff_multiplier: Type.Number({ minimum: 1 }),
  max_reset_after_ms: Duration,
};

const BreakerSettingsSchema = Type.Object(
  {
    iteration: Type.Object(
      { ...circuit, counts: Type.Enum(['checks', 'actions']), limits: PhaseNumbers(Type.Integer({ minimum: 1 })), stagnation_threshold: Type.Integer({ minimum: 1 }), repeated_failures: Type.Union([Type.Literal(0), Type.Integer({ minimum: 2 })]) },
      { additionalProperties: false },
    ),
    cost: Type.Object(
      {
        ...circuit,
        budgets: Type.Object({ per_phase: PhaseNumbers(Positive), per_run: Positive, per_day: Positive }, { additionalProperties: false }),
        pricing: Type.Record(
          Type.String({ minLength: 1 }),
          Type.Object(
            { input: Type.Number({ minimum: 0 }), output: Type.Number({ minimum: 0 }), cache_read: Type.Optional(Type.Number({ minimum: 0 })), cache_write: Type.Optional(Type.Number({ minimum: 0 })) },
            { additionalProperties: false },
          ),
        ),
        day_bucket_ms: Type.Integer({ minimum: 1000, maximum: 3_600_000 }),
      },
      { additionalProperties: false },
    ),
    time: Type.Object(
      {
        ...circuit,
        timeouts: Type.Object(
          {
            default: Duration,
            planning: Duration,
            implementation: Duration,
            review: Duration,
            testing: Duration,
            deployment: Duration,
            total: Duration,
          },
          { additionalProperties: false },
        ),
        idle_gap_ms: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    error_rate: Type.Object(
      {
        ...circuit,
        window_ms: Duration,
        thresholds: Type.Object({ warning: Fraction, critical: Fraction }, { additionalProperties: false }),
        min_events: Type.Integer({ minimum: 1 }),
        max_events: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const validator = Compile(BreakerSettingsSchema);


/**
 * Breaker settings from a configuration document (parsed from YAML or JSON; optionally under a
 * top-level `breakers:` key) over DEFAULT_BREAKER_SETTINGS, by the settings merge rule (@warden/settings). Unknown keys, wrong types and values out of
 * range are errors naming the setting, so a typo never silently leaves a default in place. The pricing
 * table merges model by model: a file adds or changes models and keeps the seed's.
 */
export function resolveBreakerSettings(document: unknown = {}): BreakerSettings {
  const root = settingsSection(document, 'breakers');
  if (!isSettingsMapping(root)) throw new BreakerSettingsError('breaker configuration must be a mapping');
  const settings = mergeSettings(DEFAULT_BREAKER_SETTINGS, root);
  if (!validator.Check(settings)) {
    const errors = [...validator.Errors(settings)].slice(0, 5).map((e) => `${e.instancePath || '/'}: ${e.message}`);
    throw new BreakerSettingsError(`invalid breaker configuration: ${errors.join('; ')}`);
  }
  for (const kind of ['iteration', 'cost', 'time', 'error_rate'] as const) {
    if (settings[kind].max_reset_after_ms < settings[kind].reset_after_ms) {
      throw new BreakerSettingsError(`${kind}.max_reset_after_ms must not be shorter than ${kind}.reset_after_ms`);
    }
  }
  if (settings.error_rate.thresholds.warning > settings.error_rate.thresholds.critical) {
    throw new BreakerSettingsError('error_rate.thresholds.warning must not exceed error_rate.thresholds.critical');
  }
  return settings;
}
