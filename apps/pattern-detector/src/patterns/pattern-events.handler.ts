import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { eventTime, type AnyMessage, type MessageOf } from '@warden/contracts';
import { deferral, JetStreamContext, OnMessage } from '@warden/messaging-nest';
import type { PatternSettings } from '@warden/patterns';
import { priceOf } from '@warden/patterns';
import { lifecycleChange } from './pattern-sessions.js';
import { PATTERN_SETTINGS, PatternSupervisor } from './pattern-supervisor.js';

/**
 * Feeds each session's windows: its declared context and phase, every proposed action, every outcome
 * and every verdict, and the tool runs its telemetry reported. Times are the agent's timestamps (bounded by when JetStream stored the message),
 * so a replay of a session computes the same rates and windows as the session did live.
 */
@Controller()
export class PatternEventsHandler {
  constructor(
    private readonly supervisor: PatternSupervisor,
    @Inject(PATTERN_SETTINGS) private readonly settings: PatternSettings,
  ) {}

  @OnMessage('session.started')
  onStarted(@Payload() message: MessageOf<'session.started'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.lifecycle(message, context);
  }

  @OnMessage('session.phase_changed')
  onPhaseChanged(@Payload() message: MessageOf<'session.phase_changed'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.lifecycle(message, context);
  }

  @OnMessage('session.goal_changed')
  onGoalChanged(@Payload() message: MessageOf<'session.goal_changed'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.lifecycle(message, context);
  }

  /** The agent's last words of a turn: what they claim is held against what the session did. */
  @OnMessage('session.turn_ended')
  onTurnEnded(@Payload() message: MessageOf<'session.turn_ended'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.lifecycle(message, context);
  }

  @OnMessage('session.ended')
  onEnded(@Payload() message: MessageOf<'session.ended'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.lifecycle(message, context);
  }

  /** What the agent's telemetry says it ran, held against what its hooks proposed (a hook gone silent). */
  @OnMessage('session.tools_observed')
  onToolsObserved(@Payload() message: MessageOf<'session.tools_observed'>, @Ctx() context: JetStreamContext): Promise<void> {
    return this.lifecycle(message, context);
  }

  @OnMessage('action.proposed')
  onAction(@Payload() message: MessageOf<'action.proposed'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = this.at(message, context);
    return this.supervisor.apply(message, at, 'action', (p) => p.actionProposed(at, message.payload), deferral(context));
  }

  @OnMessage('action.outcome')
  onOutcome(@Payload() message: MessageOf<'action.outcome'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = this.at(message, context);
    const cost = priceOf(this.settings.resource_spiral.pricing, message.payload.model, message.payload.tokens);
    return this.supervisor.apply(message, at, 'outcome', (p) => p.outcomeReported(at, message.payload, cost), deferral(context));
  }

  @OnMessage('review.verdict')
  onVerdict(@Payload() message: MessageOf<'review.verdict'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = this.at(message, context);
    return this.supervisor.apply(message, at, 'verdict', (p) => p.verdict(at, message.payload), deferral(context));
  }

  private lifecycle(message: AnyMessage, context: JetStreamContext): Promise<void> {
    const at = this.at(message, context);
    return this.supervisor.apply(message, at, 'session', lifecycleChange(message, at), deferral(context));
  }

  private at(message: AnyMessage, context: JetStreamContext): number {
    const stored = Math.floor(context.getMessage().info.timestampNanos / 1e6);
    return eventTime(message.timestamp, stored, this.settings.window.max_clock_skew_ms);
  }
}
