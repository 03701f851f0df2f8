import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HOOK_DEFAULTS, type HookConfigFile } from './hook-settings.js';

/** The tool events, for every tool (matcher `*`). */
const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionDenied'] as const;
/** The events Warden answers over HTTP: the tool events and the session's lifecycle. */
export const HTTP_EVENTS = [...TOOL_EVENTS, 'SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'SessionEnd'] as const;
/** The events the command hook is installed for (one process per call: the lifecycle events it needs). */
export const COMMAND_EVENTS = [...TOOL_EVENTS, 'UserPromptSubmit', 'SessionEnd'] as const;
/**
 * Events whose hook blocks when it fails (cannot start, times out, answers an error): a tool call or a
 * prompt waits for Warden. Not Stop (a blocked stop keeps Claude working), nor what cannot be held.
 */
const BLOCK_ON_FAILURE: readonly string[] = ['PreToolUse', 'UserPromptSubmit'];

/** Claude Code's hook timeout in seconds: above Warden's own deadline (45 s), so that Warden says what happened. */
export const HOOK_TIMEOUT_SECONDS = 60;

/** The environment variable Claude Code fills the HTTP hook's bearer token from. */
export const TOKEN_VARIABLE = 'WARDEN_AGENT_TOKEN';

export type Transport = 'http' | 'command';

interface HookEntry {
  type: string;
  command?: string;
  url?: string;
  [key: string]: unknown;
}
interface MatcherEntry {
  matcher?: string;
  hooks?: HookEntry[];
  [key: string]: unknown;
}

export class HookInstallError extends Error {}

const isWardenHook = (entry: HookEntry) =>
  (typeof entry.command === 'string' && entry.command.includes('warden') && (/ hook$/.test(entry.command.trim()) || /warden-hook\.cjs"?$/.test(entry.command.trim()))) ||
  (typeof entry.url === 'string' && /\/hooks\/claude-code(\?|$)/.test(entry.url));

/** What Claude Code runs for one event. */
export function hookEntry(event: string, target: { transport: 'http'; url: string } | { transport: 'command'; command: string }): HookEntry {
  const failure = BLOCK_ON_FAILURE.includes(event) ? { onFailure: 'block' } : {};
  if (target.transport === 'command') return { type: 'command', command: target.command, timeout: HOOK_TIMEOUT_SECONDS, ...failure };
  return {
    type: 'http',
    url: target.url,
    // The entry point tells Warden whether a person can answer a permission prompt (interactive) or not.
    headers: { Authorization: `Bearer $${TOKEN_VARIABLE}`, 'X-Claude-Code-Entrypoint': '$CLAUDE_CODE_ENTRYPOINT' },
    allowedEnvVars: [TOKEN_VARIABLE, 'CLAUDE_CODE_ENTRYPOINT'],
    timeout: HOOK_TIMEOUT_SECONDS,
    ...failure,
  };
}

/**
 * Adds Warden to a Claude Code settings object (the `hooks` section of .claude/settings.json): one
 * entry per event (matcher `*` for the tool events). Everything else is kept as it is; an earlier
 * Warden entry (command or HTTP) is replaced rather than added twice.
 */
export function mergeHookSettings(settings: Record<string, unknown>, target: Parameters<typeof hookEntry>[1] | null): Record<string, unknown> {
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  if (typeof hooks !== 'object' || Array.isArray(hooks)) throw new HookInstallError('"hooks" in the settings is not an object');
  const merged: Record<string, unknown> = {};
  for (const [event, existing] of Object.entries(hooks)) {
    if (!Array.isArray(existing)) throw new HookInstallError(`"hooks.${event}" in the settings is not a list`);
    const kept = (existing as MatcherEntry[]).map((entry) => ({ ...entry, hooks: (entry.hooks ?? []).filter((h) => !isWardenHook(h)) })).filter((entry) => entry.hooks.length > 0);
    if (kept.length) merged[event] = kept;
  }
  if (!target) return { ...settings, hooks: merged };
  const events = target.transport === 'http' ? HTTP_EVENTS : COMMAND_EVENTS;
  for (const event of events) {
    const matcher = (TOOL_EVENTS as readonly string[]).includes(event) ? { matcher: '*' } : {};
    merged[event] = [...((merged[event] as MatcherEntry[] | undefined) ?? []), { ...matcher, hooks: [hookEntry(event, target)] }];
  }
  return { ...settings, hooks: merged };
}

export interface InstallOptions {
  /** The project, or the user's home for `scope: 'user'` (~/.claude/settings.json, every project of theirs). */
  projectDir: string;
  scope?: 'project' | 'user';
  target: Parameters<typeof hookEntry>[1];
  /** `.warden/hook.json`, written only when absent (the command hook's settings). */
  config?: HookConfigFile;
  /** The agent's token, written into `.claude/settings.local.json` (`env`), for the HTTP hook's header. */
  token?: string;
}

export interface InstallResult {
  settingsPath: string;
  configPath?: string;
  configWritten: boolean;
  tokenPath?: string;
}

function readSettings(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HookInstallError(`${path} is not valid JSON (${(error as Error).message}); fix it first, nothing was changed`);
  }
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new HookInstallError(`${path} does not hold a JSON object; nothing was changed`);
  return settings as Record<string, unknown>;
}

/**
 * Writes Warden's hooks into <project>/.claude/settings.json (merged). For the HTTP hook, the agent's
 * token goes into .claude/settings.local.json (Claude Code's own file for what is not committed; mode
 * 600), whose `env` Claude Code applies to the session; for the command hook, .warden/hook.json.
 */
export function installHook(options: InstallOptions): InstallResult {
  const settingsPath = join(options.projectDir, '.claude', 'settings.json');
  // The user's settings have no local twin: the token goes into them, which are then readable by the user only.
  const localPath = options.scope === 'user' ? settingsPath : join(options.projectDir, '.claude', 'settings.local.json');
  const merged = mergeHookSettings(readSettings(settingsPath), options.target);
  const local = options.token && localPath !== settingsPath ? readSettings(localPath) : undefined;
  mkdirSync(dirname(settingsPath), { recursive: true });
  const result: InstallResult = { settingsPath, configWritten: false };
  if (options.token && localPath === settingsPath) {
    const env = { ...((merged.env as Record<string, string> | undefined) ?? {}), [TOKEN_VARIABLE]: options.token };
    writeFileSync(settingsPath, `${JSON.stringify({ ...merged, env }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(settingsPath, 0o600);
    result.tokenPath = settingsPath;
  } else {
    writeFileSync(settingsPath, `${JSON.stringify(merged, null, 2)}\n`);
  }
  if (local && options.token) {
    const env = { ...((local.env as Record<string, string> | undefined) ?? {}), [TOKEN_VARIABLE]: options.token };
    writeFileSync(localPath, `${JSON.stringify({ ...local, env }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(localPath, 0o600);
    result.tokenPath = localPath;
  }
  if (options.config) {
    const configPath = join(options.projectDir, HOOK_DEFAULTS.configFile);
    result.configPath = configPath;
    result.configWritten = !existsSync(configPath);
    if (result.configWritten) {
      mkdirSync(dirname(configPath), { recursive: true });
      writeFileSync(configPath, `${JSON.stringify(options.config, null, 2)}\n`, { mode: 0o600 });
    }
  }
  return result;
}

/**
 * Takes Warden's hooks out of Claude Code's settings (the user's own stay), and Warden's token out of
 * the settings' `env`.
 */
export function uninstallHook(options: Pick<InstallOptions, 'projectDir' | 'scope'>): { settingsPath: string; removed: boolean } {
  const settingsPath = join(options.projectDir, '.claude', 'settings.json');
  if (!existsSync(settingsPath)) return { settingsPath, removed: false };
  const settings = readSettings(settingsPath);
  const cleaned = withoutToken(mergeHookSettings(settings, null));
  if (!Object.keys(cleaned.hooks as object).length) delete cleaned.hooks;
  writeFileSync(settingsPath, `${JSON.stringify(cleaned, null, 2)}\n`);
  const localPath = join(options.projectDir, '.claude', 'settings.local.json');
  if (options.scope !== 'user' && existsSync(localPath)) writeFileSync(localPath, `${JSON.stringify(withoutToken(readSettings(localPath)), null, 2)}\n`, { mode: 0o600 });
  return { settingsPath, removed: JSON.stringify(cleaned) !== JSON.stringify(settings) };
}

function withoutToken(settings: Record<string, unknown>): Record<string, unknown> {
  const env = settings.env as Record<string, string> | undefined;
  if (!env || !(TOKEN_VARIABLE in env)) return { ...settings };
  const { [TOKEN_VARIABLE]: _token, ...rest } = env;
  const { env: _env, ...others } = settings;
  return Object.keys(rest).length ? { ...others, env: rest } : others;
}
