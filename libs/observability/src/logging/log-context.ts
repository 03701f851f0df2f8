import type { Logger } from 'pino';

/** What every log line about a message carries. */
export interface LogContext {
  trace_id?: string;
  session_id?: string;
  message_id?: string;
  message_type?: string;
}

/**
 * A logger whose lines carry the trace and session of one message. Created on first use: most
 * messages are handled without writing a line, and the hot path should not pay for one.
 */
export function lazyMessageLogger(logger: Logger, context: LogContext): () => Logger {
  let child: Logger | undefined;
  return () => (child ??= logger.child(context));
}
