import { loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';

/** The pattern-detector's configuration: the shared service environment (HTTP port 3102 by default). */
export type PatternDetectorConfig = ServiceRuntime;

export function loadPatternDetectorConfig(env: NodeJS.ProcessEnv = process.env): PatternDetectorConfig {
  return loadServiceRuntime('pattern-detector', env);
}
