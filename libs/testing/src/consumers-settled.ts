import type { JetStreamManager } from '@nats-io/jetstream';
import { eventually } from './eventually.js';

/**
 * Waits until the named services have handled everything: no consumer of theirs (named `<service>-…`)
 * has a message pending or unacknowledged. Before a service is killed, this is what makes the messages it
 * handled stay handled: one it had not acknowledged yet would be delivered again after the kill.
 */
export async function consumersSettled(jsm: JetStreamManager, services: readonly string[], timeoutMs = 180_000): Promise<void> {
  // The consumers still holding messages (`name: pending/unacknowledged`), so that a timeout names them.
  const busy = async () => {
    const holding: string[] = [];
    for await (const stream of jsm.streams.list()) {
      for (const consumer of await jsm.consumers.list(stream.config.name).next()) {
        if (!services.some((s) => consumer.name.startsWith(`${s}-`))) continue;
        if (consumer.num_pending + consumer.num_ack_pending) holding.push(`${consumer.name}: ${consumer.num_pending}/${consumer.num_ack_pending}`);
      }
    }
    return holding;
  };
  // Twice in a row: what one service just published may not have reached the next one's consumer yet.
  let quiet = 0;
  await eventually(
    'every service to have handled everything (consumers still holding messages: pending/unacknowledged)',
    async () => {
      const holding = await busy().catch((error: Error) => [`the bus could not be read: ${error.message}`]);
      quiet = holding.length ? 0 : quiet + 1;
      return holding;
    },
    (holding) => holding.length === 0 && quiet >= 2,
    { timeoutMs, intervalMs: 250 },
  );
}
