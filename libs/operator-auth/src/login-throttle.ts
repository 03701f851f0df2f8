/** How many failed logins the throttle allows within its window. */
export interface LoginLimits {
  /** Failures for one operator id from one source (the default's 5). */
  perOperatorAndSource: number;
  /** Failures from one source, whatever ids it tries (guessing across operators). */
  perSource: number;
  /**
   * Failures for one operator id from all sources: past it the id is under attack, and every source
   * that has failed for it is refused (a source that has not, the operator's usual client, still logs in).
   */
  perOperator: number;
}

const DEFAULT_LIMITS: LoginLimits = { perOperatorAndSource: 5, perSource: 20, perOperator: 50 };

interface Count {
  count: number;
  since: number;
}

/**
 * Slows password guessing, per source (the client's address) as well as per operator id, without
 * letting anyone lock an operator out: failures count for the id from that source, for the source, and
 * for the id. A source is refused after `perOperatorAndSource` failures for one id, or `perSource` for
 * any ids; once an id has `perOperator` failures from all sources, each source that failed for it is
 * refused. A correct password from a source that has not failed (the operator's own browser) still
 * logs in. Each refusal lasts until the window has passed since the first failure it counts. Per
 * process (each console replica counts its own).
 */
export class LoginThrottle {
  private readonly limits: LoginLimits;
  private readonly pairs = new Map<string, Count>();
  private readonly sources = new Map<string, Count>();
  private readonly operators = new Map<string, Count>();

  constructor(
    limits: Partial<LoginLimits> | number = {},
    private readonly windowMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.limits = typeof limits === 'number' ? { ...DEFAULT_LIMITS, perOperatorAndSource: limits } : { ...DEFAULT_LIMITS, ...limits };
  }

  /** Milliseconds until this source may try this id again; 0 when it may now. */
  retryAfterMs(operatorId: string, source = ''): number {
    const pair = this.current(this.pairs, pairKey(operatorId, source));
    const bySource = this.current(this.sources, source);
    const byOperator = this.current(this.operators, operatorId);
    const waits = [0];
    if (pair && pair.count >= this.limits.perOperatorAndSource) waits.push(this.left(pair));
    if (bySource && bySource.count >= this.limits.perSource) waits.push(this.left(bySource));
    if (pair && byOperator && byOperator.count >= this.limits.perOperator) waits.push(Math.min(this.left(pair), this.left(byOperator)));
    return Math.max(...waits);
  }

  failed(operatorId: string, source = ''): void {
    this.count(this.pairs, pairKey(operatorId, source));
    this.count(this.sources, source);
    this.count(this.operators, operatorId);
  }

  /** A correct login forgets this source's failures for the id (not the source's nor the id's totals). */
  succeeded(operatorId: string, source = ''): void {
    this.pairs.delete(pairKey(operatorId, source));
  }

  private current(map: Map<string, Count>, key: string): Count | undefined {
    const entry = map.get(key);
    if (entry && this.left(entry) <= 0) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }

  private left(entry: Count): number {
    return entry.since + this.windowMs - this.now();
  }

  private count(map: Map<string, Count>, key: string): void {
    const entry = this.current(map, key);
    if (entry) entry.count++;
    else map.set(key, { count: 1, since: this.now() });
    // Bounded: the oldest entries go first.
    if (map.size > 10_000) map.delete(map.keys().next().value!);
  }
}

const pairKey = (operatorId: string, source: string) => `${source}\u0000${operatorId}`;
