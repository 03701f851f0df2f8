import { partitionOf } from '@warden/contracts';
import type { SessionAddress } from '@warden/messaging';
import type { SessionBreakers } from '@warden/breakers';

/** The longest a Node timer can wait; later wake-ups are re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const keyOf = (address: SessionAddress) => `${address.agentId}\u0000${address.sessionId}`;

/**
 * One timer per session that wakes it when a clock reaches a warning or timeout, or an OPEN breaker
 * its reset time, so that a silent session still trips. A timer outlives the session in memory (the
 * wake loads it again); it goes when the session ends or its partition is given up.
 */
export class BreakerClocks {
  private readonly timers = new Map<string, { address: SessionAddress; timer: NodeJS.Timeout }>();
  private stopped = false;

  constructor(private readonly wake: (address: SessionAddress) => void) {}

  arm(breakers: SessionBreakers): void {
    const address = { agentId: breakers.agentId, sessionId: breakers.sessionId };
    this.disarm(address);
    if (this.stopped) return;
    const wakeAt = breakers.nextWakeAt(Date.now());
    if (wakeAt === undefined) return;
    const timer = setTimeout(() => {
      this.timers.delete(keyOf(address));
      this.wake(address);
    }, Math.min(Math.max(0, wakeAt - Date.now()), MAX_TIMER_MS));
    timer.unref();
    this.timers.set(keyOf(address), { address, timer });
  }

  /** Wakes the session after `delayMs`: a wake that failed, or a deadline already passed (0). */
  wakeIn(address: SessionAddress, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => this.wake(address), delayMs);
    timer.unref();
  }

  disarm(address: SessionAddress): void {
    const armed = this.timers.get(keyOf(address));
    if (armed) clearTimeout(armed.timer);
    this.timers.delete(keyOf(address));
  }

  release(partition: number, partitions: number): void {
    for (const { address } of [...this.timers.values()]) if (partitionOf(address.sessionId, partitions) === partition) this.disarm(address);
  }

  stop(): void {
    this.stopped = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
