import { HookInstallError, isWardenEntry } from '../agent-install.js';

/**
 * The `hooks` object of agents whose events list their hook entries directly, without Claude Code's
 * matcher groups (Cursor's hooks.json, Copilot CLI's hook files): `{<event>: [{command, ...}]}`. The
 * user's entries are kept, Warden's earlier ones dropped, and Warden's added once per event; an event
 * left with no entry is left out.
 */
export function mergeFlatHooks(hooks: unknown, add: Record<string, Record<string, unknown>> | null, path: string): Record<string, unknown[]> {
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) throw new HookInstallError(`"hooks" in ${path} is not an object; nothing was changed`);
  const merged: Record<string, unknown[]> = {};
  for (const [event, entries] of Object.entries((hooks ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(entries)) throw new HookInstallError(`"hooks.${event}" in ${path} is not a list; nothing was changed`);
    const kept = entries.filter((entry) => !isWardenEntry(entry));
    if (kept.length) merged[event] = kept;
  }
  for (const [event, entry] of Object.entries(add ?? {})) merged[event] = [...(merged[event] ?? []), entry];
  return merged;
}

/** A configuration's `version`, which must be 1 where the agent's format has one (or absent, for a new file). */
export function checkVersionOne(config: Record<string, unknown>, path: string): void {
  if (config.version !== undefined && config.version !== 1) throw new HookInstallError(`${path} has version ${JSON.stringify(config.version)}, and Warden writes version 1 hooks; nothing was changed`);
}
