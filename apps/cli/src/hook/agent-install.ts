import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentName } from '@warden/agent-edge';
import { writeShim, writeToken } from './command-shim.js';

/** Where a hook is installed: one project, or the user's own configuration (every project of theirs). */
export interface InstallPlace {
  scope: 'project' | 'user';
  /** The project directory, or the user's home. */
  dir: string;
}

/** What Warden's hook entries call. */
export interface HookTargets {
  /** The agent's endpoint on the gateway, with the answer settings as its query (agents with HTTP hooks). */
  url: string;
  /** The command for one event (agents without HTTP hooks: the command shim with the event as its argument). */
  command(event: string): string;
  /** The command shim's path, for agents that write the command themselves. */
  shim: string;
  /** Where the agent's token is kept (mode 600), for a plugin that reads it at each call. */
  tokenFile: string;
}

/** One agent's hook configuration: where it lives and how Warden's entries go in and come out again. */
export interface AgentInstall {
  agent: AgentName;
  title: string;
  /** The agent's configuration file for a project or for the user; undefined where it has none there. */
  configFile(place: InstallPlace): string | undefined;
  /** The events Warden is installed for, and those that hold a tool call (they fail closed). */
  events: readonly string[];
  blockingEvents: readonly string[];
  /** The configuration (its text, or undefined when there is none yet) with Warden's hooks, everything else kept. */
  merge(existing: string | undefined, targets: HookTargets, path: string): string;
  /** The configuration without Warden's hooks; null when nothing else is left in it (the file is removed). */
  remove(existing: string, path: string): string | null;
  /** What the person still has to do after an install. */
  notes?(place: InstallPlace): string[];
  /** What the command shim prints when it blocks a call, for agents that do not block on exit 2 (CommandShim.blockedOutput). */
  blockedOutput?: (reason: string) => Record<string, unknown>;
  /**
   * The agent loads Warden as an in-process plugin (OpenCode): its configuration file is the plugin, which
   * posts to the gateway itself with the token it reads; no command shim is written.
   */
  plugin?: boolean;
}

export class HookInstallError extends Error {}

/** Warden's own files in a project or home: the command shims and the agents' tokens (never committed). */
export const wardenHooksDir = (place: InstallPlace) => join(place.dir, '.warden', 'hooks');

/** A JSON configuration file's object, or an error that says nothing was changed. */
export function parseJsonConfig(text: string | undefined, path: string): Record<string, unknown> {
  if (text === undefined || !text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HookInstallError(`${path} is not valid JSON (${(error as Error).message}); fix it first, nothing was changed`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HookInstallError(`${path} does not hold a JSON object; nothing was changed`);
  return value as Record<string, unknown>;
}

export const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Whether a hook entry is Warden's: it runs one of Warden's shims, or posts to Warden's gateway. */
export function isWardenEntry(entry: unknown): boolean {
  if (!entry || typeof entry !== 'object') return false;
  return Object.values(entry as Record<string, unknown>).some((value) => typeof value === 'string' && (/[\\/]\.warden[\\/]hooks[\\/]/.test(value) || /\/hooks\/[a-z-]+(\?|$)/.test(value)));
}

interface MatcherGroup {
  matcher?: string;
  hooks?: unknown[];
  [key: string]: unknown;
}

/**
 * The `hooks` object Claude Code made common (Codex, Factory Droid and Gemini CLI read the same layout):
 * `{<Event>: [{matcher?, hooks: [{type: "command", command, timeout}]}]}`. The user's entries are kept,
 * Warden's earlier ones dropped, and Warden's added once per event.
 */
export function mergeMatcherHooks(hooks: unknown, add: Record<string, MatcherGroup> | null, path: string): Record<string, unknown> {
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) throw new HookInstallError(`"hooks" in ${path} is not an object; nothing was changed`);
  const merged: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries((hooks ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(groups)) throw new HookInstallError(`"hooks.${event}" in ${path} is not a list; nothing was changed`);
    const kept = (groups as MatcherGroup[]).map((group) => ({ ...group, hooks: (group.hooks ?? []).filter((h) => !isWardenEntry(h)) })).filter((group) => group.hooks.length > 0);
    if (kept.length) merged[event] = kept;
  }
  for (const [event, group] of Object.entries(add ?? {})) merged[event] = [...((merged[event] as unknown[] | undefined) ?? []), group];
  return merged;
}

export interface InstallRequest {
  install: AgentInstall;
  place: InstallPlace;
  /** The agent's token (`<agent id>.<secret>`), when known. */
  token?: string;
  gatewayUrl: string;
  /** The answer settings for the gateway's query (`decide`, `approvals`). */
  query: string;
}

export interface InstallReport {
  configFile: string;
  shim?: string;
  tokenFile?: string;
  notes: string[];
}

/**
 * Installs one agent's hooks: the command shim and the agent's token in `.warden/hooks/` (for agents
 * without HTTP hooks; never committed: `.warden/.gitignore`), and Warden's entries merged into the
 * agent's own configuration file, the user's own hooks kept.
 */
export function installAgentHooks(request: InstallRequest): InstallReport {
  const { install, place } = request;
  const configFile = install.configFile(place);
  if (!configFile) throw new HookInstallError(`${install.title} has no ${place.scope}-level hook configuration: install it per project (--project DIR)`);
  const existing = existsSync(configFile) ? readFileSync(configFile, 'utf8') : undefined;
  const hooksDir = wardenHooksDir(place);
  const tokenFile = join(hooksDir, `${install.agent}.token`);
  const shimPath = join(hooksDir, `${install.agent}.sh`);
  const url = `${request.gatewayUrl.replace(/\/+$/, '')}/hooks/${install.agent}${request.query ? `?${request.query}` : ''}`;
  // Merged first: a configuration Warden cannot read changes nothing.
  const merged = install.merge(existing, { url, command: (event) => `sh ${JSON.stringify(shimPath)} ${event}`, shim: shimPath, tokenFile }, configFile);
  mkdirSync(hooksDir, { recursive: true });
  if (install.plugin) writeToken(tokenFile, request.token);
  else {
    writeShim(
      hooksDir,
      { agent: install.agent, title: install.title, gatewayUrl: request.gatewayUrl, tokenFile, blockingEvents: install.blockingEvents, query: request.query, ...(install.blockedOutput ? { blockedOutput: install.blockedOutput } : {}) },
      request.token,
    );
  }
  const ignore = join(place.dir, '.warden', '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# Warden keeps agents\' tokens and its hook state here: nothing of it is committed.\n*\n');
  mkdirSync(dirname(configFile), { recursive: true });
  writeFileSync(configFile, merged);
  return { configFile, ...(install.plugin ? {} : { shim: shimPath }), ...(request.token ? { tokenFile } : {}), notes: install.notes?.(place) ?? [] };
}

/** Removes Warden's hooks from the agent's configuration (the user's own stay) and Warden's shim and token. */
export function uninstallAgentHooks(install: AgentInstall, place: InstallPlace): { configFile?: string; removed: boolean } {
  const configFile = install.configFile(place);
  const hooksDir = wardenHooksDir(place);
  for (const file of [`${install.agent}.sh`, `${install.agent}.token`]) rmSync(join(hooksDir, file), { force: true });
  if (!configFile || !existsSync(configFile)) return { removed: false };
  const remaining = install.remove(readFileSync(configFile, 'utf8'), configFile);
  if (remaining === null) rmSync(configFile);
  else writeFileSync(configFile, remaining);
  return { configFile, removed: true };
}
