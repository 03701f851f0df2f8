import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { MessageOf } from '@warden/contracts';
import { BusConnection, TransientError } from '@warden/messaging';
import { OnMessage, type JetStreamContext } from '@warden/messaging-nest';
import { REPLY_HEADER } from '../core/command-dispatcher.js';
import { HitlRelay } from './hitl-relay.js';

const BUS_ERROR = /Timeout|JetStream|Nats|Request|Connection|Closed|Draining|NoResponders/;

/**
 * A failure to reach NATS (the stores live there) is a dependency outage: retried until it is back,
 * never dead-lettered, since a dead-lettered verdict would leave its action without a decision.
 */
async function asTransient<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const name = (error as Error)?.constructor?.name ?? '';
    if (BUS_ERROR.test(name) || /wrong last sequence|timeout/i.test((error as Error)?.message ?? '')) {
      throw new TransientError(`gate state unavailable: ${(error as Error).message}`, { cause: error });
    }
    throw error;
  }
}

/** Everything the gate consumes: verdicts, session lifecycle and HITL commands, each handed to the relay. */
@Controller()
export class GateMessageHandlers {
  constructor(
    private readonly relay: HitlRelay,
    private readonly bus: BusConnection,
  ) {}

  @OnMessage('review.verdict')
  onVerdict(@Payload() verdict: MessageOf<'review.verdict'>): Promise<void> {
    return asTransient(this.relay.onVerdict(verdict));
  }

  @OnMessage('session.started')
  onSessionStarted(@Payload() message: MessageOf<'session.started'>): Promise<void> {
    return asTransient(this.relay.onSessionEvent(message));
  }

  @OnMessage('session.phase_changed')
  onPhaseChanged(@Payload() message: MessageOf<'session.phase_changed'>): Promise<void> {
    return asTransient(this.relay.onSessionEvent(message));
  }

  @OnMessage('session.ended')
  onSessionEnded(@Payload() message: MessageOf<'session.ended'>): Promise<void> {
    return asTransient(this.relay.onSessionEvent(message));
  }

  @OnMessage('gate.command')
  async onCommand(@Payload() command: MessageOf<'gate.command'>, @Ctx() context: JetStreamContext): Promise<void> {
    // A long flush tells JetStream it is still working, so that its command is not redelivered meanwhile.
    const outcome = await asTransient(this.relay.onCommand(command, () => context.extendAckDeadline()));
    if (outcome.status === 'error') context.log.warn({ command: command.payload.command_type, reason: outcome.reason }, 'HITL command refused');
    const replyTo = context.getMessage().headers?.get(REPLY_HEADER);
    if (replyTo) this.bus.nc.publish(replyTo, JSON.stringify(outcome));
  }
}
