import { join } from 'node:path';
import { jsonText, parseJsonConfig, type AgentInstall } from '../agent-install.js';
import { checkVersionOne, mergeFlatHooks } from './flat-hooks.js';

/**
 * Cursor's hook timeout. Its unit is not documented (integrations write seconds and milliseconds alike):
 * 60000 is 60 s if milliseconds, above Warden's deadline (45 s), and if seconds Cursor waits longer than
 * the shim ever takes (it gives up after 55 s). A short timeout would block every call (failClosed).
 */
const TIMEOUT = 60_000;
/** The calls that hold a tool call: failClosed, and the shim blocks them (exit 2) when Warden cannot be reached. */
const BLOCKING = ['beforeShellExecution', 'beforeMCPExecution', 'preToolUse'] as const;
const EVENTS = [
  'sessionStart',
  'beforeSubmitPrompt',
  ...BLOCKING,
  'afterShellExecution',
  'afterMCPExecution',
  'postToolUse',
  'postToolUseFailure',
  'stop',
  'sessionEnd',
] as const;
/**
 * preToolUse and its after-events match every tool but the shell and MCP calls (a regular expression on
 * the tool name), which their own events hold, where Cursor can ask: so no call is proposed twice.
 */
const NOT_SHELL_OR_MCP = '^(?!Shell$|MCP:).*';
const PRE_TOOL_EVENTS: readonly string[] = ['preToolUse', 'postToolUse', 'postToolUseFailure'];

/**
 * Cursor's hooks.json (https://cursor.com/docs/agent/hooks): `{"version": 1, "hooks": {<event>:
 * [{command, matcher?, timeout, failClosed?}]}}` in `<project>/.cursor/` or `~/.cursor/`, entries listed
 * directly under each event. Each runs the command shim with the event as its argument; those that hold
 * a call say `failClosed: true`, so that Cursor blocks the call when the hook fails, times out or prints
 * nothing (Warden always answers them).
 */
export const cursorInstall: AgentInstall = {
  agent: 'cursor',
  title: 'Cursor',
  configFile: (place) => join(place.dir, '.cursor', 'hooks.json'),
  events: EVENTS,
  blockingEvents: BLOCKING,
  merge(existing, targets, path) {
    const config = parseJsonConfig(existing, path);
    checkVersionOne(config, path);
    const add = Object.fromEntries(
      EVENTS.map((event) => [
        event,
        {
          command: targets.command(event),
          ...(PRE_TOOL_EVENTS.includes(event) ? { matcher: NOT_SHELL_OR_MCP } : {}),
          timeout: TIMEOUT,
          ...((BLOCKING as readonly string[]).includes(event) ? { failClosed: true } : {}),
        },
      ]),
    );
    return jsonText({ ...config, version: 1, hooks: mergeFlatHooks(config.hooks, add, path) });
  },
  remove(existing, path) {
    const config = parseJsonConfig(existing, path);
    const hooks = mergeFlatHooks(config.hooks, null, path);
    const { hooks: _dropped, version: _version, ...rest } = config;
    if (!Object.keys(hooks).length && !Object.keys(rest).length) return null;
    return jsonText({ ...rest, version: config.version ?? 1, hooks });
  },
  notes: () => [
    'Cursor loads hooks.json when it starts: restart Cursor (or cursor-agent) for Warden\'s hooks to run.',
    'For a headless run (a background agent, cursor-agent in a script) install with --approvals operator: Cursor cannot ask anyone there.',
  ],
};
