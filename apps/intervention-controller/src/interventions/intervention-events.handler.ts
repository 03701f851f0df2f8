import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { deferral, JetStreamContext, OnMessage } from '@warden/messaging-nest';
import { issueOf, type IssueMessage } from '@warden/interventions';
import type { SessionMessage } from '../domain/session-effects.js';
import { ControlMailboxes } from './control-mailbox.js';
import { InterventionSupervisor } from './intervention-supervisor.js';

/**
 * What the controller listens to: issues (patterns, breaker trips, blocked verdicts, rejected gate
 * requests) to act on; the session's declaration for the text of corrections; actions and outcomes to
 * date issues and measure effectiveness; checkpoints to roll back to; the agent's acknowledgements; and
 * every control message, for the agents' mailboxes.
 * Times are the session's: what the agent's messages carry, bounded by when JetStream stored them (see
 * InterventionSupervisor), so a redelivery, a restart or a replay computes the same.
 */
@Controller()
export class InterventionEventsHandler {
  constructor(
    private readonly supervisor: InterventionSupervisor,
    private readonly mailboxes: ControlMailboxes,
  ) {}

  /** Every control message sent to an agent (the gate's too) goes into its session's mailbox. */
  @OnMessage('control.issued')
  onControl(@Payload() message: MessageOf<'control.issued'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.mailboxes.add(message, context.getMessage().seq);
  }

  @OnMessage('pattern.detected')
  onPattern(@Payload() message: MessageOf<'pattern.detected'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.issue(message, context);
  }

  @OnMessage('breaker.tripped')
  onBreakerTrip(@Payload() message: MessageOf<'breaker.tripped'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.issue(message, context);
  }

  @OnMessage('review.verdict')
  onVerdict(@Payload() message: MessageOf<'review.verdict'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.issue(message, context);
  }

  @OnMessage('gate.responded')
  onGateResponse(@Payload() message: MessageOf<'gate.responded'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.issue(message, context);
  }

  /** An action that ran although Warden denied it, held it or never saw it (the agent's after-tool hook said so). */
  @OnMessage('action.ran_against_decision')
  onRanAgainstDecision(@Payload() message: MessageOf<'action.ran_against_decision'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.issue(message, context);
  }

  @OnMessage('session.started')
  onStarted(@Payload() message: MessageOf<'session.started'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.session(message, context);
  }

  @OnMessage('session.goal_changed')
  onGoalChanged(@Payload() message: MessageOf<'session.goal_changed'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.session(message, context);
  }

  @OnMessage('session.ended')
  onEnded(@Payload() message: MessageOf<'session.ended'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.session(message, context);
  }

  @OnMessage('action.proposed')
  onAction(@Payload() message: MessageOf<'action.proposed'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.session(message, context);
  }

  @OnMessage('action.outcome')
  onOutcome(@Payload() message: MessageOf<'action.outcome'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.session(message, context);
  }

  @OnMessage('checkpoint.saved')
  onCheckpoint(@Payload() message: MessageOf<'checkpoint.saved'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.session(message, context);
  }

  @OnMessage('control.acknowledged')
  onAcknowledged(@Payload() message: MessageOf<'control.acknowledged'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.session(message, context);
  }

  private session(message: SessionMessage, context: JetStreamContext): Promise<void> {
    return this.supervisor.onSessionMessage(message, storedAt(context), deferral(context));
  }

  /**
   * A message that may report an issue. One that does not (a shadow pattern, a metrics-only trip) is
   * still recorded as seen when it concerns the session's own detectors and breakers, so that its
   * redelivery is recognised.
   */
  private issue(message: IssueMessage, context: JetStreamContext): Promise<void> {
    const issue = issueOf(message);
    const at = storedAt(context);
    if (!issue) return message.type === 'pattern.detected' || message.type === 'breaker.tripped' ? this.supervisor.onQuietReport(message, at, deferral(context)) : Promise.resolve();
    return this.supervisor.onIssue(message, issue, at);
  }
}

/** When JetStream stored the message, in epoch milliseconds. */
function storedAt(context: JetStreamContext): number {
  return Math.floor(context.getMessage().info.timestampNanos / 1e6);
}
