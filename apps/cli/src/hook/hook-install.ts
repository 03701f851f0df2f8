import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HOOK_DEFAULTS, type HookConfigFile } from './hook-settings.js';

/** The events `warden hook` answers: the tool events for every tool, and the end of the session. */
export const INSTALLED_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionEnd'] as const;

/** Claude Code's hook timeout in seconds for the adapter: above the adapter's own deadline. */
export const HOOK_TIMEOUT_SECONDS = 60;

interface HookCommandEntry {
  type: string;
  command?: string;
  timeout?: number;
  [key: string]: unknown;
}
interface MatcherEntry {
  matcher?: string;
  hooks?: HookCommandEntry[];
  [key: string]: unknown;
}

export class HookInstallError extends Error {}

const isWardenHook = (entry: HookCommandEntry) => typeof entry.command === 'string' && / hook$/.test(entry.command.trim()) && entry.command.includes('warden');

/**
 * Adds the adapter to a Claude Code settings object (the `hooks` section of .claude/settings.json):
 * one `*` matcher per event running `command`. Everything else is kept as it is; an earlier
 * `warden hook` entry is replaced rather than added twice.
 */
export function mergeHookSettings(settings: Record<string, unknown>, command: string): Record<string, unknown> {
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  if (typeof hooks !== 'object' || Array.isArray(hooks)) throw new HookInstallError('"hooks" in the settings is not an object');
  const merged: Record<string, unknown> = { ...hooks };
  for (const event of INSTALLED_EVENTS) {
    const existing = hooks[event] ?? [];
    if (!Array.isArray(existing)) throw new HookInstallError(`"hooks.${event}" in the settings is not a list`);
    const kept = (existing as MatcherEntry[])
      .map((entry) => ({ ...entry, hooks: (entry.hooks ?? []).filter((h) => !isWardenHook(h)) }))
      .filter((entry) => entry.hooks.length > 0);
    merged[event] = [...kept, { matcher: '*', hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }] }];
  }
  return { ...settings, hooks: merged };
}

export interface InstallOptions {
  projectDir: string;
  command: string;
  config: HookConfigFile;
}

export interface InstallResult {
  settingsPath: string;
  configPath: string;
  configWritten: boolean;
}

/** Writes the hook into <project>/.claude/settings.json (merged) and <project>/.warden/hook.json (only when absent). */
export function installHook(options: InstallOptions): InstallResult {
  const settingsPath = join(options.projectDir, '.claude', 'settings.json');
  let settings: Record<string, unknown> = {};
  if (existsSync(settingsPath)) {
    try {
      settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new HookInstallError(`${settingsPath} is not valid JSON (${(error as Error).message}); fix it first, nothing was changed`);
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new HookInstallError(`${settingsPath} does not hold a JSON object; nothing was changed`);
  }
  const merged = mergeHookSettings(settings, options.command);
  mkdirSync(dirname(settingsPath), { recursive: true });
  writeFileSync(settingsPath, `${JSON.stringify(merged, null, 2)}\n`);

  const configPath = join(options.projectDir, HOOK_DEFAULTS.configFile);
  const configWritten = !existsSync(configPath);
  if (configWritten) {
    mkdirSync(dirname(configPath), { recursive: true });
    writeFileSync(configPath, `${JSON.stringify(options.config, null, 2)}\n`, { mode: 0o600 });
  }
  return { settingsPath, configPath, configWritten };
}
