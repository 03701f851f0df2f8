import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { ConfigurationError, loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';
import { parse as parseYaml } from 'yaml';
import { resolveBreakerSettings } from '@warden/breakers';
import type { BreakerSettings } from '@warden/breakers';

/**
 * The breaker's configuration. Its environment is the shared one (see loadServiceRuntime; HTTP port
 * 3104 by default) plus:
 *
 * - `BREAKER_CONFIG`: path of the breaker configuration (YAML or JSON): limits, budgets, model prices,
 *   timeouts, error-rate window, probing and backoff, mode per breaker. Absent: the documented defaults
 *   of `domain/breaker-settings.ts` (DEFAULT_BREAKER_SETTINGS, the seed's values). Read at start.
 */
export interface BreakerConfig extends ServiceRuntime {
  configPath: string | undefined;
  settings: BreakerSettings;
}

export function loadBreakerConfig(env: NodeJS.ProcessEnv = process.env): BreakerConfig {
  const configPath = env['BREAKER_CONFIG']?.trim() || undefined;
  return { ...loadServiceRuntime('breaker', env), configPath, settings: configPath ? readSettings(configPath) : resolveBreakerSettings() };
}

function readSettings(path: string): BreakerSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`BREAKER_CONFIG: cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const document: unknown = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
    return resolveBreakerSettings(document ?? {});
  } catch (error) {
    throw new ConfigurationError(`BREAKER_CONFIG ${path}: ${(error as Error).message}`);
  }
}
