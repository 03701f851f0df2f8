import { join } from 'node:path';
import { HookInstallError, jsonText, parseJsonConfig, type AgentInstall } from '../agent-install.js';

/** agy's hook timeout, in whole seconds: above Warden's own deadline (45 s), so that Warden says what happened. */
const TIMEOUT_SECONDS = 60;
/** The events Warden answers (ANTIGRAVITY_EVENTS in @warden/agent-edge): the tool events and PreInvocation. */
const EVENTS = ['PreToolUse', 'PostToolUse', 'PreInvocation'] as const;
const TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse'];
/** Warden's named hook group in hooks.json: the whole of Warden's configuration, and nothing else is touched. */
const GROUP = 'warden';

/**
 * Google Antigravity CLI's hooks.json, as measured on agy 1.1.x (stbenjam/skillsaw
 * docs/rules/antigravity-hooks-valid.md; cisco-ai-defense/defenseclaw docs-site/content/docs/connectors/
 * antigravity.mdx): top-level keys are named hook groups, each mapping events to handlers; PreToolUse and
 * PostToolUse take matcher groups `[{matcher, hooks: [handler]}]`, the other events a flat list of handlers;
 * a handler is `{type: "command", command, timeout}` (whole seconds; other keys are dropped). Any load error
 * drops the whole file, so nothing else is written. The project's file is `.agents/hooks.json` (read since
 * 1.1.1), the user's `~/.gemini/config/hooks.json` (since 1.0.8); agy merges every file it finds.
 *
 * agy runs the command without a shell, splitting it on spaces and keeping quotes as bytes: the command is
 * `sh <shim> <Event>` unquoted, and a shim path with spaces or quotes is refused. Payloads do not name their
 * event, so each entry passes it. A non-zero exit is not documented as a block, so the shim prints agy's
 * deny (exit 0) when it cannot reach Warden.
 */
export const antigravityInstall: AgentInstall = {
  agent: 'antigravity',
  title: 'Antigravity',
  configFile: (place) => (place.scope === 'user' ? join(place.dir, '.gemini', 'config', 'hooks.json') : join(place.dir, '.agents', 'hooks.json')),
  events: EVENTS,
  blockingEvents: ['PreToolUse'],
  blockedOutput: (reason) => ({ decision: 'deny', reason }),
  merge(existing, targets, path) {
    const config = parseJsonConfig(existing, path);
    if (/[\s'"\\]/.test(targets.shim)) throw new HookInstallError(`agy runs hook commands without a shell, and the path ${targets.shim} has spaces or quotes; install from a directory without them (nothing was changed)`);
    const handler = (event: string) => ({ type: 'command', command: `sh ${targets.shim} ${event}`, timeout: TIMEOUT_SECONDS });
    const group = Object.fromEntries(EVENTS.map((event) => [event, TOOL_EVENTS.includes(event) ? [{ matcher: '*', hooks: [handler(event)] }] : [handler(event)]]));
    return jsonText({ ...config, [GROUP]: group });
  },
  remove(existing, path) {
    const { [GROUP]: _warden, ...rest } = parseJsonConfig(existing, path);
    return Object.keys(rest).length ? jsonText(rest) : null;
  },
  notes: (place) => [
    "agy's hook contract is third-party measured (no official reference was available): start agy and check Warden's hooks with /hooks.",
    ...(place.scope === 'project' ? ['agy reads .agents/hooks.json since 1.1.1; on older builds install with --user (~/.gemini/config/hooks.json).'] : []),
    'Approvals go to an operator at the gate (agy does not say whether someone answers its prompts): install with --approvals terminal to have agy ask you (force_ask).',
  ],
};
