import { hasPhaseProgress, type Phase, type PhaseProgress } from '@warden/contracts';
import type { IterationSettings } from './breaker-settings.js';
import type { Measurement } from './measurement.js';

export type PhaseKey = Phase | 'default';

export interface IterationSnapshot {
  /** Actions counted per phase. */
  counts: Partial<Record<PhaseKey, number>>;
  /** Consecutive progress reports without progress, per phase. */
  stagnation: Partial<Record<PhaseKey, number>>;
  /** The last progress report per phase, the baseline for the next (cumulative counters). */
  last_progress: Partial<Record<PhaseKey, PhaseProgress>>;
}

export const phaseKey = (phase: Phase | undefined): PhaseKey => phase ?? 'default';

/**
 * The iteration breaker's measure (seed 002 §2): actions per phase against the phase's limit, and
 * stagnation — consecutive progress reports that show no progress by the phase's definition.
 */
export class IterationMeasure {
  constructor(
    private readonly settings: IterationSettings,
    readonly snapshot: IterationSnapshot,
  ) {}

  static empty(): IterationSnapshot {
    return { counts: {}, stagnation: {}, last_progress: {} };
  }

  /** Counts one action of the phase and reads the count against the limit. */
  countAction(phase: Phase | undefined): Measurement {
    const key = phaseKey(phase);
    const count = (this.snapshot.counts[key] ?? 0) + 1;
    this.snapshot.counts[key] = count;
    return this.readCount(phase, count);
  }

  /** Judges one progress report; a run of reports without progress trips. */
  recordProgress(phase: Phase | undefined, progress: PhaseProgress): Measurement {
    const key = phaseKey(phase);
    const previous = this.snapshot.last_progress[key];
    this.snapshot.last_progress[key] = progress;
    const threshold = this.settings.stagnation_threshold;
    if (hasPhaseProgress(phase, progress, previous)) {
      this.snapshot.stagnation[key] = 0;
      return { breaker: 'iteration', level: 'ok', current: 0, threshold, ...(phase ? { phase } : {}) };
    }
    const stagnant = (this.snapshot.stagnation[key] ?? 0) + 1;
    this.snapshot.stagnation[key] = stagnant;
    if (stagnant < threshold) return { breaker: 'iteration', level: 'ok', current: stagnant, threshold, ...(phase ? { phase } : {}) };
    return {
      breaker: 'iteration',
      level: 'trip',
      reason: 'STAGNATION_DETECTED',
      current: stagnant,
      threshold,
      ...(phase ? { phase } : {}),
      suggestion: 'Agent is not making progress. Consider simplifying approach or requesting human input.',
    };
  }

  /** Forgets the phase's count and stagnation, as when the phase starts again. */
  resetPhase(phase: Phase | undefined): void {
    const key = phaseKey(phase);
    delete this.snapshot.counts[key];
    delete this.snapshot.stagnation[key];
    delete this.snapshot.last_progress[key];
  }

  reset(): void {
    Object.assign(this.snapshot, IterationMeasure.empty());
  }

  private readCount(phase: Phase | undefined, count: number): Measurement {
    const limit = this.settings.limits[phaseKey(phase)];
    const name = phase ?? 'default';
    const base = { breaker: 'iteration' as const, current: count, threshold: limit, ...(phase ? { phase } : {}) };
    // The seed allows `limit` iterations and trips on the one after.
    if (count > limit) {
      return {
        ...base,
        level: 'trip',
        reason: 'MAX_ITERATIONS_EXCEEDED',
        suggestion: `Phase ${name} exceeded ${limit} iterations. Task may be too complex or approach may be incorrect.`,
      };
    }
    if (count >= limit * this.settings.warning) {
      return { ...base, level: 'warning', reason: 'APPROACHING_ITERATION_LIMIT', suggestion: `${limit - count} iterations remaining in ${name} phase.` };
    }
    return { ...base, level: 'ok' };
  }
}
