import { loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';

/**
 * The reviewer's configuration. Its environment is the shared one (see loadServiceRuntime): HTTP port
 * 3101 by default. Review thresholds and rule files arrive with the full step reviewer.
 */
export type ReviewerConfig = ServiceRuntime;

export function loadReviewerConfig(env: NodeJS.ProcessEnv = process.env): ReviewerConfig {
  return loadServiceRuntime('reviewer', env);
}
