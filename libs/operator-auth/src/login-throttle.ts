/**
 * Slows password guessing: after `maxFailures` failed logins for an operator id within `windowMs`, that
 * id is refused until the window has passed since its first failure. Per process (each console replica
 * counts its own), which bounds guessing to a handful per window per replica.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly maxFailures = 5,
    private readonly windowMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until the id may try again; 0 when it may now. */
  retryAfterMs(operatorId: string): number {
    const entry = this.failures.get(operatorId);
    if (!entry) return 0;
    const left = entry.since + this.windowMs - this.now();
    if (left <= 0) {
      this.failures.delete(operatorId);
      return 0;
    }
    return entry.count >= this.maxFailures ? left : 0;
  }

  failed(operatorId: string): void {
    const now = this.now();
    const entry = this.failures.get(operatorId);
    if (!entry || entry.since + this.windowMs <= now) this.failures.set(operatorId, { count: 1, since: now });
    else entry.count++;
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
  }

  succeeded(operatorId: string): void {
    this.failures.delete(operatorId);
  }
}
