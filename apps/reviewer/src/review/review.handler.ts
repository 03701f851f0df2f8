import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { MessagePublisher, OnMessage } from '@warden/messaging';
import { MetricsRegistry } from '@warden/observability';
import { ActionReviewer } from './action-reviewer.js';

/** Reviews every proposed action and publishes the verdict for the gate. */
@Controller()
export class ReviewHandler {
  private readonly reviews;
  private readonly duration;

  constructor(
    private readonly reviewer: ActionReviewer,
    private readonly publisher: MessagePublisher,
    metrics: MetricsRegistry,
  ) {
    this.reviews = metrics.counter({ name: 'warden_reviews_total', help: 'Reviews by verdict.', labelNames: ['verdict'] });
    this.duration = metrics.histogram({ name: 'warden_review_duration_seconds', help: 'Time to review one action, in process.' });
  }

  @OnMessage('action.proposed')
  async onActionProposed(@Payload() action: MessageOf<'action.proposed'>): Promise<void> {
    const verdict = this.reviewer.review(action.payload);
    this.duration.observe((verdict.review_ms ?? 0) / 1000);
    // One verdict per action: a redelivered action publishes a duplicate JetStream drops.
    await this.publisher.publishCausedBy(action, 'review.verdict', verdict, {
      key: `${action.agent_id}:${action.session_id}:${action.payload.action_id}`,
      carryControl: true,
    });
    this.reviews.inc({ verdict: verdict.verdict });
  }
}
