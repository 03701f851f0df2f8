import { isStopped, type CheckResult } from './check-run.js';

/** The figures of labelled vectors: how many dangerous ones were stopped, how many safe ones were held or warned. */
export interface Figures {
  dangerous: number;
  safe: number;
  /** Dangerous vectors blocked or held for approval, in %. */
  dangerousStopped: number;
  /** Safe vectors blocked or held for approval, in %. */
  safeStopped: number;
  /** Safe vectors let through with a warning, in %. */
  safeWarned: number;
}

export interface CheckSummary {
  total: number;
  verdicts: Record<string, number>;
  labelled: number;
  mismatches: CheckResult[];
  all?: Figures;
  byTag: Record<string, Figures>;
  byFamily: Record<string, Figures>;
}

const percent = (part: number, whole: number) => (whole ? Math.round((1000 * part) / whole) / 10 : 0);

export function figuresOf(results: readonly CheckResult[]): Figures {
  const dangerous = results.filter((r) => r.item.expected === 'block');
  const safe = results.filter((r) => r.item.expected === 'allow');
  return {
    dangerous: dangerous.length,
    safe: safe.length,
    dangerousStopped: percent(dangerous.filter((r) => isStopped(r.verdict)).length, dangerous.length),
    safeStopped: percent(safe.filter((r) => isStopped(r.verdict)).length, safe.length),
    safeWarned: percent(safe.filter((r) => r.verdict === 'warn').length, safe.length),
  };
}

function groupBy(results: readonly CheckResult[], key: (r: CheckResult) => string | undefined): Record<string, Figures> {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) {
    const name = key(result);
    if (name === undefined) continue;
    groups.set(name, [...(groups.get(name) ?? []), result]);
  }
  return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([name, group]) => [name, figuresOf(group)]));
}

export function summarise(results: readonly CheckResult[]): CheckSummary {
  const verdicts: Record<string, number> = {};
  for (const r of results) verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
  const labelled = results.filter((r) => r.item.expected !== undefined || r.item.verdicts?.length);
  const summary: CheckSummary = {
    total: results.length,
    verdicts,
    labelled: labelled.length,
    mismatches: labelled.filter((r) => r.matches === false),
    byTag: groupBy(labelled, (r) => r.item.tag),
    byFamily: groupBy(labelled, (r) => r.item.family),
  };
  if (labelled.some((r) => r.item.expected)) summary.all = figuresOf(labelled);
  return summary;
}
