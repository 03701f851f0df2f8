import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { MessagePublisher } from '@warden/messaging';
import { JetStreamContext, OnMessage } from '@warden/messaging-nest';
import { LOGGER, type Logger } from '@warden/observability';
import { ReviewMetrics } from './review-metrics.js';
import { SealedActions } from './sealed-actions.js';
import { SessionSync } from './session-sync.js';
import { StepReviewerHost } from './step-reviewer.host.js';

/** Reviews every proposed action and publishes the verdict for the gate. */
@Controller()
export class ReviewHandler {
  constructor(
    private readonly host: StepReviewerHost,
    private readonly publisher: MessagePublisher,
    private readonly metrics: ReviewMetrics,
    private readonly sync: SessionSync,
    private readonly sealed: SealedActions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @OnMessage('action.proposed')
  async onActionProposed(@Payload() action: MessageOf<'action.proposed'>, @Ctx() context: JetStreamContext): Promise<void> {
    const address = { agentId: action.agent_id, sessionId: action.session_id };
    // What the agent published before this action on other streams (its declaration, earlier outcomes) comes first.
    const stored = context.getMessage();
    await this.sync.beforeReview(address, { subject: stored.subject, seq: stored.seq });
    // Judged as the agent sent it: its secrets opened in memory, never stored so.
    const payload = await this.sealed.open(action.payload);
    const reviewer = this.host.reviewer;
    const result = reviewer.review(payload, address);
    if (result.slow) this.logger.warn({ action_id: action.payload.action_id, review_ms: result.durationMs }, 'slow review');
    // One verdict per action: a redelivered action publishes a duplicate JetStream drops.
    await this.publisher.publishCausedBy(action, 'review.verdict', result.verdict, {
      key: `${action.agent_id}:${action.session_id}:${action.payload.action_id}`,
      carryControl: true,
    });
    this.metrics.record(result, reviewer);
  }
}
