import { resolveBreakerSettings, type BreakerSettings } from '@warden/breakers';
import { ConfigurationError, loadServiceRuntime, type ServiceRuntime } from '@warden/service-bootstrap';
import { loadSettingsFile } from '@warden/settings-loader';

/**
 * The breaker's configuration. Its environment is the shared one (see loadServiceRuntime; HTTP port
 * 3104 by default) plus:
 *
 * - `BREAKER_CONFIG`: path of the breaker configuration (YAML or JSON): limits, budgets, model prices,
 *   timeouts, error-rate window, probing and backoff, mode per breaker. Absent: the documented defaults
 *   of `domain/breaker-settings.ts` (DEFAULT_BREAKER_SETTINGS, the seed's values); a file goes over them by
 *   the settings merge rule (@warden/settings). Read at start.
 */
export interface BreakerConfig extends ServiceRuntime {
  configPath: string | undefined;
  settings: BreakerSettings;
}

export function loadBreakerConfig(env: NodeJS.ProcessEnv = process.env): BreakerConfig {
  const configPath = env['BREAKER_CONFIG']?.trim() || undefined;
  const settings = loadSettingsFile('BREAKER_CONFIG', configPath, resolveBreakerSettings, { error: ConfigurationError });
  return { ...loadServiceRuntime('breaker', env), configPath, settings };
}
