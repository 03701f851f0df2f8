import { EventPattern } from '@nestjs/microservices';
import type { MessageType } from '@warden/contracts';

/**
 * Marks a controller method as the handler of one message type. The transport validates the message
 * against its contract before the method runs, and acknowledges it when the method resolves.
 *
 * ```ts
 * @OnMessage('action.proposed')
 * async review(@Payload() message: MessageOf<'action.proposed'>, @Ctx() context: JetStreamContext) { ... }
 * ```
 */
export function OnMessage(type: MessageType): MethodDecorator {
  // Nest types handlers as (data, ...args: unknown[]); Warden handlers take a typed JetStreamContext.
  return EventPattern(type) as unknown as MethodDecorator;
}

/** Pattern of a handler that receives every message type its service consumes and has no specific handler for. */
export const ANY_MESSAGE = '*';

/** Marks the handler of every message type without a handler of its own (the audit log stores them all). */
export function OnAnyMessage(): MethodDecorator {
  return EventPattern(ANY_MESSAGE) as unknown as MethodDecorator;
}
