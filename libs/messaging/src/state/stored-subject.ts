import { DeliverPolicy, type JetStreamClient, type JetStreamManager, type MsgRequest } from '@nats-io/jetstream';

/** A message as its stream stores it. */
export interface StoredMessage {
  seq: number;
  /** When JetStream stored it, in epoch milliseconds. */
  storedAt: number;
  data: Uint8Array;
}

export interface ReadSubjectOptions {
  /** Only messages stored before this stream sequence (the message being handled, say). */
  before?: number;
  /** At most this many: the latest are kept. */
  limit?: number;
}

/**
 * Every message a stream holds on one subject, oldest first, read through an ordered consumer of that
 * subject alone (deleted afterwards). Message gets first find where the subject ends (and, with `before`,
 * where it starts), so that a subject with nothing to read costs no consumer. Bus failures are thrown as
 * they come: callers wrap the call in onTheBus with what they were doing.
 */
export async function readSubject(js: JetStreamClient, jsm: JetStreamManager, stream: string, subject: string, options: ReadSubjectOptions = {}): Promise<StoredMessage[]> {
  let start: { deliver_policy: DeliverPolicy; opt_start_seq?: number } = { deliver_policy: DeliverPolicy.All };
  if (options.before !== undefined) {
    // The message get API answers "the next message on this subject from seq" (nats-server 2.9+); nats.js types it for direct gets only.
    const first = await jsm.streams.getMessage(stream, { seq: 1, next_by_subj: subject } as unknown as MsgRequest);
    if (!first || first.seq >= options.before) return [];
    start = { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: first.seq };
  }
  const last = await jsm.streams.getMessage(stream, { last_by_subj: subject });
  if (!last) return [];
  const end = options.before !== undefined ? Math.min(last.seq, options.before - 1) : last.seq;
  const stored: StoredMessage[] = [];
  const consumer = await js.consumers.get(stream, { filter_subjects: subject, ...start });
  try {
    const messages = await consumer.consume({ max_messages: 1000 });
    for await (const message of messages) {
      if (message.seq > end) break;
      stored.push({ seq: message.seq, storedAt: message.time.getTime(), data: message.data });
      // Trimmed in batches: a long subject read with a small limit stays linear.
      if (options.limit !== undefined && stored.length >= 2 * options.limit) stored.splice(0, stored.length - options.limit);
      if (message.seq >= end) break;
    }
  } finally {
    await consumer.delete().catch(() => undefined);
  }
  return options.limit !== undefined ? stored.slice(-options.limit) : stored;
}
