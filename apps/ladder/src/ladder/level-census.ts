import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Kvm, type KvWatchEntry } from '@nats-io/kv';
import type { QueuedIterator } from '@nats-io/transport-node';
import { AUTOMATION_LEVEL_BUCKET, AUTOMATION_LEVELS, parseAutomationLevel } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { HealthRegistry, LOGGER, type Logger } from '@warden/observability';
import { LadderMetrics } from './ladder-metrics.js';

const RETRY_MS = 5000;

/**
 * Counts agents per level for `warden_ladder_agents` by watching `warden_automation_levels` (every
 * replica sees every agent, not only those it handled). Readiness waits for the bucket: without it the
 * reviewer could not see any level the ladder sets.
 */
@Injectable()
export class LevelCensus implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly levels = new Map<string, number>();
  private watch: QueuedIterator<KvWatchEntry> | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly bus: BusConnection,
    private readonly metrics: LadderMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
    health: HealthRegistry,
  ) {
    health.register('automation_levels', () => (this.watch ? { up: true } : { up: false, detail: `waiting for KV bucket ${AUTOMATION_LEVEL_BUCKET}` }));
    this.publish();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.watch?.stop();
  }

  private async start(): Promise<void> {
    try {
      const kv = await new Kvm(this.bus.nc).open(AUTOMATION_LEVEL_BUCKET);
      await kv.status();
      this.follow(await kv.watch());
    } catch (error) {
      this.logger.warn({ bucket: AUTOMATION_LEVEL_BUCKET, err: error }, 'automation level bucket unavailable; run `warden provision`. Retrying.');
      this.restartLater();
    }
  }

  private restartLater(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => void this.start(), RETRY_MS);
    this.retry.unref();
  }

  private follow(watch: QueuedIterator<KvWatchEntry>): void {
    // A new watch replays every key: start from an empty census so that deleted agents drop out.
    this.levels.clear();
    this.watch = watch;
    void (async () => {
      for await (const entry of watch) this.apply(entry);
    })().catch((error: unknown) => {
      if (!this.stopped) this.logger.error({ err: error }, 'automation level watch ended; restarting it');
      this.watch = undefined;
      this.restartLater();
    });
  }

  private apply(entry: KvWatchEntry): void {
    const record = entry.operation === 'PUT' ? parseAutomationLevel(entry.value) : null;
    if (record) this.levels.set(entry.key, record.level);
    else this.levels.delete(entry.key);
    this.publish();
  }

  private publish(): void {
    const counts = AUTOMATION_LEVELS.map(() => 0);
    for (const level of this.levels.values()) counts[level] = (counts[level] ?? 0) + 1;
    this.metrics.agentsPerLevel(counts);
  }
}
