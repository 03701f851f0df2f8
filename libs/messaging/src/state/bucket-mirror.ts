import type { KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection, QueuedIterator } from '@nats-io/transport-node';
import { openBucket } from './record-store.js';

/** What a mirror tells its owner: each key's value as it changes, and when a new watch starts over. */
export interface MirrorListener<T> {
  /** `value` is null when the key was deleted or purged. */
  entry(key: string, value: T | null): void;
  /** A new watch replays every key: what was learnt from the previous one may include deleted keys. */
  restarted?(): void;
  /** A value that does not parse is skipped; the owner may log it. */
  invalid?(key: string): void;
  /** The bucket could not be watched (or the watch ended); the mirror tries again after `retryMs`. */
  unavailable?(error: unknown): void;
}

export interface MirrorOptions<T> {
  /** Parses a stored value; null for one that does not match its schema. */
  parse: (bytes: Uint8Array) => T | null;
  retryMs?: number;
}

/**
 * Follows one KV bucket into memory: the last value of every key first, then every change, so that a
 * hot path reads it without a round trip. A bucket that is not there yet, or a watch that ends, is
 * tried again until `stop`. `watching` is what readiness reports.
 */
export class BucketMirror<T> {
  private watch?: QueuedIterator<KvWatchEntry>;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly nc: NatsConnection,
    readonly bucket: string,
    private readonly listener: MirrorListener<T>,
    private readonly options: MirrorOptions<T>,
  ) {}

  get watching(): boolean {
    return this.watch !== undefined;
  }

  /** Resolves after the first attempt to watch, whether or not the bucket was there. */
  async start(): Promise<void> {
    if (this.stopped || this.watch) return;
    try {
      const kv = await openBucket(this.nc, this.bucket);
      const watch = await kv.watch();
      this.listener.restarted?.();
      this.watch = watch;
      void this.follow(watch);
    } catch (error) {
      this.listener.unavailable?.(error);
      this.later();
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.watch?.stop();
    this.watch = undefined;
  }

  private async follow(watch: QueuedIterator<KvWatchEntry>): Promise<void> {
    try {
      for await (const entry of watch) this.apply(entry);
      if (!this.stopped) throw new Error(`the watch of ${this.bucket} ended`);
    } catch (error) {
      if (this.stopped) return;
      this.listener.unavailable?.(error);
      if (this.watch === watch) this.watch = undefined;
      this.later();
    }
  }

  private apply(entry: KvWatchEntry): void {
    if (entry.operation !== 'PUT') return this.listener.entry(entry.key, null);
    const value = this.options.parse(entry.value);
    if (value === null) return this.listener.invalid?.(entry.key);
    this.listener.entry(entry.key, value);
  }

  private later(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => void this.start(), this.options.retryMs ?? 2_000);
    this.retry.unref();
  }
}
