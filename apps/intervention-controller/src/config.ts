import { resolveInterventionSettings, resolvePromptTemplates, type InterventionSettings, type PromptTemplates } from '@warden/interventions';
import { ConfigurationError, loadServiceRuntime, type ServiceRuntime } from '@warden/service-bootstrap';
import { loadSettingsFile, settingsPathNear } from '@warden/settings-loader';

/**
 * The intervention-controller's configuration. Its environment is the shared one (see
 * loadServiceRuntime; HTTP port 3103 by default) plus:
 *
 * - `INTERVENTIONS_CONFIG`: path of the seed's configuration file (YAML or JSON, see
 *   deploy/intervention-controller/interventions.yaml). Absent: the documented defaults of
 *   `domain/intervention-settings.ts`. Paths inside it (custom_prompts_path, custom_handlers) are
 *   relative to the file. Read at start.
 * - `INTERVENTIONS_SWEEP_MS` [5000]: how often interventions whose observation time is over are judged.
 */
export interface InterventionControllerConfig extends ServiceRuntime {
  configPath: string | undefined;
  settings: InterventionSettings;
  templates: PromptTemplates;
  /** custom_handlers as absolute paths. */
  handlerPaths: string[];
  sweepMs: number;
}

export function loadInterventionControllerConfig(env: NodeJS.ProcessEnv = process.env): InterventionControllerConfig {
  const configPath = env['INTERVENTIONS_CONFIG']?.trim() || undefined;
  const settings = loadSettingsFile('INTERVENTIONS_CONFIG', configPath, resolveInterventionSettings, { error: ConfigurationError });
  const promptsPath = settings.soft_correction.custom_prompts_path;
  const templates = loadSettingsFile('soft_correction.custom_prompts_path', promptsPath ? settingsPathNear(configPath, promptsPath) : undefined, resolvePromptTemplates, {
    error: ConfigurationError,
  });
  const sweepRaw = env['INTERVENTIONS_SWEEP_MS'] ?? '5000';
  const sweepMs = Number(sweepRaw);
  if (!Number.isInteger(sweepMs) || sweepMs < 100) throw new ConfigurationError(`INTERVENTIONS_SWEEP_MS must be an integer >= 100 (got "${sweepRaw}")`);
  return {
    ...loadServiceRuntime('intervention-controller', env),
    configPath,
    settings,
    templates,
    handlerPaths: settings.custom_handlers.map((path) => settingsPathNear(configPath, path)),
    sweepMs,
  };
}
