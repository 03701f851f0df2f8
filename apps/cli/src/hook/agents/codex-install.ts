import { join } from 'node:path';
import { HookInstallError, jsonText, mergeMatcherHooks, parseJsonConfig, type AgentInstall } from '../agent-install.js';

/** Codex's hook timeout in seconds: above Warden's own deadline (45 s), so that Warden says what happened. */
const TIMEOUT_SECONDS = 60;
const EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop', 'SessionEnd'] as const;
/** Tool events match every tool: anything but a literal name is a regular expression in Codex's matchers. */
const TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse'];

/**
 * Codex CLI's hooks.json (https://developers.openai.com/codex/hooks): `{"hooks": {<Event>: [{matcher,
 * hooks: [{type: "command", command, timeout, statusMessage}]}]}}` in `<project>/.codex/` (read only in
 * a trusted project) or `~/.codex/` (`$CODEX_HOME`). Codex has no HTTP hooks: each event runs the
 * command shim.
 */
export const codexInstall: AgentInstall = {
  agent: 'codex',
  title: 'Codex',
  configFile: (place) => (place.scope === 'user' ? join(process.env.CODEX_HOME || join(place.dir, '.codex'), 'hooks.json') : join(place.dir, '.codex', 'hooks.json')),
  events: EVENTS,
  blockingEvents: ['PreToolUse'],
  merge(existing, targets, path) {
    const config = parseJsonConfig(existing, path);
    // Codex refuses a flat Claude-style top level: such a file is not silently rewritten.
    if ('PreToolUse' in config) throw new HookInstallError(`${path} has hook events at its top level, where Codex does not read them (only under "hooks"); fix it first, nothing was changed`);
    const add = Object.fromEntries(
      EVENTS.map((event) => [
        event,
        {
          ...(TOOL_EVENTS.includes(event) ? { matcher: '.*' } : {}),
          hooks: [{ type: 'command', command: targets.command(event), timeout: TIMEOUT_SECONDS, ...(event === 'PreToolUse' ? { statusMessage: 'Warden is reviewing the action' } : {}) }],
        },
      ]),
    );
    return jsonText({ ...config, hooks: mergeMatcherHooks(config.hooks, add, path) });
  },
  remove(existing, path) {
    const config = parseJsonConfig(existing, path);
    const hooks = mergeMatcherHooks(config.hooks, null, path);
    const { hooks: _dropped, ...rest } = config;
    if (!Object.keys(hooks).length && !Object.keys(rest).length) return null;
    return jsonText(Object.keys(hooks).length ? { ...rest, hooks } : rest);
  },
  notes: (place) => [
    'Codex runs a new hook only once you trust it: start Codex in the project and review Warden\'s hooks with /hooks.',
    ...(place.scope === 'project' ? ['Codex reads .codex/ only in a project you trust.'] : []),
  ],
};

