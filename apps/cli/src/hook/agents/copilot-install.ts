import { join } from 'node:path';
import { jsonText, parseJsonConfig, type AgentInstall } from '../agent-install.js';
import { checkVersionOne, mergeFlatHooks } from './flat-hooks.js';

/**
 * Copilot CLI's hook timeout in seconds. A preToolUse hook that times out lets the call run (GitHub's
 * hooks reference, "Exit codes for command hooks"), so it is above Warden's deadline (45 s) and the
 * shim's own limit (55 s): Warden always answers first.
 */
const TIMEOUT_SECONDS = 60;
const EVENTS = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop', 'sessionEnd'] as const;

/**
 * Copilot CLI's hook files (https://docs.github.com/en/copilot/reference/hooks-reference, "Hooks
 * locations", "Command hooks"): every `*.json` in `<repository>/.github/hooks/` and `~/.copilot/hooks/`
 * (`$COPILOT_HOME/hooks/`) is loaded and their hooks combined, so Warden's are a file of their own,
 * `warden.json`: `{"version": 1, "hooks": {<event>: [{type: "command", bash, timeoutSec}]}}`, the
 * camelCase events (their payloads name the tools Copilot runs). A command hook, not an HTTP one: those
 * must use https for preToolUse (plain http only to localhost, behind COPILOT_HOOK_ALLOW_LOCALHOST=1) and
 * let the call run when the request fails, where a preToolUse command that exits 2 denies it.
 */
export const copilotInstall: AgentInstall = {
  agent: 'copilot',
  title: 'Copilot CLI',
  configFile: (place) => (place.scope === 'user' ? join(process.env.COPILOT_HOME || join(place.dir, '.copilot'), 'hooks', 'warden.json') : join(place.dir, '.github', 'hooks', 'warden.json')),
  events: EVENTS,
  blockingEvents: ['preToolUse'],
  merge(existing, targets, path) {
    const config = parseJsonConfig(existing, path);
    checkVersionOne(config, path);
    const add = Object.fromEntries(EVENTS.map((event) => [event, { type: 'command', bash: targets.command(event), timeoutSec: TIMEOUT_SECONDS }]));
    return jsonText({ ...config, version: 1, hooks: mergeFlatHooks(config.hooks, add, path) });
  },
  remove(existing, path) {
    const config = parseJsonConfig(existing, path);
    const hooks = mergeFlatHooks(config.hooks, null, path);
    const { hooks: _dropped, version: _version, ...rest } = config;
    if (!Object.keys(hooks).length && !Object.keys(rest).length) return null;
    return jsonText({ ...rest, version: config.version ?? 1, hooks });
  },
  notes: (place) => [
    ...(place.scope === 'project' ? ['Copilot CLI loads a repository\'s .github/hooks/ only in a folder you trust.'] : []),
    'For a headless run (copilot -p, the cloud agent) install with --approvals operator: Copilot cannot ask anyone there.',
  ],
};
