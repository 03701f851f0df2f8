import { loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';

/** The ladder's configuration: the shared service environment (HTTP port 3106 by default). */
export type LadderConfig = ServiceRuntime;

export function loadLadderConfig(env: NodeJS.ProcessEnv = process.env): LadderConfig {
  return loadServiceRuntime('ladder', env);
}
