import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Kvm, type KV, type KvWatchEntry } from '@nats-io/kv';
import type { QueuedIterator } from '@nats-io/transport-node';
import { AUTOMATION_LEVEL_BUCKET, BREAKER_STATE_BUCKET, parseAutomationLevel, parseBreakerState } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { HealthRegistry, LOGGER, type Logger } from '@warden/observability';
import { SupervisionState } from '@warden/review';

const RETRY_MS = 5000;

/**
 * Mirrors the breaker and ladder KV buckets into the reviewer's memory, so that a review reads an OPEN
 * breaker or an automation level without a round trip. Watches start from the last value of every key
 * and then follow updates; a bucket that does not exist yet is retried.
 */
@Injectable()
export class SupervisionStateWatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly watches: QueuedIterator<KvWatchEntry>[] = [];
  private readonly watching = new Set<string>();
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly bus: BusConnection,
    private readonly state: SupervisionState,
    @Inject(LOGGER) private readonly logger: Logger,
    health: HealthRegistry,
  ) {
    health.register('supervision_state', () =>
      this.watching.size === 2 ? { up: true } : { up: false, detail: `watching ${[...this.watching].join(', ') || 'nothing yet'}` },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    for (const watch of this.watches) watch.stop();
  }

  private async start(): Promise<void> {
    const kvm = new Kvm(this.bus.nc);
    const pending: string[] = [];
    for (const bucket of [BREAKER_STATE_BUCKET, AUTOMATION_LEVEL_BUCKET]) {
      if (this.watching.has(bucket)) continue;
      try {
        const kv = await kvm.open(bucket);
        await kv.status();
        this.follow(bucket, kv, await kv.watch());
        this.watching.add(bucket);
      } catch (error) {
        pending.push(bucket);
        this.logger.warn({ bucket, err: error }, 'supervision state bucket unavailable; run `warden provision`. Retrying.');
      }
    }
    if (pending.length && !this.stopped) {
      this.retry = setTimeout(() => void this.start(), RETRY_MS);
      this.retry.unref();
    }
  }

  private follow(bucket: string, _kv: KV, watch: QueuedIterator<KvWatchEntry>): void {
    this.watches.push(watch);
    void (async () => {
      for await (const entry of watch) this.apply(bucket, entry);
    })().catch((error: unknown) => {
      if (!this.stopped) this.logger.error({ bucket, err: error }, 'supervision state watch ended');
      this.watching.delete(bucket);
    });
  }

  private apply(bucket: string, entry: KvWatchEntry): void {
    const removed = entry.operation !== 'PUT';
    if (bucket === AUTOMATION_LEVEL_BUCKET) {
      const record = removed ? null : parseAutomationLevel(entry.value);
      if (!removed && !record) return this.invalid(bucket, entry.key);
      this.state.applyLevel(record?.agent_id ?? entry.key, record);
      return;
    }
    const record = removed ? null : parseBreakerState(entry.value);
    if (!removed && !record) return this.invalid(bucket, entry.key);
    const dot = entry.key.indexOf('.');
    const agentId = record?.agent_id ?? entry.key.slice(0, dot);
    const sessionId = record?.session_id ?? entry.key.slice(dot + 1);
    this.state.applyBreaker(agentId, sessionId, record);
  }

  private invalid(bucket: string, key: string): void {
    this.logger.warn({ bucket, key }, 'ignored a supervision state entry that does not match its schema');
  }
}
