import { Module, type DynamicModule } from '@nestjs/common';
import type { LadderConfig } from '../config.js';
import { AutomationLadder } from '@warden/ladder';
import { AutomationLevelPublisher } from './automation-level.publisher.js';
import { LadderHandler } from './ladder.handler.js';
import { LadderMetrics } from './ladder-metrics.js';
import { LadderService } from './ladder.service.js';
import { LevelCensus } from './level-census.js';
import { TrackRecordStore } from './track-record.store.js';

/**
 * The automation ladder wired to the bus. Uses BusConnection and MessagePublisher from the global
 * messaging module, MetricsRegistry, HealthRegistry and LOGGER from the global observability module.
 */
@Module({})
export class LadderModule {
  static forRoot(config: LadderConfig): DynamicModule {
    return {
      module: LadderModule,
      controllers: [LadderHandler],
      providers: [
        { provide: AutomationLadder, useValue: new AutomationLadder(config.ladder) },
        LadderMetrics,
        TrackRecordStore,
        AutomationLevelPublisher,
        LevelCensus,
        LadderService,
      ],
      exports: [LadderService, TrackRecordStore],
    };
  }
}
