import { hostname } from 'node:os';
import { CHANNELS, channelsReceivedBy, type ChannelId, type ServiceName } from '@warden/contracts';
import { buildTopology, TOPOLOGY_DEFAULTS, type NatsSettings } from '@warden/messaging';
import type { TransportOptions } from './jetstream.server.js';

export interface MessagingOptions {
  service: ServiceName;
  nats: NatsSettings;
  /** Partition count; must match the server's mapping and the provisioned consumers. Default 8. */
  partitions?: number;
  /** Stored channels to consume. Default: every stored channel the contracts list this service as a receiver of. */
  channels?: ChannelId[];
  /** Unique per process; default `<service>-<host>-<pid>-<random>`. */
  replicaId?: string;
  /** Membership (and partition lease) renewal interval. Default 2000 ms. */
  heartbeatMs?: number;
  /** A replica silent this long loses its partitions. Default 8000 ms. */
  leaseMs?: number;
  /** Largest message a handler accepts; bigger ones are dead-lettered. Default 1 MiB. */
  maxPayloadBytes?: number;
  /** Handlers running at once in this process. Default 256. */
  maxConcurrentHandlers?: number;
  /** Process each session's messages in order. Default true. */
  sessionOrdering?: boolean;
  /** Delivery attempts before a failing message is dead-lettered. Default 5. */
  maxDeliver?: number;
  /** Check the server's partition mapping at start. Default true. */
  verifyPartitionMapping?: boolean;
}

export const MESSAGING_DEFAULTS = {
  // One member write per replica every 2 s is most of what an idle suite does; a replica that dies
  // without handing over has its partitions taken over 8 s later (one that stops hands over at once).
  heartbeatMs: 2_000,
  leaseMs: 8_000,
  maxPayloadBytes: 1024 * 1024,
  maxConcurrentHandlers: 256,
  sessionOrdering: true,
  verifyPartitionMapping: true,
} as const;

/** Everything resolved: the transport's options and the connection. */
export interface ResolvedMessagingOptions extends TransportOptions {
  nats: NatsSettings;
}

export function defaultReplicaId(service: string): string {
  const host = hostname().replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
  return `${service}-${host}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
}

export function resolveMessagingOptions(options: MessagingOptions): ResolvedMessagingOptions {
  return {
    ...MESSAGING_DEFAULTS,
    service: options.service,
    nats: { name: `warden-${options.service}`, ...options.nats },
    // Request channels (core request/reply, no stream) are answered by the service's own subscriptions.
    channels: options.channels ?? channelsReceivedBy(options.service).filter((c) => CHANNELS[c].kind !== 'request'),
    replicaId: options.replicaId ?? defaultReplicaId(options.service),
    ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    ...(options.maxPayloadBytes !== undefined ? { maxPayloadBytes: options.maxPayloadBytes } : {}),
    ...(options.maxConcurrentHandlers !== undefined ? { maxConcurrentHandlers: options.maxConcurrentHandlers } : {}),
    ...(options.sessionOrdering !== undefined ? { sessionOrdering: options.sessionOrdering } : {}),
    ...(options.verifyPartitionMapping !== undefined ? { verifyPartitionMapping: options.verifyPartitionMapping } : {}),
    topology: buildTopology({
      partitions: options.partitions ?? TOPOLOGY_DEFAULTS.partitions,
      maxDeliver: options.maxDeliver ?? TOPOLOGY_DEFAULTS.maxDeliver,
    }),
  };
}
