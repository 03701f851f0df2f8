import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AUTOMATION_LEVEL_BUCKET, AUTOMATION_LEVELS, parseAutomationLevel, type AutomationLevelRecord } from '@warden/contracts';
import { BucketMirror, BusConnection } from '@warden/messaging';
import { HealthRegistry, LOGGER, type Logger } from '@warden/observability';
import { LadderMetrics } from './ladder-metrics.js';

/**
 * Counts agents per level for `warden_ladder_agents` by watching `warden_automation_levels` (every
 * replica sees every agent, not only those it handled). Readiness waits for the bucket: without it the
 * reviewer could not see any level the ladder sets.
 */
@Injectable()
export class LevelCensus implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly levels = new Map<string, number>();
  private readonly mirror: BucketMirror<AutomationLevelRecord>;

  constructor(
    bus: BusConnection,
    private readonly metrics: LadderMetrics,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    this.mirror = new BucketMirror(
      bus.nc,
      AUTOMATION_LEVEL_BUCKET,
      {
        entry: (agentId, record) => {
          if (record) this.levels.set(agentId, record.level);
          else this.levels.delete(agentId);
          this.publish();
        },
        // A new watch replays every key: start from an empty census so that deleted agents drop out.
        restarted: () => this.levels.clear(),
        unavailable: (error) => logger.warn({ bucket: AUTOMATION_LEVEL_BUCKET, err: error }, 'automation level bucket unavailable; run `warden provision`. Retrying.'),
      },
      { parse: parseAutomationLevel, retryMs: 5000 },
    );
    health.register('automation_levels', () => (this.mirror.watching ? { up: true } : { up: false, detail: `waiting for KV bucket ${AUTOMATION_LEVEL_BUCKET}` }));
    this.publish();
  }

  onApplicationBootstrap(): Promise<void> {
    return this.mirror.start();
  }

  onModuleDestroy(): void {
    this.mirror.stop();
  }

  private publish(): void {
    const counts = AUTOMATION_LEVELS.map(() => 0);
    for (const level of this.levels.values()) counts[level] = (counts[level] ?? 0) + 1;
    this.metrics.agentsPerLevel(counts);
  }
}
