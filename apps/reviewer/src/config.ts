import { integerFromEnv, loadServiceRuntime, type ServiceRuntime } from '@warden/service-bootstrap';

/**
 * The reviewer's configuration. Its environment is the shared one (see loadServiceRuntime; HTTP port
 * 3101 by default) plus:
 *
 * - `REVIEWER_CONFIG`: path of the review configuration (YAML or JSON): thresholds, rules, custom rules
 *   file, project knowledge files, pipelines. Absent: the documented defaults of
 *   `domain/settings/reviewer-settings.ts` (DEFAULT_REVIEWER_SETTINGS).
 * - `REVIEWER_CONFIG_RELOAD_MS` (default 2000): how often the configuration, rules and knowledge files
 *   are checked for changes; a change is applied without a restart. 0 turns reloading off.
 */
/** The largest body `POST /review/explain` reads: an action (a file's content) and its session's messages. */
export const REVIEWER_JSON_BODY_LIMIT = '4mb';

export interface ReviewerConfig extends ServiceRuntime {
  configPath: string | undefined;
  reloadIntervalMs: number;
}

export function loadReviewerConfig(env: NodeJS.ProcessEnv = process.env): ReviewerConfig {
  const configPath = env['REVIEWER_CONFIG']?.trim();
  return {
    ...loadServiceRuntime('reviewer', env),
    configPath: configPath ? configPath : undefined,
    reloadIntervalMs: integerFromEnv(env, 'REVIEWER_CONFIG_RELOAD_MS', 2000),
  };
}
