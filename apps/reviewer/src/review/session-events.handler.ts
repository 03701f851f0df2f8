import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { OnMessage } from '@warden/messaging-nest';
import { StepReviewerHost } from './step-reviewer.host.js';

type SessionMessage = { agent_id: string; session_id: string };

/** Keeps the reviewer's picture of each session current: declared context, phase, outcomes, patterns, checkpoints. */
@Controller()
export class SessionEventsHandler {
  constructor(private readonly host: StepReviewerHost) {}

  private address(message: SessionMessage) {
    return { agentId: message.agent_id, sessionId: message.session_id };
  }

  @OnMessage('session.started')
  onStarted(@Payload() message: MessageOf<'session.started'>): void {
    this.host.reviewer.startSession(this.address(message), message.payload);
  }

  @OnMessage('session.phase_changed')
  onPhaseChanged(@Payload() message: MessageOf<'session.phase_changed'>): void {
    this.host.reviewer.changePhase(this.address(message), message.payload.phase);
  }

  @OnMessage('session.goal_changed')
  onGoalChanged(@Payload() message: MessageOf<'session.goal_changed'>): void {
    this.host.reviewer.changeGoal(this.address(message), message.payload.goal);
  }

  @OnMessage('session.ended')
  onEnded(@Payload() message: MessageOf<'session.ended'>): void {
    this.host.reviewer.endSession(this.address(message));
  }

  @OnMessage('action.outcome')
  onOutcome(@Payload() message: MessageOf<'action.outcome'>): void {
    this.host.reviewer.recordOutcome(this.address(message), message.payload);
  }

  @OnMessage('pattern.detected')
  onPattern(@Payload() message: MessageOf<'pattern.detected'>): void {
    this.host.reviewer.recordPattern(this.address(message), message.payload);
  }

  @OnMessage('checkpoint.saved')
  onCheckpoint(@Payload() message: MessageOf<'checkpoint.saved'>): void {
    this.host.reviewer.recordCheckpoint(this.address(message));
  }
}
