import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AUTOMATION_LEVEL_BUCKET, BREAKER_STATE_BUCKET, parseAutomationLevel, parseBreakerState } from '@warden/contracts';
import { BucketMirror, BusConnection } from '@warden/messaging';
import { HealthRegistry, LOGGER, type Logger } from '@warden/observability';
import { SupervisionState } from '@warden/review';

const RETRY_MS = 5000;

/**
 * Mirrors the breaker and ladder KV buckets into the reviewer's memory, so that a review reads an OPEN
 * breaker or an automation level without a round trip. Each mirror starts from the last value of every
 * key and then follows updates; a bucket that does not exist yet, or a watch that ends, is retried.
 */
@Injectable()
export class SupervisionStateWatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly mirrors: BucketMirror<unknown>[];

  constructor(bus: BusConnection, state: SupervisionState, @Inject(LOGGER) logger: Logger, health: HealthRegistry) {
    const unavailable = (bucket: string) => (error: unknown) => logger.warn({ bucket, err: error }, 'supervision state bucket unavailable; run `warden provision`. Retrying.');
    const invalid = (bucket: string) => (key: string) => logger.warn({ bucket, key }, 'ignored a supervision state entry that does not match its schema');
    const levels = new BucketMirror(
      bus.nc,
      AUTOMATION_LEVEL_BUCKET,
      { entry: (agentId, record) => state.applyLevel(record?.agent_id ?? agentId, record), invalid: invalid(AUTOMATION_LEVEL_BUCKET), unavailable: unavailable(AUTOMATION_LEVEL_BUCKET) },
      { parse: parseAutomationLevel, retryMs: RETRY_MS },
    );
    const breakers = new BucketMirror(
      bus.nc,
      BREAKER_STATE_BUCKET,
      {
        entry: (key, record) => {
          const dot = key.indexOf('.');
          state.applyBreaker(record?.agent_id ?? key.slice(0, dot), record?.session_id ?? key.slice(dot + 1), record);
        },
        invalid: invalid(BREAKER_STATE_BUCKET),
        unavailable: unavailable(BREAKER_STATE_BUCKET),
      },
      { parse: parseBreakerState, retryMs: RETRY_MS },
    );
    this.mirrors = [breakers, levels] as BucketMirror<unknown>[];
    health.register('supervision_state', () => {
      const watching = this.mirrors.filter((m) => m.watching).map((m) => m.bucket);
      return watching.length === this.mirrors.length ? { up: true } : { up: false, detail: `watching ${watching.join(', ') || 'nothing yet'}` };
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all(this.mirrors.map((m) => m.start()));
  }

  onModuleDestroy(): void {
    for (const mirror of this.mirrors) mirror.stop();
  }
}
