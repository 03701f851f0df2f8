/**
 * A delivered message whose acknowledgement its handler took over (see JetStreamContext.deferAcknowledgement):
 * the transport leaves it unacknowledged when the handler returns, and whoever holds the receipt
 * acknowledges it once what the message changed is stored. A receipt never acknowledged is redelivered:
 * to the partition's next owner in order, from the consumer's acknowledgement floor.
 */
export interface MessageReceipt {
  /** What the message changed is stored: JetStream may forget the delivery. */
  ack(): void;
  /** Still being stored (the bus is away): the acknowledgement wait starts again. */
  working(): void;
}
