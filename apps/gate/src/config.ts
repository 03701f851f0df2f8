import { loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';

/** The gate's configuration: the shared service environment (HTTP port 3105 by default). */
export type GateConfig = ServiceRuntime;

export function loadGateConfig(env: NodeJS.ProcessEnv = process.env): GateConfig {
  return loadServiceRuntime('gate', env);
}
