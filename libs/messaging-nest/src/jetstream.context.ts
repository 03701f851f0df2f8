import type { JsMsg } from '@nats-io/jetstream';
import { BaseRpcContext } from '@nestjs/microservices';
import type { SessionAddress } from '@warden/contracts';
import type { Logger } from '@warden/observability';

type JetStreamContextArgs = [JsMsg, SessionAddress | null, () => Logger];

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

  /** Tells JetStream the handler is still working, so that a long handler is not redelivered. */
  extendAckDeadline(): void {
    this.args[0].working();
  }
}
