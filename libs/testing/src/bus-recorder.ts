import type { NatsConnection, Subscription } from '@nats-io/transport-node';

export interface RecordedMessage<T = Record<string, unknown>> {
  subject: string;
  body: T;
  headers: Record<string, string>;
}

/**
 * Records every message on a subject (core NATS, so it sees what JetStream stores as it is published)
 * and lets a test wait for the ones it expects.
 */
export class BusRecorder<T = Record<string, unknown>> {
  readonly messages: RecordedMessage<T>[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly sub: Subscription;

  private constructor(nc: NatsConnection, readonly subject: string) {
    const sub = nc.subscribe(subject);
    this.sub = sub;
    void (async () => {
      for await (const msg of sub) {
        let body: T;
        try {
          body = msg.json<T>();
        } catch {
          body = { raw: msg.string() } as T;
        }
        const headers: Record<string, string> = {};
        for (const [key, values] of msg.headers ?? []) headers[key] = values[0] ?? '';
        this.messages.push({ subject: msg.subject, body, headers });
        for (const wake of this.waiters) wake();
      }
    })();
  }

  static async start<T = Record<string, unknown>>(nc: NatsConnection, subject: string): Promise<BusRecorder<T>> {
    const recorder = new BusRecorder<T>(nc, subject);
    await nc.flush();
    return recorder;
  }

  bodies(): T[] {
    return this.messages.map((m) => m.body);
  }

  /** Resolves with the first recorded message matching, waiting for it if needed. */
  async waitFor(predicate: (message: RecordedMessage<T>) => boolean, timeoutMs = 10_000): Promise<RecordedMessage<T>> {
    const found = await this.waitForCount(1, timeoutMs, predicate);
    return found[0]!;
  }

  /** Resolves once `count` matching messages were recorded. */
  async waitForCount(
    count: number,
    timeoutMs = 10_000,
    predicate: (message: RecordedMessage<T>) => boolean = () => true,
  ): Promise<RecordedMessage<T>[]> {
    const matching = () => this.messages.filter(predicate);
    if (matching().length >= count) return matching();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`timed out after ${timeoutMs} ms on ${this.subject}: ${matching().length} of ${count} messages`));
      }, timeoutMs);
      const wake = () => {
        if (matching().length >= count) {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve(matching());
        }
      };
      this.waiters.add(wake);
    });
  }

  stop(): void {
    this.sub.unsubscribe();
  }
}
