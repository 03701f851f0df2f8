import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { isSettingsMapping, mergeSettings, settingsSection } from '@warden/settings';
import { DEFAULT_INTERVENTION_SETTINGS, type InterventionSettings } from './intervention-settings.js';

export class InterventionSettingsError extends Error {}

const Fraction = Type.Number({ minimum: 0, maximum: 1 });
const Count = Type.Integer({ minimum: 0 });
const Seconds = Type.Number({ minimum: 0 });
const strict = { additionalProperties: false };

const Limits = Type.Object(
  {
    max_file_operations: Type.Optional(Count),
    max_memory_mb: Type.Optional(Count),
    max_tokens: Type.Optional(Count),
    max_execution_time_ms: Type.Optional(Count),
    batch_size: Type.Optional(Type.Integer({ minimum: 1 })),
    max_iterations: Type.Optional(Count),
    max_cost_usd: Type.Optional(Type.Number({ minimum: 0 })),
  },
  strict,
);

const SettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    max_interventions_per_execution: Count,
    intervention_cooldown_seconds: Seconds,
    history_window_seconds: Seconds,
    soft_correction: Type.Object(
      { enabled: Type.Boolean(), max_attempts: Count, custom_prompts_path: Type.Union([Type.String({ minLength: 1 }), Type.Null()]) },
      strict,
    ),
    context_reinforcement: Type.Object(
      { enabled: Type.Boolean(), reinforcement_strength: Type.Enum(['light', 'medium', 'strong']), include_examples: Type.Boolean() },
      strict,
    ),
    resource_throttling: Type.Object(
      {
        enabled: Type.Boolean(),
        reduction_factors: Type.Object({ moderate: Fraction, high: Fraction, aggressive: Fraction, severe: Fraction }, strict),
        metrics_window_seconds: Seconds,
        default_limits: Limits,
      },
      strict,
    ),
    checkpoint_rollback: Type.Object(
      {
        enabled: Type.Boolean(),
        max_rollback_depth: Type.Integer({ minimum: 1 }),
        checkpoint_retention_minutes: Seconds,
        safe_checkpoint_criteria: Type.Object({ min_success_rate: Fraction, no_errors_duration_seconds: Seconds }, strict),
      },
      strict,
    ),
    emergency_stop: Type.Object(
      {
        enabled: Type.Boolean(),
        min_severity: Type.Enum(['low', 'medium', 'high', 'critical']),
        auto_cleanup: Type.Boolean(),
        notification_channels: Type.Array(Type.Enum(['log', 'webhook'])),
        preserve_incident_data_days: Seconds,
        webhook: Type.Object(
          {
            url: Type.Union([Type.String({ pattern: '^https?://' }), Type.Null()]),
            timeout_ms: Type.Integer({ minimum: 1 }),
            retries: Count,
            backoff_ms: Count,
          },
          strict,
        ),
      },
      strict,
    ),
    strategy: Type.Object(
      {
        type: Type.Enum(['progressive', 'pattern_specific', 'custom']),
        effectiveness_threshold: Fraction,
        escalation_delay_seconds: Seconds,
        effectiveness_window_actions: Type.Integer({ minimum: 1 }),
        escalation_weight: Type.Number({ minimum: 0, maximum: 1 }),
      },
      strict,
    ),
    custom_handlers: Type.Array(Type.String({ minLength: 1 })),
  },
  strict,
);

const validator = Compile(SettingsSchema);


/**
 * Settings from a configuration document (YAML or JSON, optionally under a top-level `interventions:`
 * key, as in the seed) over DEFAULT_INTERVENTION_SETTINGS, by the settings merge rule (@warden/settings). Unknown keys, wrong types and values out of
 * range are errors naming the setting, so a typo never silently leaves a default in place.
 */
export function resolveInterventionSettings(document: unknown = {}): InterventionSettings {
  const root = settingsSection(document, 'interventions');
  if (!isSettingsMapping(root)) throw new InterventionSettingsError('intervention configuration must be a mapping');
  const settings = mergeSettings(DEFAULT_INTERVENTION_SETTINGS, root);
  if (!validator.Check(settings)) {
    const errors = [...validator.Errors(settings)].slice(0, 5).map((e) => `${e.instancePath || '/'}: ${e.message}`);
    throw new InterventionSettingsError(`invalid intervention configuration: ${errors.join('; ')}`);
  }
  if (settings.strategy.type === 'custom' && settings.custom_handlers.length === 0) {
    throw new InterventionSettingsError('strategy.type custom needs at least one entry in custom_handlers');
  }
  if (settings.emergency_stop.notification_channels.includes('webhook') && !settings.emergency_stop.webhook.url) {
    throw new InterventionSettingsError('emergency_stop.notification_channels lists webhook but emergency_stop.webhook.url is not set');
  }
  return settings;
}
