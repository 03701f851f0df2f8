import { Module, type DynamicModule } from '@nestjs/common';
import type { ReviewerConfig } from '../config.js';
import { SupervisionState } from '@warden/review';
import { ExplainController } from './explain.controller.js';
import { ReviewHandler } from './review.handler.js';
import { ReviewMetrics } from './review-metrics.js';
import { SealedActions } from './sealed-actions.js';
import { SessionEventsHandler } from './session-events.handler.js';
import { SessionSync } from './session-sync.js';
import { REVIEWER_CONFIG, StepReviewerHost } from './step-reviewer.host.js';
import { SupervisionStateWatcher } from './supervision-state.watcher.js';

/**
 * Per-action review: the step reviewer wired to the bus. Uses BusConnection and MessagePublisher from the
 * global messaging module, MetricsRegistry, HealthRegistry and LOGGER from the global observability module.
 */
@Module({})
export class ReviewModule {
  static forRoot(config: ReviewerConfig): DynamicModule {
    return {
      module: ReviewModule,
      controllers: [ReviewHandler, SessionEventsHandler, ExplainController],
      providers: [
        { provide: REVIEWER_CONFIG, useValue: config },
        { provide: SupervisionState, useValue: new SupervisionState() },
        ReviewMetrics,
        SealedActions,
        StepReviewerHost,
        SessionSync,
        SupervisionStateWatcher,
      ],
      exports: [StepReviewerHost, SupervisionState],
    };
  }
}
