import type { Phase } from '@warden/contracts';
import { priceModelCall, type ModelPrice, type PricedCall, type TokenUsage } from '@warden/pricing';
import type { CostSettings } from './breaker-settings.js';
import { phaseKey, type PhaseKey } from './iteration-measure.js';
import { levelOf, mostSevere, usd, type Measurement } from './measurement.js';

export interface CostSnapshot {
  /** USD spent per phase of this run. */
  phase: Partial<Record<PhaseKey, number>>;
  /** USD spent in this run. */
  run: number;
}

/**
 * Prices a model call (seed 002 §3.1, per 1,000 tokens) from Warden's price table with the configured
 * prices laid over it: cache reads and writes at their own prices, a model not listed by its family or
 * the documented fallback — the same prices the pattern detector uses.
 */
export function priceCall(pricing: Readonly<Record<string, ModelPrice>>, model: string, tokens: TokenUsage): PricedCall {
  return priceModelCall(model, tokens, pricing);
}

/**
 * What an agent past a budget is told to wait for: a budget does not heal by waiting. An operator raises
 * it (`cost.budgets` in BREAKER_CONFIG) or resets the cost breaker, which starts the run's count again.
 */
export const RAISE_OR_RESET =
  'Further changes are held until an operator raises the budget or resets the cost breaker (Reset cost breaker on the session\'s page in the console, or `warden breaker reset <agent> <session> --breaker cost`).';

/**
 * The cost breaker's measure (seed 002 §3.2): spending of the phase, of the run, and of the agent's
 * rolling day against their budgets. The day's total comes from outside, because it spans sessions.
 */
export class CostMeasure {
  constructor(
    private readonly settings: CostSettings,
    readonly snapshot: CostSnapshot,
  ) {}

  static empty(): CostSnapshot {
    return { phase: {}, run: 0 };
  }

  record(phase: Phase | undefined, cost: number): void {
    const key = phaseKey(phase);
    this.snapshot.phase[key] = (this.snapshot.phase[key] ?? 0) + cost;
    this.snapshot.run += cost;
  }

  /** The most severe of the phase, run and day readings, in the seed's order. */
  evaluate(phase: Phase | undefined, dayTotal: number): Measurement {
    const { budgets, warning } = this.settings;
    const name = phase ?? 'default';
    const phaseSpent = this.snapshot.phase[phaseKey(phase)] ?? 0;
    const phaseBudget = budgets.per_phase[phaseKey(phase)];
    const readings = [
      this.reading(phase, 'PHASE', phaseSpent, phaseBudget, warning, {
        trip: `Phase ${name} spent ${usd(phaseSpent)} of its ${usd(phaseBudget)} budget. ${RAISE_OR_RESET}`,
        warning: `Phase ${name} at ${usd(phaseSpent)} of ${usd(phaseBudget)} budget.`,
      }),
      this.reading(phase, 'RUN', this.snapshot.run, budgets.per_run, warning, {
        trip: `Run spent ${usd(this.snapshot.run)} of its ${usd(budgets.per_run)} budget. ${RAISE_OR_RESET}`,
        warning: `Run at ${usd(this.snapshot.run)} of ${usd(budgets.per_run)} budget.`,
      }),
      this.reading(phase, 'DAILY', dayTotal, budgets.per_day, warning, {
        trip: `Daily budget of ${usd(budgets.per_day)} exceeded. Operations halted until spending falls out of the rolling day.`,
        warning: `Daily spending at ${usd(dayTotal)} of ${usd(budgets.per_day)} budget.`,
      }),
    ];
    // A session that declares no phase (Claude Code, Codex) spends its run: the run's reading is named first.
    if (!phase) readings.unshift(readings.splice(1, 1)[0]!);
    return mostSevere(readings);
  }

  /** Forgets the run's spending (an operator reset). The agent's day is not the session's to forget. */
  reset(): void {
    Object.assign(this.snapshot, CostMeasure.empty());
  }

  private reading(
    phase: Phase | undefined,
    scope: 'PHASE' | 'RUN' | 'DAILY',
    spent: number,
    budget: number,
    warning: number,
    suggestions: { trip: string; warning: string },
  ): Measurement {
    const level = levelOf(spent, budget, warning);
    const base = { breaker: 'cost' as const, level, current: spent, threshold: budget, ...(phase ? { phase } : {}) };
    if (level === 'trip') return { ...base, reason: `${scope}_BUDGET_EXCEEDED`, suggestion: suggestions.trip };
    if (level === 'warning') return { ...base, reason: `${scope}_BUDGET_WARNING`, suggestion: suggestions.warning };
    return base;
  }
}
