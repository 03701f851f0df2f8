import type { MessageOf, MessageType, PayloadOf } from './catalog.js';
import { definitionOf } from './catalog.js';
import type { Envelope } from './envelope.js';
import { newMessageId } from './ids.js';

export interface MessageInit<T extends MessageType> {
  session_id: string;
  agent_id: string;
  payload: PayloadOf<T>;
  id?: string;
  /** Defaults to the id: a new message starts a new trace. */
  trace_id?: string;
  causation_id?: string;
  control?: Envelope['control'];
  timestamp?: string;
}

/** Builds a message of a catalog type with its envelope filled in. */
export function createMessage<T extends MessageType>(type: T, init: MessageInit<T>): MessageOf<T> {
  const definition = definitionOf(type);
  if (!definition) throw new Error(`unknown message type ${type}`);
  const id = init.id ?? newMessageId();
  const message: Envelope<T, PayloadOf<T>> = {
    id,
    type,
    version: definition.version,
    session_id: init.session_id,
    agent_id: init.agent_id,
    trace_id: init.trace_id ?? id,
    timestamp: init.timestamp ?? new Date().toISOString(),
    payload: init.payload,
  };
  if (init.causation_id !== undefined) message.causation_id = init.causation_id;
  if (init.control !== undefined) message.control = init.control;
  return message as MessageOf<T>;
}
