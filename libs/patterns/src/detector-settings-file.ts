import { SEVERITIES } from '@warden/contracts';
import { isSettingsMapping, mergeSettings, settingsSection } from '@warden/settings';
import { DEFAULT_PATTERN_SETTINGS, type PatternSettings } from './detector-settings.js';

export class PatternSettingsError extends Error {}

/** Mappings whose keys are free (model names, severities) rather than settings. */
const OPEN_MAPPINGS = new Set(['pricing', 'severity']);

/**
 * Checks every value of `override` against the default it replaces: unknown keys, wrong types, negative
 * numbers and unknown modes are errors naming the setting, so a typo never silently leaves a default in
 * place. Returns the override with list items trimmed, to go over the defaults by the settings merge rule.
 */
function checked(base: unknown, override: unknown, path: string): unknown {
  if (override === undefined) return undefined;
  if (isSettingsMapping(base)) {
    if (!isSettingsMapping(override)) throw new PatternSettingsError(`${path || '/'} must be a mapping`);
    const open = OPEN_MAPPINGS.has(path.split('.').pop() ?? '');
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(override)) {
      const where = path ? `${path}.${key}` : key;
      if (key in base) result[key] = checked(base[key], value, where);
      else if (open) result[key] = checkOpen(path, where, value);
      else throw new PatternSettingsError(`${where} is not a pattern detector setting`);
    }
    return result;
  }
  if (Array.isArray(base)) {
    if (!Array.isArray(override) || override.some((item) => typeof item !== 'string' || !item.trim())) {
      throw new PatternSettingsError(`${path} must be a list of non-empty strings`);
    }
    return override.map((item: string) => item.trim());
  }
  if (typeof base === 'number') {
    if (typeof override !== 'number' || !Number.isFinite(override) || override < 0) throw new PatternSettingsError(`${path} must be a number >= 0`);
    return override;
  }
  if (typeof base === 'boolean') {
    if (typeof override !== 'boolean') throw new PatternSettingsError(`${path} must be true or false`);
    return override;
  }
  if (path.endsWith('.mode')) {
    if (override !== 'enforce' && override !== 'shadow') throw new PatternSettingsError(`${path} must be enforce or shadow`);
    return override;
  }
  if (typeof override !== 'string') throw new PatternSettingsError(`${path} must be a string`);
  return override;
}

function checkOpen(mapping: string, where: string, value: unknown): unknown {
  if (mapping.endsWith('severity')) {
    const severity = where.split('.').pop()!;
    if (!(SEVERITIES as readonly string[]).includes(severity)) throw new PatternSettingsError(`${where}: severities are ${SEVERITIES.join(', ')}`);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new PatternSettingsError(`${where} must be a whole number >= 1`);
    return value;
  }
  const price = value as Record<string, unknown>;
  const known = ['input', 'output', 'cache_read', 'cache_write'];
  const valid =
    isSettingsMapping(value) &&
    typeof price['input'] === 'number' &&
    typeof price['output'] === 'number' &&
    Object.entries(price).every(([key, v]) => known.includes(key) && typeof v === 'number' && v >= 0);
  if (!valid) throw new PatternSettingsError(`${where} must be { input, output, cache_read?, cache_write? } in USD per 1,000 tokens`);
  return value;
}

/**
 * Pattern detector settings from a configuration document (parsed from YAML or JSON; optionally under
 * a top-level `patterns:` key) over DEFAULT_PATTERN_SETTINGS, by the settings merge rule (@warden/settings).
 */
export function resolvePatternSettings(document: unknown = {}): PatternSettings {
  const root = settingsSection(document, 'patterns');
  if (!isSettingsMapping(root)) throw new PatternSettingsError('pattern detector configuration must be a mapping');
  const settings = mergeSettings(DEFAULT_PATTERN_SETTINGS, checked(DEFAULT_PATTERN_SETTINGS, root, ''));
  for (const [name, value] of [
    ['window.max_actions', settings.window.max_actions],
    ['episode.quiet_evaluations', settings.episode.quiet_evaluations],
    ['hallucination.window_actions', settings.hallucination.window_actions],
    ['traps.reaction_actions', settings.traps.reaction_actions],
    ['assumption_trap.guessed_endpoints', settings.assumption_trap.guessed_endpoints],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new PatternSettingsError(`${name} must be a whole number >= 1`);
  }
  const ladders = [
    ...(['repetitive_errors', 'polling_loop', 'scope_creep', 'goal_drift', 'hallucination', 'stagnation'] as const).map((name) => [name, settings[name].severity] as const),
    ['claims.false_success', settings.claims.false_success.severity] as const,
    ['claims.unchecked_blame', settings.claims.unchecked_blame.severity] as const,
    ['claims.disputed_rounds', settings.claims.disputed_rounds.severity] as const,
  ];
  for (const [name, ladder] of ladders) {
    let last = 0;
    for (const severity of SEVERITIES) {
      const at = ladder[severity];
      if (at === undefined) continue;
      if (!Number.isInteger(at) || at < 1) throw new PatternSettingsError(`${name}.severity.${severity} must be a whole number >= 1`);
      if (at < last) throw new PatternSettingsError(`${name}.severity must not fall from low to critical (${severity} is ${at})`);
      last = at;
    }
    if (!last) throw new PatternSettingsError(`${name}.severity needs at least one severity`);
  }
  if (settings.window.max_actions > 1000) throw new PatternSettingsError('window.max_actions must not exceed 1000 (state is kept per session)');
  if (settings.episode.escalation_growth <= 1) throw new PatternSettingsError('episode.escalation_growth must be greater than 1');
  if (settings.resource_spiral.window_ms < 1000) throw new PatternSettingsError('resource_spiral.window_ms must be at least 1000');
  const { growth } = settings.resource_spiral;
  if (!(growth.medium <= growth.high && growth.high <= growth.critical)) throw new PatternSettingsError('resource_spiral.growth must rise from medium to critical');
  return settings;
}
