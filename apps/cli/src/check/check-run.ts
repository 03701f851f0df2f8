import { StepReviewer, type ProposedAction } from '@warden/review';
import type { CheckItem } from './check-input.js';

/** What the reviewer said about one item. */
export interface CheckResult {
  item: CheckItem;
  verdict: string;
  /** The rule (or other part of the reviewer) that decided: the strongest rule hit, else what decided_by names. */
  decidedBy: string;
  reasons: string[];
  modifiedInput?: Record<string, unknown>;
  /** For a labelled item: whether the verdict is what its label asks for. */
  matches?: boolean;
}

const STOPPED = new Set(['block', 'require_approval']);

/** Does a verdict agree with the item's label? `block` wants it stopped, `allow` wants it to run; `verdicts` names exact ones. */
export function agrees(item: CheckItem, verdict: string): boolean | undefined {
  if (item.verdicts?.length) return item.verdicts.includes(verdict);
  if (!item.expected) return undefined;
  return item.expected === 'block' ? STOPPED.has(verdict) : !STOPPED.has(verdict);
}

export function isStopped(verdict: string): boolean {
  return STOPPED.has(verdict);
}

/**
 * Reviews each item in process, each in a fresh session whose working directory (and so its scope) is
 * the item's `cwd` or the given one: as if an agent proposed it as the first action of a session.
 */
export function checkItems(items: readonly CheckItem[], options: { settings?: unknown; reviewer?: StepReviewer; cwd: string; onProgress?: (done: number, total: number) => void }): CheckResult[] {
  const reviewer = options.reviewer ?? new StepReviewer(options.settings === undefined ? {} : { settings: options.settings });
  const results: CheckResult[] = [];
  items.forEach((item, i) => {
    const address = { agentId: 'warden-check', sessionId: `check-${i}` };
    const cwd = item.cwd && item.cwd.startsWith('/') ? item.cwd : options.cwd;
    reviewer.startSession(address, { context: { cwd, expected_paths: [`${cwd.replace(/\/+$/, '')}/**`] } });
    const action: ProposedAction = { action_id: `check-${i}`, kind: 'tool_use', tool: item.tool, input: item.input };
    const { verdict } = reviewer.review(action, address);
    reviewer.endSession(address);
    const result: CheckResult = {
      item,
      verdict: verdict.verdict,
      decidedBy: verdict.decided_by === 'rule' ? (verdict.rule_hits?.[0] ?? 'rule') : (verdict.decided_by ?? 'matrix'),
      reasons: verdict.reasons,
    };
    if (verdict.modified_input) result.modifiedInput = verdict.modified_input;
    const matches = agrees(item, verdict.verdict);
    if (matches !== undefined) result.matches = matches;
    results.push(result);
    options.onProgress?.(i + 1, items.length);
  });
  return results;
}
