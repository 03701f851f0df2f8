import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { TransientError } from '../errors.js';

/** Whether a KV write was refused because the key changed since the revision it expected. */
export function isConflict(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}

/**
 * Any failure of the bus (no responders while a stream elects a leader, a timeout, a closed
 * connection) means the message being handled is fine and will succeed later: it becomes a
 * TransientError, which the transport retries for as long as it takes and never dead-letters.
 */
export function asTransient(what: string, error: unknown): TransientError {
  if (error instanceof TransientError) return error;
  return new TransientError(`${what}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

/** Runs one bus operation, turning its failure into a TransientError that says what was attempted. */
export async function onTheBus<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asTransient(what, error);
  }
}
