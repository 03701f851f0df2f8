import { nextDeadline, type PendingRequest } from '@warden/gate';

/** A retry of a failed timeout waits this long. */
const RETRY_MS = 1_000;

/**
 * One timer per pending human-gate request, for its next deadline (an escalation step or the final one),
 * armed by whichever replica owns the session (again after a takeover or a restart, from the stored
 * requests, so that a deadline passed meanwhile fires at once): no polling.
 */
export class GateTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly fire: (agentId: string, sessionId: string, requestId: string) => void,
    private readonly now: () => Date,
  ) {}

  arm(agentId: string, sessionId: string, pending: PendingRequest): void {
    if (this.stopped || this.timers.has(pending.request_id)) return;
    const delay = Math.max(0, nextDeadline(pending) - this.now().getTime());
    this.set(pending.request_id, delay, () => this.fire(agentId, sessionId, pending.request_id));
  }

  /** The timer fired: it is no longer armed. */
  fired(requestId: string): void {
    this.timers.delete(requestId);
  }

  /** A timeout failed: it fires again shortly. */
  retry(agentId: string, sessionId: string, requestId: string): void {
    if (!this.stopped) this.set(requestId, RETRY_MS, () => this.fire(agentId, sessionId, requestId));
  }

  disarm(requests: readonly PendingRequest[]): void {
    for (const pending of requests) {
      clearTimeout(this.timers.get(pending.request_id));
      this.timers.delete(pending.request_id);
    }
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private set(requestId: string, delay: number, fire: () => void): void {
    const timer = setTimeout(fire, delay);
    timer.unref();
    this.timers.set(requestId, timer);
  }
}
