import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/nats-core';
import { JetStreamApiError } from '@nats-io/jetstream';

/** JetStream's answer while a cluster has no meta leader (every server restarted, an election under way). */
export const JETSTREAM_UNAVAILABLE = 10008;

/** How long a service waits at start for a JetStream that is still electing its leaders before it gives up. */
export const JETSTREAM_SETTLE_MS = 60_000;

/**
 * What a JetStream API request meets while the cluster settles after a restart: the "temporarily unavailable"
 * answer, no responder yet, or no answer in time. Other errors (a missing consumer, a refused permission)
 * are answers and are not waited out.
 */
export function isJetStreamSettling(error: unknown): boolean {
  if (error instanceof JetStreamApiError) return error.code === JETSTREAM_UNAVAILABLE;
  if (error instanceof RequestError) return error.isNoResponders() || error.cause instanceof TimeoutError || error.cause instanceof NoRespondersError;
  return error instanceof TimeoutError || error instanceof NoRespondersError;
}

export interface SettleOptions {
  /** Give up after this long (default JETSTREAM_SETTLE_MS). */
  waitMs?: number;
  /** Told before each wait, with the error that caused it. */
  onWait?: (error: unknown, attempt: number, delayMs: number) => void;
  /** The wait itself (tests pass their own clock). */
  delay?: (ms: number) => Promise<unknown>;
  now?: () => number;
}

/** Runs `work` again, backing off from 250 ms to 5 s, for as long as JetStream is settling and the wait lasts. */
export async function whileJetStreamSettles<T>(work: () => Promise<T>, options: SettleOptions = {}): Promise<T> {
  const now = options.now ?? Date.now;
  const delay = options.delay ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + (options.waitMs ?? JETSTREAM_SETTLE_MS);
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const wait = Math.min(250 * 2 ** (attempt - 1), 5_000);
      if (!isJetStreamSettling(error) || now() + wait > deadline) throw error;
      options.onWait?.(error, attempt, wait);
      await delay(wait);
    }
  }
}
