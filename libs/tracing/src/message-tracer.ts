/** What a span needs to know of a Warden message: its envelope (any message of the catalog fits). */
export interface TracedMessage {
  id: string;
  type: string;
  trace_id: string;
  causation_id?: string;
  session_id: string;
  agent_id: string;
}

/** Where the message is: the channel it travels on and, when known, the NATS subject. */
export interface MessagePlace {
  channel: string;
  subject?: string;
}

/**
 * The spans of one service (or agent) for what it does with messages. Spans are named by what happens:
 * `warden.propose` and `warden.decide` for a proposal and its decision being published, `warden.publish
 * <type>` for other messages, and the handling of a message by the service's work (`warden.review`,
 * `warden.gate`, `warden.audit.ingest`, `warden.pattern`, `warden.intervention`, ...).
 *
 * All spans of one action share a trace (its id derived from the message's `trace_id`); the span
 * that publishes a message has an id derived from the message id, so that its handlers elsewhere are its
 * children, and a message published outside a handler is the child of its cause's publication
 * (`causation_id`), or of its trace's first message.
 */
export interface MessageTracer {
  /** False when tracing is off: then `handle` and `publish` only run the work. */
  readonly enabled: boolean;
  /** Runs `work` as the handling of `message` by this service; what it publishes becomes its children. */
  handle<T>(message: TracedMessage, place: MessagePlace, work: () => Promise<T>): Promise<T>;
  /** Runs `work` (the send) as the publication of `message`. */
  publish<T>(message: TracedMessage, place: MessagePlace, work: () => Promise<T>): Promise<T>;
  /**
   * Starts the publication span of `message` and returns its end, for a publication whose outcome comes
   * later (the SDK's proposal, ended by its decision). `end(error)` marks it failed.
   */
  begin(message: TracedMessage, place: MessagePlace): (outcome?: { error?: string; attributes?: Record<string, string | number | boolean> }) => void;
  /** Sends the spans not yet exported. */
  flush(): Promise<void>;
  /** Flushes and stops exporting. */
  shutdown(): Promise<void>;
}

const noEnd = () => undefined;

/** Tracing off: nothing recorded, nothing loaded, the work run as it is. */
export const NOOP_MESSAGE_TRACER: MessageTracer = Object.freeze({
  enabled: false,
  handle: <T>(_message: TracedMessage, _place: MessagePlace, work: () => Promise<T>) => work(),
  publish: <T>(_message: TracedMessage, _place: MessagePlace, work: () => Promise<T>) => work(),
  begin: () => noEnd,
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
});
