/** What `eventually` waits for when no test is given: a value that is there (not null, undefined or false). */
const present = (value: unknown): boolean => value !== null && value !== undefined && value !== false;

export interface EventuallyOptions {
  /** Default 30 s: generous, because CI machines are shared and slow; a passing wait returns at once. */
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Reads until `accept` holds (by default: until the value is there) and returns what it read; throws with
 * `what` and the last value after the timeout. Tests wait for what the system does this way rather than
 * sleeping and then asserting.
 */
export function eventually<T>(what: string, read: () => T | Promise<T>, options?: EventuallyOptions): Promise<Exclude<T, null | undefined | false>>;
export function eventually<T>(what: string, read: () => T | Promise<T>, accept: (value: T) => boolean, options?: EventuallyOptions): Promise<T>;
export async function eventually<T>(
  what: string,
  read: () => T | Promise<T>,
  acceptOrOptions: ((value: T) => boolean) | EventuallyOptions = present,
  options: EventuallyOptions = {},
): Promise<T> {
  const accept = typeof acceptOrOptions === 'function' ? acceptOrOptions : present;
  const { timeoutMs = 30_000, intervalMs = 50 } = typeof acceptOrOptions === 'function' ? options : acceptOrOptions;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${(JSON.stringify(value) ?? String(value)).slice(0, 500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
