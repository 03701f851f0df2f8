import { loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';

/** The breaker's configuration: the shared service environment (HTTP port 3104 by default). */
export type BreakerConfig = ServiceRuntime;

export function loadBreakerConfig(env: NodeJS.ProcessEnv = process.env): BreakerConfig {
  return loadServiceRuntime('breaker', env);
}
