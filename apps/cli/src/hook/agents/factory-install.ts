import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HookInstallError, jsonText, mergeMatcherHooks, parseJsonConfig, type AgentInstall } from '../agent-install.js';

/** Droid's hook timeout in seconds (default 60): above Warden's own deadline (45 s), so that Warden says what happened. */
const TIMEOUT_SECONDS = 60;
/** The events Warden answers (FACTORY_EVENTS in @warden/agent-edge). */
const EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop', 'SessionEnd'] as const;
/** Tool events match every tool (`*`). */
const TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse'];

/**
 * Factory Droid's hooks (hooks reference, https://docs.factory.ai/reference/hooks-reference, "Configuration"):
 * Claude Code's layout, `{"hooks": {<Event>: [{matcher, hooks: [{type: "command", command, timeout}]}]}}`,
 * in `.factory/hooks.json` of the project or `~/.factory/hooks.json` of the user. Without a hooks.json,
 * Droid reads the `hooks` of the matching settings.json: Warden's hooks go into hooks.json, beside the user's
 * own there, unless the user keeps theirs in settings.json alone; then into settings.json, so that Droid
 * still reads both. Droid has no HTTP hooks: each event runs the command shim.
 */
export const factoryInstall: AgentInstall = {
  agent: 'factory',
  title: 'Factory Droid',
  configFile(place) {
    const dir = join(place.dir, '.factory');
    const hooksFile = join(dir, 'hooks.json');
    const settings = join(dir, 'settings.json');
    if (existsSync(hooksFile) || !existsSync(settings)) return hooksFile;
    try {
      const parsed = JSON.parse(readFileSync(settings, 'utf8')) as { hooks?: unknown };
      return parsed && typeof parsed === 'object' && parsed.hooks !== undefined ? settings : hooksFile;
    } catch {
      // An unreadable settings.json holds no hooks Droid reads: Warden's go into hooks.json.
      return hooksFile;
    }
  },
  events: EVENTS,
  blockingEvents: ['PreToolUse'],
  merge(existing, targets, path) {
    const config = parseJsonConfig(existing, path);
    if (!('hooks' in config) && EVENTS.some((event) => event in config)) {
      throw new HookInstallError(`${path} has hook events at its top level, where Droid does not read them (only under "hooks"); fix it first, nothing was changed`);
    }
    const add = Object.fromEntries(
      EVENTS.map((event) => [event, { ...(TOOL_EVENTS.includes(event) ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: targets.command(event), timeout: TIMEOUT_SECONDS }] }]),
    );
    return jsonText({ ...config, hooks: mergeMatcherHooks(config.hooks, add, path) });
  },
  remove(existing, path) {
    const config = parseJsonConfig(existing, path);
    const hooks = mergeMatcherHooks(config.hooks, null, path);
    const { hooks: _dropped, ...rest } = config;
    // A settings.json is Droid's own file: it stays, even empty.
    if (!Object.keys(hooks).length && !Object.keys(rest).length) return path.endsWith('settings.json') ? jsonText({}) : null;
    return jsonText(Object.keys(hooks).length ? { ...rest, hooks } : rest);
  },
  notes: () => [
    'Approvals go to an operator at the gate (Droid does not say whether someone answers its prompts, as with droid exec): install with --approvals terminal to have Droid ask you.',
  ],
};
