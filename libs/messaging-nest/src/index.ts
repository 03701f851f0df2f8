export { ANY_MESSAGE, OnAnyMessage, OnMessage } from './on-message.decorator.js';
export { deferral, JetStreamContext } from './jetstream.context.js';
export { JetStreamServer, retryDelayMs, TopologyMissingError, type TransportOptions } from './jetstream.server.js';
export {
  defaultReplicaId,
  MESSAGING_DEFAULTS,
  type MessagingOptions,
  type ResolvedMessagingOptions,
  resolveMessagingOptions,
} from './messaging.options.js';
export { MESSAGE_TRACER, MESSAGING_OPTIONS, MessagingModule } from './messaging.module.js';
