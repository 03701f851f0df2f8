import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { OnMessage } from '@warden/messaging-nest';
import { LadderService } from './ladder.service.js';

/**
 * The messages that move the ladder: the gate's decisions and the end of each session (a run, counted
 * from what Warden saw of it), emergency stops and operator commands. The ladder receives no action,
 * outcome or gate event: a delivery it would only acknowledge costs the bus as much as one it uses.
 */
@Controller()
export class LadderHandler {
  constructor(private readonly ladder: LadderService) {}

  @OnMessage('session.ended')
  onSessionEnded(@Payload() message: MessageOf<'session.ended'>): Promise<void> {
    return this.ladder.endSession(message);
  }

  @OnMessage('decision.made')
  onDecisionMade(@Payload() message: MessageOf<'decision.made'>): Promise<void> {
    return this.ladder.observeDecision(message);
  }

  @OnMessage('intervention.issued')
  async onInterventionIssued(@Payload() message: MessageOf<'intervention.issued'>): Promise<void> {
    // A replay shows what Warden would have done; it is not the agent's work, and changes no track record.
    if (message.payload.intervention_type === 'emergency_stop' && !message.payload.replay) await this.ladder.emergencyStop(message);
  }

  @OnMessage('ladder.command')
  onLadderCommand(@Payload() message: MessageOf<'ladder.command'>): Promise<void> {
    return this.ladder.applyCommand(message);
  }
}
