import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** How long a replay waits, after one of its messages, for the suite to have handled everything. */
export const QUIET_DEFAULTS = { timeoutMs: 10_000, pollMs: 5 } as const;

/**
 * Waits until every consumer of Warden's streams and state buckets that a service reads has handled
 * everything stored so far:
 * nothing pending, nothing delivered and unacknowledged, twice in a row (a message handled may publish
 * another). Then whatever the replay proposes next is reviewed knowing all that the session did before:
 * its outcomes, the breakers' state, the patterns and interventions they caused. Resolves false when the
 * suite is still busy after `timeoutMs`.
 */
export async function waitForQuiet(nc: NatsConnection, timeoutMs: number = QUIET_DEFAULTS.timeoutMs): Promise<boolean> {
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  const deadline = Date.now() + timeoutMs;
  let quietRounds = 0;
  while (Date.now() < deadline) {
    if (await busy(jsm)) quietRounds = 0;
    else if (++quietRounds >= 2) return true;
    await new Promise((resolve) => setTimeout(resolve, QUIET_DEFAULTS.pollMs));
  }
  return false;
}

async function busy(jsm: Awaited<ReturnType<typeof jetstreamManager>>): Promise<boolean> {
  for await (const stream of jsm.streams.names()) {
    if (!stream.startsWith('WARDEN_') && !stream.startsWith('KV_warden_')) continue;
    for await (const consumer of jsm.consumers.list(stream)) {
      // Only consumers someone reads: a service's pull requests waiting, a bound watcher, or work in hand.
      // The consumers of a service that is not running fill up without anyone to empty them.
      const attended = consumer.push_bound === true || consumer.num_waiting > 0 || consumer.num_ack_pending > 0;
      if (attended && (consumer.num_pending > 0 || consumer.num_ack_pending > 0)) return true;
    }
  }
  return false;
}
