import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { ConsumerSpec } from '../topology/topology.js';
import type { ConcurrencyLimit } from './concurrency-limit.js';

/** Messages the client keeps buffered per consumer; the server keeps the rest. */
const BUFFERED_MESSAGES = 128;

/**
 * How long one pull waits on the server before the client pulls again. The server sends an idle
 * heartbeat every 30 s of it (nats.js's most); 2 minutes instead of nats.js's 30 s leaves an idle
 * consumer 5 messages per 2 minutes instead of 12, and a suite has hundreds of consumers. A pull the
 * server lost is found by the missed heartbeats, the stall check, or the reopen after a reconnect.
 */
const PULL_EXPIRES_MS = 120_000;

/** How long `stop` waits for handlers in flight; what is still running then is redelivered to the next owner. */
export const DRAIN_TIMEOUT_MS = 10_000;

/** A consumer whose messages ended without `stop` is opened again after this long. */
const REOPEN_MS = 1_000;

/**
 * How often a consumer checks that it still has a pull outstanding when it received nothing: every
 * 10 s after it was opened, reopened or last received, then less often for as long as it stays idle
 * and healthy (each check is a request to the server, and an idle suite has hundreds of consumers).
 */
const STALL_CHECK_MS = 10_000;
const IDLE_STALL_CHECK_MS = 60_000;

/**
 * Pulls one durable consumer and hands each message to `process` without waiting for the previous one
 * (the process function decides ordering), bounded by the service-wide concurrency limit. `stop` stops
 * pulling and waits for the messages in flight, so a released partition is handed over drained.
 */
export class ChannelConsumer {
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private received = 0;
  private receivedAtCheck = 0;
  private watchdog?: NodeJS.Timeout;
  private checkEveryMs = STALL_CHECK_MS;

  constructor(
    private readonly js: JetStreamClient,
    readonly spec: ConsumerSpec,
    private readonly process: (message: JsMsg, spec: ConsumerSpec) => Promise<void>,
    private readonly limit: ConcurrencyLimit,
    private readonly onError: (error: Error) => void,
  ) {}

  async start(): Promise<void> {
    this.stopping = false;
    this.checkEveryMs = STALL_CHECK_MS;
    const messages = await this.open();
    this.loop = this.pull(messages);
    this.scheduleCheck();
  }

  private scheduleCheck(): void {
    clearTimeout(this.watchdog);
    if (this.stopping) return;
    this.watchdog = setTimeout(() => void this.checkStalled().finally(() => this.scheduleCheck()), this.checkEveryMs);
    this.watchdog.unref();
  }

  /**
   * Messages wait on the server, none came since the last check and no pull is outstanding: the
   * client lost its pull (a consumer recreated while its replicas elected a leader, a cluster restart)
   * and is opened anew. A consumer that is merely idle has a pull waiting and is left alone.
   */
  private async checkStalled(): Promise<void> {
    const received = this.received;
    const idle = received === this.receivedAtCheck;
    this.receivedAtCheck = received;
    if (!idle) this.checkEveryMs = STALL_CHECK_MS;
    if (!idle || this.stopping) return;
    try {
      // `get` reads the consumer's info from the server: one request, not a second `info()` on top.
      const info = await (await this.js.consumers.get(this.spec.stream, this.spec.name)).info(true);
      if (info.num_pending > 0 && info.num_waiting === 0 && this.received === received) this.reopen();
      else this.checkEveryMs = Math.min(this.checkEveryMs * 2, IDLE_STALL_CHECK_MS);
    } catch {
      // The bus is away: the reconnect reopens the consumer, or the next check does.
    }
  }

  /** Hands messages on until `stop`; an iterator that ends on its own (the consumer lost with the bus) is opened again. */
  private async pull(first: ConsumerMessages): Promise<void> {
    let messages: ConsumerMessages | undefined = first;
    while (!this.stopping) {
      if (messages) {
        try {
          for await (const message of messages) {
            this.received++;
            await this.limit.acquire();
            const work = this.process(message, this.spec)
              .catch((error: Error) => this.onError(error))
              .finally(() => {
                this.limit.release();
                this.inFlight.delete(work);
              });
            this.inFlight.add(work);
          }
        } catch (error) {
          this.onError(error as Error);
        }
      }
      if (this.stopping) return;
      await new Promise((resolve) => setTimeout(resolve, REOPEN_MS));
      if (this.stopping) return;
      messages = await this.open().catch((error: Error) => {
        this.onError(error);
        return undefined;
      });
      // Stopped while it was opened: `stop` closed the one before.
      if (this.stopping) await messages?.close();
    }
  }

  private async open(): Promise<ConsumerMessages> {
    const consumer = await this.js.consumers.get(this.spec.stream, this.spec.name);
    const messages = await consumer.consume({ max_messages: BUFFERED_MESSAGES, expires: PULL_EXPIRES_MS });
    this.messages = messages;
    return messages;
  }

  /**
   * Opens the consumer's messages anew (after a reconnect): the client re-pulls on its own, but after a
   * long outage or a cluster restart it can be left with no pull outstanding and nothing delivered.
   */
  reopen(): void {
    if (this.stopping) return;
    // Watch the reopened pull closely again.
    this.checkEveryMs = STALL_CHECK_MS;
    void this.messages?.close().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.watchdog);
    await this.messages?.close();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
  }
}
