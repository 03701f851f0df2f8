import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { OnMessage, type JetStreamContext } from '@warden/messaging-nest';
import { REPLY_HEADER } from '../core/command-dispatcher.js';
import { HitlRelay } from './hitl-relay.js';

/**
 * Everything the gate consumes: verdicts, session lifecycle and HITL commands, each handed to the relay.
 * Nothing is sorted here: the gate's stores and publications raise TransientError for any failure of the
 * bus (a compare-and-set conflict included), which the transport retries for as long as it takes and
 * never dead-letters, since a dead-lettered verdict would leave its action without a decision.
 */
@Controller()
export class GateMessageHandlers {
  constructor(
    private readonly relay: HitlRelay,
    private readonly bus: BusConnection,
  ) {}

  @OnMessage('review.verdict')
  onVerdict(@Payload() verdict: MessageOf<'review.verdict'>): Promise<void> {
    return this.relay.onVerdict(verdict);
  }

  @OnMessage('session.started')
  onSessionStarted(@Payload() message: MessageOf<'session.started'>): Promise<void> {
    return this.relay.onSessionEvent(message);
  }

  @OnMessage('session.phase_changed')
  onPhaseChanged(@Payload() message: MessageOf<'session.phase_changed'>): Promise<void> {
    return this.relay.onSessionEvent(message);
  }

  @OnMessage('session.ended')
  onSessionEnded(@Payload() message: MessageOf<'session.ended'>): Promise<void> {
    return this.relay.onSessionEvent(message);
  }

  @OnMessage('gate.command')
  async onCommand(@Payload() command: MessageOf<'gate.command'>, @Ctx() context: JetStreamContext): Promise<void> {
    // A long flush tells JetStream it is still working, so that its command is not redelivered meanwhile.
    const outcome = await this.relay.onCommand(command, () => context.extendAckDeadline());
    if (outcome.status === 'error') context.log.warn({ command: command.payload.command_type, reason: outcome.reason }, 'HITL command refused');
    const replyTo = context.getMessage().headers?.get(REPLY_HEADER);
    if (replyTo) this.bus.nc.publish(replyTo, JSON.stringify(outcome));
  }
}
