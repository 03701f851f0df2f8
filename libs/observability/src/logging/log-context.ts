import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while handling a message carries. */
export interface LogContext {
  trace_id?: string;
  session_id?: string;
  message_id?: string;
  message_type?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}
