import { loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';

/** The intervention-controller's configuration: the shared service environment (HTTP port 3103 by default). */
export type InterventionControllerConfig = ServiceRuntime;

export function loadInterventionControllerConfig(env: NodeJS.ProcessEnv = process.env): InterventionControllerConfig {
  return loadServiceRuntime('intervention-controller', env);
}
