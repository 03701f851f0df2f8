import type { JsMsg } from '@nats-io/jetstream';
import { BaseRpcContext } from '@nestjs/microservices';
import type { SessionAddress } from '@warden/contracts';
import type { MessageReceipt } from '@warden/messaging';
import type { Logger } from '@warden/observability';

/** Whether the handler took the message's acknowledgement over (the transport then does not acknowledge it). */
interface AcknowledgementSlot {
  deferred: boolean;
}

type JetStreamContextArgs = [JsMsg, SessionAddress | null, () => Logger, AcknowledgementSlot];

/** What a handler can know about the delivery besides the message itself. */
export class JetStreamContext extends BaseRpcContext<JetStreamContextArgs> {
  getMessage(): JsMsg {
    return this.args[0];
  }

  getSubject(): string {
    return this.args[0].subject;
  }

  /** Partition, agent and session the subject names; null on channels without sessions. */
  getAddress(): SessionAddress | null {
    return this.args[1];
  }

  /** 1 on the first delivery; more when an earlier attempt failed or was not acknowledged in time. */
  getDeliveryCount(): number {
    return this.args[0].info.deliveryCount;
  }

  getStreamSequence(): number {
    return this.args[0].seq;
  }

  /** The service's logger for lines about this message: they carry its trace, session, id and type. */
  get log(): Logger {
    return this.args[2]();
  }

  /**
   * Takes the message's acknowledgement over: the transport does not acknowledge it when the handler
   * returns; the receipt does, once what the message changed is stored (a stateful service that stores
   * a session's changes together). Call it only once the message is applied: a handler that throws
   * afterwards has its message retried as usual, and the receipt of the failed attempt must be dropped.
   */
  deferAcknowledgement(): MessageReceipt {
    const message = this.args[0];
    this.args[3].deferred = true;
    return { ack: () => message.ack(), working: () => message.working() };
  }

  /** Tells JetStream the handler is still working, so that a long handler is not redelivered. */
  extendAckDeadline(): void {
    this.args[0].working();
  }
}

/** For a stateful handler: lets the session keeper take the message's acknowledgement over when it stores the change later. */
export function deferral(context: JetStreamContext): () => MessageReceipt {
  return () => context.deferAcknowledgement();
}
