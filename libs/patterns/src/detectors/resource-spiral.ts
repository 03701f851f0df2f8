import type { Severity } from '@warden/contracts';
import { severityRank } from '../detector-settings.js';
import type { SessionState } from '../session-state.js';
import { confidenceFrom, type Finding, type SessionView } from './detector.js';

export const RESOURCES = ['file_operations_per_min', 'tokens_per_min', 'cost_usd_per_min', 'background_processes'] as const;
export type Resource = (typeof RESOURCES)[number];
export type ResourceFigures = Record<Resource, number>;

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Rates in the current resource window (the last `window_ms` up to the session's latest event) and in
 * the window before it; background processes are the running count at each window's end.
 */
export function resourceRates(state: SessionState, windowMs: number): { current: ResourceFigures; previous: ResourceFigures } {
  const now = state.now;
  const perMinute = 60_000 / windowMs;
  const current = { file_operations_per_min: 0, tokens_per_min: 0, cost_usd_per_min: 0, background_processes: state.resources.background };
  const previous = { file_operations_per_min: 0, tokens_per_min: 0, cost_usd_per_min: 0, background_processes: 0 };
  for (const slot of state.resources.slots) {
    const age = now - slot.t;
    const into = age < windowMs ? current : age < 2 * windowMs ? previous : undefined;
    if (!into) continue;
    into.file_operations_per_min += slot.file_operations * perMinute;
    into.tokens_per_min += slot.tokens * perMinute;
    into.cost_usd_per_min += slot.cost_usd * perMinute;
    if (into === previous) previous.background_processes = slot.background;
  }
  for (const figures of [current, previous]) for (const key of RESOURCES) figures[key] = round(figures[key]);
  return { current, previous };
}

/**
 * Resource use growing out of proportion: file operations, tokens, cost per minute and running
 * background processes, each compared with the window before. Growth is the current rate over the
 * previous one. A rate spirals when it grew by the configured factor from a window already above its
 * floor (running background processes: from any count, the floor taken as the least), or when it passed
 * its ceiling. The details carry what resource throttling needs.
 */
export function detectResourceSpiral(view: SessionView): Finding | undefined {
  const settings = view.settings.resource_spiral;
  const { current, previous } = resourceRates(view.state, settings.window_ms);
  const growth = {} as ResourceFigures;
  const spiralling: Resource[] = [];
  let severity: Severity | undefined;
  const raise = (s: Severity) => {
    if (!severity || severityRank(s) > severityRank(severity)) severity = s;
  };
  for (const key of RESOURCES) {
    const floor = settings.floors[key];
    growth[key] = round(current[key] / Math.max(previous[key], floor, 1e-9), 2);
    let level: Severity | undefined;
    // A spiral lasts: a rate grows from a window already above its floor. One minute's burst after a quiet
    // one (a subagent's fan-out, a cache written again after a pause) is no trend; the ceiling still catches
    // a burst too big to wait for.
    const sustained = key === 'background_processes' || previous[key] >= floor;
    if (current[key] >= floor && sustained) {
      if (growth[key] >= settings.growth.critical) level = 'critical';
      else if (growth[key] >= settings.growth.high) level = 'high';
      else if (growth[key] >= settings.growth.medium) level = 'medium';
    }
    if (current[key] >= settings.ceilings[key] && (!level || severityRank(level) < severityRank('high'))) level = 'high';
    if (level) {
      spiralling.push(key);
      raise(level);
    }
  }
  if (!severity) return undefined;
  const windowStart = view.state.now - settings.window_ms;
  const evidence = view.completed.filter((s) => s.at >= windowStart && (s.tokens || s.bg || s.files_touched || s.op === 'read' || s.op === 'write' || s.op === 'search')).map((s) => s.id);
  const top = Math.max(...spiralling.map((k) => growth[k]));
  return {
    severity,
    confidence: confidenceFrom(0.6, 0.1 * spiralling.length + 0.02 * Math.min(top, 10)),
    description: `Resource use is spiralling: ${spiralling.map((k) => `${k.replaceAll('_', ' ')} ${current[k]} (x${growth[k]})`).join(', ')} over the last ${Math.round(settings.window_ms / 1000)} s.`,
    evidence: evidence.slice(-50),
    details: {
      window_ms: settings.window_ms,
      spiralling,
      growth,
      current,
      previous,
      // The seed's names for the same growth figures (seed 000 ResourceThrottling.apply_throttling).
      file_operation_growth: growth.file_operations_per_min,
      token_usage_growth: growth.tokens_per_min,
      cost_growth: growth.cost_usd_per_min,
      background_process_growth: growth.background_processes,
      memory_growth: null,
    },
    magnitude: Math.max(1, Math.floor(top)),
  };
}
