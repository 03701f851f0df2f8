import { join } from 'node:path';
import { HookInstallError, jsonText, mergeMatcherHooks, parseJsonConfig, type AgentInstall } from '../agent-install.js';

/** Gemini CLI's hook timeout, in milliseconds: above Warden's deadline (45 s) and the shim's limit (55 s). A hook that times out lets the call run. */
const TIMEOUT_MS = 60_000;
const EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'] as const;
const TOOL_EVENTS: readonly string[] = ['BeforeTool', 'AfterTool'];
/** Keys of `hooks` that are settings, not events (gemini-cli packages/core/src/hooks/types.ts, HOOKS_CONFIG_FIELDS): kept as they are. */
const SETTINGS = ['enabled', 'disabled', 'notifications'];

/** Splits `hooks` into its settings and its events. */
function partsOf(hooks: unknown, path: string): { settings: Record<string, unknown>; events: Record<string, unknown> | undefined } {
  if (hooks === undefined) return { settings: {}, events: undefined };
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) throw new HookInstallError(`"hooks" in ${path} is not an object; nothing was changed`);
  const entries = Object.entries(hooks as Record<string, unknown>);
  return { settings: Object.fromEntries(entries.filter(([key]) => SETTINGS.includes(key))), events: Object.fromEntries(entries.filter(([key]) => !SETTINGS.includes(key))) };
}

/**
 * Gemini CLI's settings (https://geminicli.com/docs/hooks, "Configuration"): `hooks` in
 * `<project>/.gemini/settings.json` or `~/.gemini/settings.json`, Claude Code's layout of matcher groups
 * (`"*"` matches every tool) with `{name, type: "command", command, timeout (ms), description}`. The rest
 * of the settings, and the hooks' own settings (`enabled`, `disabled`, `notifications`), are kept.
 */
export const geminiInstall: AgentInstall = {
  agent: 'gemini',
  title: 'Gemini CLI',
  configFile: (place) => join(place.dir, '.gemini', 'settings.json'),
  events: EVENTS,
  blockingEvents: ['BeforeTool'],
  merge(existing, targets, path) {
    const config = parseJsonConfig(existing, path);
    const { settings, events } = partsOf(config.hooks, path);
    const add = Object.fromEntries(
      EVENTS.map((event) => [
        event,
        {
          ...(TOOL_EVENTS.includes(event) ? { matcher: '*' } : {}),
          hooks: [{ name: `warden-${event}`, type: 'command', command: targets.command(event), timeout: TIMEOUT_MS, description: 'Warden supervises the session' }],
        },
      ]),
    );
    return jsonText({ ...config, hooks: { ...settings, ...mergeMatcherHooks(events, add, path) } });
  },
  remove(existing, path) {
    const config = parseJsonConfig(existing, path);
    const { settings, events } = partsOf(config.hooks, path);
    const hooks = { ...settings, ...mergeMatcherHooks(events, null, path) };
    const { hooks: _dropped, ...rest } = config;
    if (!Object.keys(hooks).length && !Object.keys(rest).length) return null;
    return jsonText(Object.keys(hooks).length ? { ...rest, hooks } : rest);
  },
  notes: () => [
    'Gemini CLI runs hooks only while its hooks system is on (/hooks panel shows it; older versions: "tools": {"enableHooks": true}), and warns about a project hook it has not seen before.',
    'For a headless run (gemini -p) install with --approvals operator: Gemini cannot ask anyone there.',
  ],
};
