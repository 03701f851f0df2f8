import { parse as parseYaml } from 'yaml';

/**
 * Warden's settings files and how they apply, for every service alike:
 *
 * - A file is JSON when its name ends in `.json` (any case) and YAML otherwise; an empty YAML file (or `null`) is `{}`.
 * - A service's settings may sit under its own top-level key (`breakers:`, `patterns:`,
 *   `interventions:`, `step_reviewer:`), or be the whole document (settingsSection).
 * - The merge rule (mergeSettings): the file goes over the documented defaults. Mappings merge key by key,
 *   as deep as they go; a list or a plain value in the file replaces the default whole; a key the file
 *   leaves out (or sets to undefined) keeps the default. Each service then checks the result against its
 *   schema, so an unknown key or a wrong type is an error naming the setting, never a default silently kept.
 */

export class SettingsFileError extends Error {}

export function isSettingsMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge of `override` over `base` by the rule above. Neither argument is changed. */
export function mergeSettings<T>(base: T, override: unknown): T {
  if (override === undefined) return base;
  if (!isSettingsMapping(base) || !isSettingsMapping(override)) return override as T;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = key in merged ? mergeSettings(merged[key], value) : value;
  return merged as T;
}

/** The service's part of a settings document: the mapping under `key` when there is one, else the whole document (`{}` for none). */
export function settingsSection(document: unknown, key: string): unknown {
  if (isSettingsMapping(document) && isSettingsMapping(document[key])) return document[key];
  return document ?? {};
}

export type SettingsFormat = 'json' | 'yaml';

export function settingsFormatOf(path: string): SettingsFormat {
  return path.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
}

/** The document of a settings file's text, by the format its name gives; throws SettingsFileError naming the file. */
export function parseSettingsText(text: string, path: string): unknown {
  const format = settingsFormatOf(path);
  try {
    return (format === 'json' ? JSON.parse(text) : parseYaml(text)) ?? {};
  } catch (error) {
    throw new SettingsFileError(`${path} is not valid ${format.toUpperCase()}: ${(error as Error).message}`);
  }
}
