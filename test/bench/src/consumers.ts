import type { JetStreamManager } from '@nats-io/jetstream';
import { CHANNELS, channelsReceivedBy, type ServiceName } from '@warden/contracts';
import { consumerName, streamName } from '@warden/messaging';

/** Recreates a service's consumers to deliver only what is published from now on. */
export async function startFromNewMessages(jsm: JetStreamManager, service: ServiceName, partitions: number): Promise<void> {
  for (const channel of channelsReceivedBy(service).filter((c) => CHANNELS[c].kind === 'session')) {
    for (let p = 0; p < partitions; p++) {
      const name = consumerName(service, channel, p);
      const { config } = await jsm.consumers.info(streamName(channel), name);
      await jsm.consumers.delete(streamName(channel), name);
      await jsm.consumers.add(streamName(channel), { ...config, deliver_policy: 'new' as never });
    }
  }
}

/** Messages a service's session consumers have not acknowledged yet. */
export async function pendingFor(jsm: JetStreamManager, service: ServiceName, partitions: number): Promise<number> {
  let total = 0;
  for (const channel of channelsReceivedBy(service).filter((c) => CHANNELS[c].kind === 'session')) {
    for (let p = 0; p < partitions; p++) {
      const info = await jsm.consumers.info(streamName(channel), consumerName(service, channel, p));
      total += info.num_pending + info.num_ack_pending;
    }
  }
  return total;
}
