import { readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { ConfigurationError, loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';
import { parse as parseYaml } from 'yaml';
import { resolveInterventionSettings } from '@warden/interventions';
import type { InterventionSettings } from '@warden/interventions';
import { resolvePromptTemplates, type PromptTemplates } from '@warden/interventions';

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
  const settings = configPath ? resolveSettings(configPath, readDocument(configPath, 'INTERVENTIONS_CONFIG')) : resolveInterventionSettings();
  const base = configPath ? dirname(resolve(configPath)) : process.cwd();
  const at = (path: string) => (isAbsolute(path) ? path : resolve(base, path));
  const promptsPath = settings.soft_correction.custom_prompts_path;
  let templates: PromptTemplates;
  try {
    templates = resolvePromptTemplates(promptsPath ? readDocument(at(promptsPath), 'soft_correction.custom_prompts_path') : undefined);
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(`prompt templates ${promptsPath}: ${(error as Error).message}`);
  }
  const sweepRaw = env['INTERVENTIONS_SWEEP_MS'] ?? '5000';
  const sweepMs = Number(sweepRaw);
  if (!Number.isInteger(sweepMs) || sweepMs < 100) throw new ConfigurationError(`INTERVENTIONS_SWEEP_MS must be an integer >= 100 (got "${sweepRaw}")`);
  return {
    ...loadServiceRuntime('intervention-controller', env),
    configPath,
    settings,
    templates,
    handlerPaths: settings.custom_handlers.map(at),
    sweepMs,
  };
}

function readDocument(path: string, setting: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`${setting}: cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigurationError(`${setting} ${path}: ${(error as Error).message}`);
  }
}

function resolveSettings(path: string, document: unknown): InterventionSettings {
  try {
    return resolveInterventionSettings(document ?? {});
  } catch (error) {
    throw new ConfigurationError(`INTERVENTIONS_CONFIG ${path}: ${(error as Error).message}`);
  }
}
