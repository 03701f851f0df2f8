import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { MessagePublisher, OnMessage } from '@warden/messaging';
import { MetricsRegistry } from '@warden/observability';
import { decisionFromVerdict } from './decision-policy.js';

/**
 * Every decision passes through the gate so that a paused session can hold it. In the normal state a
 * verdict is forwarded at once as the agent's decision.
 */
@Controller()
export class DecisionRelayHandler {
  private readonly decisions;

  constructor(
    private readonly publisher: MessagePublisher,
    metrics: MetricsRegistry,
  ) {
    this.decisions = metrics.counter({
      name: 'warden_decisions_total',
      help: 'Decisions sent to agents, by decision and the verdict behind it.',
      labelNames: ['decision', 'verdict'],
    });
  }

  @OnMessage('review.verdict')
  async onVerdict(@Payload() verdict: MessageOf<'review.verdict'>): Promise<void> {
    const decision = decisionFromVerdict(verdict.payload);
    // One decision per action: the id derives from the action, so a redelivered verdict is de-duplicated.
    await this.publisher.publishCausedBy(verdict, 'decision.made', decision, {
      key: `${verdict.agent_id}:${verdict.session_id}:${verdict.payload.action_id}`,
    });
    this.decisions.inc({ decision: decision.decision, verdict: decision.verdict });
  }
}
