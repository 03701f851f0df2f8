import type { BreakerKind, BreakerStateName } from '@warden/contracts';
import type { CircuitSettings } from './breaker-settings.js';
import type { Measurement } from './measurement.js';

/** Why a breaker moved between states; the values of breaker.state_changed's `cause`. */
export type TransitionCause = 'threshold' | 'reset_timeout' | 'probe_succeeded' | 'probe_failed' | 'operator' | 'resolved';

export interface CircuitTransition {
  breaker: BreakerKind;
  from: BreakerStateName;
  to: BreakerStateName;
  reason: string;
  cause: TransitionCause;
  /** The moment of the transition, epoch ms. */
  at: number;
}

/** A breaker's state as it is stored between events. Times are epoch milliseconds. */
export interface CircuitSnapshot {
  state: BreakerStateName;
  opened_at?: number;
  retry_at?: number;
  /** OPEN periods since the breaker was last CLOSED: each lasts longer (backoff). */
  consecutive_opens: number;
  /** Probes passed in the current HALF_OPEN period. */
  probes_passed: number;
  reason?: string;
  suggestion?: string;
  /** Opened by an operator: stays OPEN until reset, no probing. */
  forced?: boolean;
  /** Disabled by an operator: neither trips nor blocks. */
  disabled?: boolean;
  /** The one action held back while OPEN, when the trip was about it repeating. */
  repeated_action?: { tool: string; target: string };
}

export function closedCircuit(): CircuitSnapshot {
  return { state: 'closed', consecutive_opens: 0, probes_passed: 0 };
}

/**
 * The state machine of seed 002 §1.2, with what mature breakers add: CLOSED trips to OPEN at the
 * threshold; OPEN turns HALF_OPEN after `reset_after_ms` (longer after each consecutive OPEN period, up
 * to `max_reset_after_ms`); in HALF_OPEN every evaluated event is a probe: one that would trip re-opens the
 * breaker, and `half_open_probes` that pass close it. Operators can force it open, disable it, or reset it.
 * Works on a snapshot in place, so the session can store it as it is.
 */
export class Circuit {
  constructor(
    readonly breaker: BreakerKind,
    private readonly settings: CircuitSettings,
    readonly snapshot: CircuitSnapshot,
  ) {}

  get state(): BreakerStateName {
    return this.snapshot.state;
  }

  /** Whether the breaker would block the session: OPEN, enforced, and not disabled. */
  get blocking(): boolean {
    return this.snapshot.state === 'open' && !this.snapshot.disabled && this.settings.mode === 'enforce';
  }

  /** Feeds one evaluation of the breaker's measure. Returns the transition it caused, if any. */
  observe(measurement: Measurement, now: number): CircuitTransition | null {
    const s = this.snapshot;
    if (s.disabled || !this.settings.enabled) return null;
    switch (s.state) {
      case 'closed':
        return measurement.level === 'trip' ? this.open(measurement, now, 'threshold') : null;
      case 'open':
        // Still open: keep the latest figures so the reviewer quotes them.
        if (measurement.level === 'trip' && measurement.reason) this.describe(measurement);
        return null;
      case 'half_open':
        if (measurement.level === 'trip') return this.open(measurement, now, 'probe_failed');
        s.probes_passed += 1;
        if (s.probes_passed < this.settings.half_open_probes) return null;
        return this.close(now, 'probe_succeeded', `${s.probes_passed} probe(s) passed`);
    }
  }

  /** Moves an OPEN breaker whose reset time has come to HALF_OPEN. */
  tick(now: number): CircuitTransition | null {
    const s = this.snapshot;
    if (s.state !== 'open' || s.forced || s.retry_at === undefined || now < s.retry_at) return null;
    s.state = 'half_open';
    s.probes_passed = 0;
    delete s.retry_at;
    return { breaker: this.breaker, from: 'open', to: 'half_open', reason: 'reset timeout elapsed; probing', cause: 'reset_timeout', at: now };
  }

  /** When the breaker next needs a tick, if it is waiting for one. */
  nextWakeAt(): number | undefined {
    const s = this.snapshot;
    return s.state === 'open' && !s.forced && !s.disabled ? s.retry_at : undefined;
  }

  forceOpen(now: number, reason: string): CircuitTransition | null {
    const from = this.snapshot.state;
    Object.assign(this.snapshot, { state: 'open', opened_at: now, forced: true, probes_passed: 0, reason, suggestion: 'An operator opened this breaker; wait for them to reset it.' });
    delete this.snapshot.retry_at;
    delete this.snapshot.repeated_action;
    return from === 'open' ? null : { breaker: this.breaker, from, to: 'open', reason, cause: 'operator', at: now };
  }

  reset(now: number, reason: string): CircuitTransition | null {
    return this.snapshot.state === 'closed' ? null : this.close(now, 'operator', reason);
  }

  /**
   * Closes a breaker that holds back one repeated action once that action's target was dealt with: its
   * file read or written anew, so that the next attempt is no blind repeat. Any other hold stays.
   */
  release(now: number, target: string, reason: string): CircuitTransition | null {
    const s = this.snapshot;
    if (s.state === 'closed' || s.forced || s.repeated_action?.target !== target) return null;
    return this.close(now, 'resolved', reason);
  }

  setDisabled(disabled: boolean): boolean {
    const changed = Boolean(this.snapshot.disabled) !== disabled;
    if (disabled) this.snapshot.disabled = true;
    else delete this.snapshot.disabled;
    return changed;
  }

  private open(measurement: Measurement, now: number, cause: 'threshold' | 'probe_failed'): CircuitTransition {
    const s = this.snapshot;
    const from = s.state;
    s.consecutive_opens += 1;
    const period = Math.min(
      this.settings.reset_after_ms * this.settings.backoff_multiplier ** (s.consecutive_opens - 1),
      this.settings.max_reset_after_ms,
    );
    Object.assign(s, { state: 'open', opened_at: now, retry_at: now + period, probes_passed: 0 });
    this.describe(measurement);
    const reason = cause === 'probe_failed' ? `${measurement.reason ?? 'threshold reached'} (failed during recovery)` : (measurement.reason ?? 'threshold reached');
    return { breaker: this.breaker, from, to: 'open', reason, cause, at: now };
  }

  private close(now: number, cause: TransitionCause, reason: string): CircuitTransition {
    const from = this.snapshot.state;
    Object.assign(this.snapshot, closedCircuit());
    // An operator's disable outlives the close; everything about the last OPEN period goes.
    for (const key of ['opened_at', 'retry_at', 'reason', 'suggestion', 'forced', 'repeated_action'] as const) delete this.snapshot[key];
    return { breaker: this.breaker, from, to: 'closed', reason, cause, at: now };
  }

  private describe(measurement: Measurement): void {
    if (measurement.reason) this.snapshot.reason = measurement.reason;
    if (measurement.suggestion) this.snapshot.suggestion = measurement.suggestion;
    if (measurement.repeated_action) this.snapshot.repeated_action = measurement.repeated_action;
    else delete this.snapshot.repeated_action;
  }
}
