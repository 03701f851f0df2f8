import { partitionOf, PARTITION_PROBE_ROOT } from '@warden/contracts';
import type { NatsConnection } from '@nats-io/transport-node';

export interface PartitionProbeResult {
  ok: boolean;
  detail: string;
}

/**
 * Checks that the server's subject mapping spreads sessions over the same number of partitions as this
 * process expects, by publishing probe keys and reading where the server put them.
 */
export async function probePartitionMapping(nc: NatsConnection, partitions: number, timeoutMs = 2_000): Promise<PartitionProbeResult> {
  const keys = Array.from({ length: 16 }, (_, i) => `probe${i}x${Math.random().toString(36).slice(2, 8)}`);
  const sub = nc.subscribe(`${PARTITION_PROBE_ROOT}.>`);
  const seen = new Map<string, string>();
  const done = (async () => {
    for await (const msg of sub) {
      const tokens = msg.subject.split('.');
      const key = tokens[tokens.length - 1]!;
      if (keys.includes(key)) seen.set(key, tokens.length === 4 ? tokens[2]! : '');
      if (seen.size === keys.length) break;
    }
  })();
  await nc.flush();
  for (const key of keys) nc.publish(`${PARTITION_PROBE_ROOT}.${key}`);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  sub.unsubscribe();
  if (seen.size < keys.length) {
    return { ok: false, detail: `partition probe got ${seen.size} of ${keys.length} replies; is this user allowed on ${PARTITION_PROBE_ROOT}.>?` };
  }
  const unmapped = [...seen.values()].filter((p) => p === '').length;
  if (unmapped) {
    return {
      ok: false,
      detail: 'the NATS server has no Warden partition mapping; start it with a configuration from `warden nats-config` (deploy/nats)',
    };
  }
  const wrong = keys.filter((k) => Number(seen.get(k)) !== partitionOf(k, partitions));
  if (wrong.length) {
    return {
      ok: false,
      detail: `the NATS server partitions sessions differently than WARDEN_PARTITIONS=${partitions}; render its configuration with the same partition count`,
    };
  }
  return { ok: true, detail: `server maps sessions to ${partitions} partitions` };
}
