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
  /** Per action signature: how many times in a row it failed with the same failure signature. */
  repeats?: Record<string, RepeatRun>;
}

/** One action failing the same way again and again. */
export interface RepeatRun {
  tool: string;
  target: string;
  failure: string;
  count: number;
  /** When the run's last failure was reported (epoch ms): an attempt proposed before it had not seen it. */
  reported_at?: number;
  /** The model response of the run's last counted failure: another call of it had not seen that failure. */
  turn?: string;
}

/** An attempt of an action, as the outcome reports it. */
export interface Attempt {
  signature: string;
  tool: string;
  target: string;
  failed: boolean;
  /** The failure's signature (error class and folded text); absent for a success. */
  failure?: string;
  /** When the attempt was proposed and when its outcome was reported (epoch ms), where known. */
  proposedAt?: number;
  reportedAt?: number;
  /** The model response it came in, when the agent says. */
  turn?: string;
}

/** Actions whose failures are followed at once; older runs are forgotten first. */
const MAX_REPEAT_RUNS = 32;

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

  /**
   * Repetition without progress: the same action (tool and target) failing with the same failure again.
   * A success of that action, or a different failure, ends the run. Reads nothing when there is no run to
   * speak of, so that a successful action does not disturb the count readings.
   */
  recordAttempt(phase: Phase | undefined, attempt: Attempt): Measurement | null {
    const repeats = (this.snapshot.repeats ??= {});
    const run = repeats[attempt.signature];
    if (!attempt.failed) {
      // Another tool that succeeds on the same target (the file a failing edit names, read again) gives the
      // next attempt something new to go on: it is no blind repeat of the ones before.
      for (const [signature, other] of Object.entries(repeats)) if (signature !== attempt.signature && other.target === attempt.target) delete repeats[signature];
      if (!run) return null;
      delete repeats[attempt.signature];
      return { breaker: 'iteration', level: 'ok', current: 0, threshold: this.settings.repeated_failures, ...(phase ? { phase } : {}) };
    }
    const failure = attempt.failure ?? '';
    // Calls made together (a batch of parallel edits, the calls of one model response) fail together: one
    // made before the last failure was reported, or in the same response, had not seen it, so it is no retry
    // of it. Claude Code runs the calls of one response one after another, so only the response tells.
    const concurrent =
      (run?.reported_at !== undefined && attempt.proposedAt !== undefined && attempt.proposedAt < run.reported_at) || (attempt.turn !== undefined && attempt.turn === run?.turn);
    const reported = attempt.reportedAt !== undefined ? { reported_at: Math.max(attempt.reportedAt, run?.reported_at ?? 0) } : {};
    const turn = attempt.turn !== undefined ? { turn: attempt.turn } : {};
    const next: RepeatRun =
      run && run.failure === failure ? { ...run, count: run.count + (concurrent ? 0 : 1), ...reported, ...turn } : { tool: attempt.tool, target: attempt.target, failure, count: 1, ...reported, ...turn };
    delete repeats[attempt.signature];
    repeats[attempt.signature] = next;
    const keys = Object.keys(repeats);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_REPEAT_RUNS))) delete repeats[key];
    const limit = this.settings.repeated_failures;
    // 0 switches the check off (the seed has none).
    if (limit < 2) return null;
    const base = { breaker: 'iteration' as const, current: next.count, threshold: limit, ...(phase ? { phase } : {}) };
    const shown = next.target.length > 160 ? `${next.target.slice(0, 157)}...` : next.target;
    if (next.count >= limit) {
      return {
        ...base,
        level: 'trip',
        reason: 'REPEATED_FAILURE',
        repeated_action: { tool: next.tool, target: next.target },
        suggestion: `${next.tool} \`${shown}\` failed ${next.count} times in a row with the same error: running it again will fail again. Read the error and change its cause, try another way, or ask for help. Warden holds back this one action; the rest of your work goes on.`,
      };
    }
    if (next.count >= Math.max(2, Math.ceil(limit * this.settings.warning))) {
      return { ...base, level: 'warning', reason: 'REPEATED_FAILURE_WARNING', suggestion: `${next.tool} \`${shown}\` failed ${next.count} times in a row with the same error.` };
    }
    return { ...base, level: 'ok' };
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
    delete this.snapshot.repeats;
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
