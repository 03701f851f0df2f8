import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { connectionTarget, healthUrl, lastConnectionFailure, quoteError, type ConnectionTarget } from './connection-failure.js';
import { diagnosedSince } from './diagnostics.js';
import { addressOf } from '@warden/project-knowledge';
import type { PrerequisiteCheck, ToolValidator, ValidationContext, ValidationResult } from './tool-validator.js';

/** The setting the seed checks when the project does not name one. */
export const DEFAULT_CONNECTION_SETTING = 'connection_url';

/**
 * The installation trap (seed 004): a connection fails and the agent installs software, when the
 * configuration was wrong. Installing (packages, `npx playwright install`) after a connection failure
 * needs the configuration checked and the endpoint tested first. Once the agent has run such a check
 * after the failure, the install goes ahead: it looked first.
 */
export class InstallationValidator implements ToolValidator {
  readonly id = 'installation_prevention';

  appliesTo(action: ParsedAction): boolean {
    return action.intents.includes('package_install') && !installsOffline(action);
  }

  validate(_action: ParsedAction, context: ValidationContext): ValidationResult {
    const target = this.undiagnosedFailure(context);
    if (!target) return { kind: 'approve' };
    const { endpoint, failedUrl, failedAddress } = target;
    const setting = endpoint?.configKey ?? DEFAULT_CONNECTION_SETTING;
    const configCheck: PrerequisiteCheck = {
      description: 'Verify connection endpoint configuration',
      method: endpoint ? { type: 'config_check', key: setting, expected: endpoint.defaultUrl } : { type: 'config_check', key: setting },
      success_criteria: 'Endpoint is correctly configured',
      priority: 10,
    };
    // The endpoint the failing code used; without one, the project's endpoint; without that, whatever the setting holds.
    const url = failedUrl ?? (endpoint ? healthUrl(endpoint) : `\${${setting}}`);
    const endpointTest: PrerequisiteCheck = {
      description: 'Test connectivity to configured endpoint',
      method: { type: 'endpoint_test', url },
      success_criteria: 'Endpoint responds successfully',
      priority: 9,
    };
    let reason =
      `A connection failed ("${quoteError(target.failure)}") and nothing since checked the configuration or the endpoint. ` +
      'Installing software rarely fixes a connection: verify the endpoint configuration and test connectivity first.';
    if (endpoint && failedAddress && addressOf(endpoint.defaultUrl)?.hostPort !== failedAddress.hostPort) {
      reason += ` The project's ${endpoint.name} is at ${endpoint.defaultUrl}${endpoint.configKey ? ` (${endpoint.configKey})` : ''}, not ${failedAddress.hostPort}.`;
    }
    return { kind: 'require_prerequisites', reason, checks: [configCheck, endpointTest] };
  }

  alternatives(_action: ParsedAction, context: ValidationContext): string[] {
    const target = this.undiagnosedFailure(context);
    const endpoint = target?.endpoint;
    const configuration = endpoint
      ? `Check connection configuration: review ${endpoint.configKey ?? 'the setting'} (the project's ${endpoint.name} is ${endpoint.defaultUrl}) and test connectivity with curl -sS ${healthUrl(endpoint)}`
      : 'Check connection configuration: review the config and test connectivity';
    return [
      'Verify existing installation is accessible: check the installed version and test the existing connection',
      configuration,
      ...(target?.issues.map((issue) => issue.simpleFix) ?? []),
    ];
  }

  private undiagnosedFailure(context: ValidationContext): ConnectionTarget | undefined {
    const failure = lastConnectionFailure(context.session);
    if (!failure || diagnosedSince(context.session, failure, context.knowledge)) return undefined;
    return connectionTarget(failure, context.knowledge);
  }
}

/** Package managers whose install can be told to fetch nothing. */
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'uv', 'cargo', 'poetry']);
/** Fetches nothing: installs from the local store or cache only (`pnpm install --offline`, `pip install --no-index`). */
const OFFLINE = new Set(['--offline', '--no-index', '--frozen']);

/**
 * An install that fetches nothing answers a connection failure by working without the network, not by
 * installing software from it: every package manager of the line is told so.
 */
function installsOffline(action: ParsedAction): boolean {
  const managers = action.segments.filter((s) => PACKAGE_MANAGERS.has(commandName(s)));
  return managers.length > 0 && managers.every((s) => s.argv.some((a) => OFFLINE.has(a)));
}
