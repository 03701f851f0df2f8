import { DeliverPolicy, type JetStreamManager } from '@nats-io/jetstream';
import type { RecordStore } from '../state/record-store.js';
import { CONSUMER_NOT_FOUND, consumerConfig, isApiError } from '../topology/provision.js';
import type { ConsumerSpec } from '../topology/topology.js';

/** Where a recreated consumer starts, kept until it exists again (in the partition bucket). */
export interface TakeoverRecord {
  start: number;
  ack_wait?: number;
  max_ack_pending?: number;
}

const takeoverKey = (spec: ConsumerSpec) => `takeover.${spec.stream}.${spec.name}`;

/**
 * Prepares a partition consumer for its new owner. When the previous owner left messages delivered but
 * unacknowledged (it crashed, or handed over with messages still buffered), JetStream would redeliver
 * them only after the ack wait, behind newer messages of the same sessions. Recreating the consumer at
 * its ack floor redelivers them first and in order; handlers are idempotent, so what was already done
 * is done again harmlessly. Returns how many messages were pending.
 *
 * Deleting and adding are two steps: where the consumer starts again is stored first, so that a
 * replica that fails between them (the bus away) or the next owner adds it from there — never from the
 * start of the stream, never missing.
 */
export async function prepareConsumerForOwner(jsm: JetStreamManager, spec: ConsumerSpec, takeovers: RecordStore<TakeoverRecord>): Promise<number> {
  let info;
  try {
    info = await jsm.consumers.info(spec.stream, spec.name);
  } catch (error) {
    const interrupted = isApiError(error, CONSUMER_NOT_FOUND) ? await takeovers.get(takeoverKey(spec)) : undefined;
    if (!interrupted) throw error;
    await recreate(jsm, spec, interrupted.value, takeovers);
    return 0;
  }
  const pending = info.num_ack_pending;
  if (pending === 0) return 0;
  // As provisioned (`warden provision` knows the deployment's ack wait and limits), not as built here.
  const record: TakeoverRecord = { start: info.ack_floor.stream_seq + 1, ack_wait: info.config.ack_wait, max_ack_pending: info.config.max_ack_pending };
  await takeovers.put(takeoverKey(spec), record);
  await jsm.consumers.delete(spec.stream, spec.name);
  await recreate(jsm, spec, record, takeovers);
  return pending;
}

async function recreate(jsm: JetStreamManager, spec: ConsumerSpec, record: TakeoverRecord, takeovers: RecordStore<TakeoverRecord>): Promise<void> {
  await jsm.consumers.add(spec.stream, {
    ...consumerConfig(spec),
    ...(record.ack_wait ? { ack_wait: record.ack_wait } : {}),
    ...(record.max_ack_pending ? { max_ack_pending: record.max_ack_pending } : {}),
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: record.start,
  });
  await takeovers.delete(takeoverKey(spec));
}
