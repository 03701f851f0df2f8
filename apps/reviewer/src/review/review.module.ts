import { Module } from '@nestjs/common';
import { ActionReviewer } from './action-reviewer.js';
import { ReviewHandler } from './review.handler.js';

/** Per-action review. Uses MessagePublisher and MetricsRegistry from the global messaging and observability modules. */
@Module({
  controllers: [ReviewHandler],
  providers: [{ provide: ActionReviewer, useValue: new ActionReviewer() }],
  exports: [ActionReviewer],
})
export class ReviewModule {}
