import { DeliverPolicy, type JetStreamManager } from '@nats-io/jetstream';
import { consumerConfig } from '../topology/provision.js';
import type { ConsumerSpec } from '../topology/topology.js';

/**
 * Prepares a partition consumer for its new owner. When the previous owner left messages delivered but
 * unacknowledged (it crashed, or handed over with messages still buffered), JetStream would redeliver
 * them only after the ack wait, behind newer messages of the same sessions. Recreating the consumer at
 * its ack floor redelivers them first and in order; handlers are idempotent, so what was already done
 * is done again harmlessly. Returns how many messages were pending.
 */
export async function prepareConsumerForOwner(jsm: JetStreamManager, spec: ConsumerSpec): Promise<number> {
  const info = await jsm.consumers.info(spec.stream, spec.name);
  const pending = info.num_ack_pending;
  if (pending === 0) return 0;
  await jsm.consumers.delete(spec.stream, spec.name);
  await jsm.consumers.add(spec.stream, {
    ...consumerConfig(spec),
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: info.ack_floor.stream_seq + 1,
  });
  return pending;
}
