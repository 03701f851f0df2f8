import {
  AUTOMATION_LEVEL_BUCKET,
  BREAKER_LEDGER_BUCKET,
  BREAKER_STATE_BUCKET,
  checkpointBucket,
  SEAL_KEY_BUCKET,
  CONTROL_MAILBOX_BUCKET,
  CONTROL_MAILBOX_TTL_MS,
  DECISION_RECORD_BUCKET,
  DECISION_RECORD_TTL_MS,
  GATE_BUFFER_STREAM,
  GATE_CONTEXT_BUCKET,
  GATE_REQUEST_BUCKET,
  GATE_APPROVAL_BUCKET,
  HOOK_SESSION_BUCKET,
  HOOK_SESSION_TTL_MS,
  GATE_SESSION_BUCKET,
  gateBufferStreamSubject,
  INTERVENTION_STATE_BUCKET,
  LADDER_RECORD_BUCKET,
  OPERATOR_BUCKET,
  OPERATOR_SESSION_BUCKET,
  OPERATOR_SESSION_TTL_MS,
  PATTERN_SESSION_BUCKET,
  SESSION_STATE_TTL_MS,
  CHANNELS,
  channelsReceivedBy,
  deadLetterStreamSubject,
  partitionFilter,
  SERVICES,
  streamSubject,
  type ChannelId,
  type ServiceName,
  type SessionChannelId,
} from '@warden/contracts';

/** Defaults shared by provisioning, the server configuration and the services. */
export const TOPOLOGY_DEFAULTS = {
  /** Sessions are spread over this many partitions per channel. Must match the server's subject mapping. */
  partitions: 8,
  /** Stream replicas: 1 on a single server, 3 on the cluster configuration. */
  replicas: 1,
  /** JetStream's window for Nats-Msg-Id de-duplication. */
  duplicateWindowMs: 2 * 60_000,
  /** How long a consumer waits for an ack before redelivering. */
  ackWaitMs: 30_000,
  /** Deliveries before a failing message is dead-lettered. */
  maxDeliver: 5,
  /** Unacknowledged messages a consumer may have out at once. */
  maxAckPending: 1_000,
} as const;

export interface TopologyOptions {
  partitions: number;
  replicas: number;
  duplicateWindowMs: number;
  ackWaitMs: number;
  maxDeliver: number;
  maxAckPending: number;
  /**
   * Agents whose checkpoint object store is provisioned. Agents may use their store but not create
   * streams (a stream an agent configured could capture other subjects), so Warden creates it. Default none.
   */
  agents?: readonly string[];
  /** Bytes each agent's checkpoint object store may hold (JetStream refuses more); default 256 MiB. */
  checkpointMaxBytes?: number;
}

/** What one agent's checkpoint snapshots may take on disk unless provisioned otherwise. */
export const CHECKPOINT_MAX_BYTES = 256 * 1024 * 1024;

export interface StreamSpec {
  name: string;
  subjects: string[];
  maxAgeMs: number;
  duplicateWindowMs: number;
  replicas: number;
}

export interface ConsumerSpec {
  stream: string;
  name: string;
  service: ServiceName;
  channel: ChannelId;
  /** Null for a consumer shared by all replicas (no partition ownership). */
  partition: number | null;
  filterSubject: string;
  ackWaitMs: number;
  maxDeliver: number;
  maxAckPending: number;
}

export interface KeyValueSpec {
  bucket: string;
  description: string;
  history: number;
  replicas: number;
  /** Keys not written for this long expire; none when unset. */
  ttlMs?: number;
}

/** An object store of the suite: each agent's checkpoint snapshots. */
export interface ObjectStoreSpec {
  bucket: string;
  description: string;
  replicas: number;
  /** The store's byte limit: an agent cannot fill the server's disk with its own snapshots. */
  maxBytes: number;
}

export interface Topology {
  options: TopologyOptions;
  streams: StreamSpec[];
  consumers: ConsumerSpec[];
  keyValues: KeyValueSpec[];
  objectStores: ObjectStoreSpec[];
}

export function streamName(channelId: ChannelId): string {
  return `WARDEN_${channelId.toUpperCase()}`;
}

/** Durable consumer names: `<service>-<channel>-p<partition>`, or `<service>-<channel>` when shared. */
export function consumerName(service: ServiceName, channelId: ChannelId, partition: number | null): string {
  return partition === null ? `${service}-${channelId}` : `${service}-${channelId}-p${partition}`;
}

/** The KV bucket where replicas of a service claim partitions. */
export const PARTITION_BUCKET = 'warden_partitions';

export function resolveTopologyOptions(overrides: Partial<TopologyOptions> = {}): TopologyOptions {
  const options = { ...TOPOLOGY_DEFAULTS, ...overrides };
  if (!Number.isInteger(options.partitions) || options.partitions < 1 || options.partitions > 1024) {
    throw new Error(`partitions must be an integer between 1 and 1024 (got ${options.partitions})`);
  }
  return options;
}

/**
 * Every stream, consumer and KV bucket of the suite, derived from the channel table in the contracts:
 * one stream per stored channel, and for each service that receives a session channel one durable
 * consumer per partition.
 */
export function buildTopology(overrides: Partial<TopologyOptions> = {}): Topology {
  const options = resolveTopologyOptions(overrides);
  const streams: StreamSpec[] = [];
  for (const channel of Object.values(CHANNELS)) {
    if (channel.kind === 'request') continue;
    streams.push({
      name: streamName(channel.id as ChannelId),
      subjects: [channel.kind === 'session' ? streamSubject(channel.id as SessionChannelId) : deadLetterStreamSubject()],
      maxAgeMs: channel.maxAgeHours * 3_600_000,
      duplicateWindowMs: options.duplicateWindowMs,
      replicas: options.replicas,
    });
  }
  // The gate's buffer of paused sessions: kept until flushed (no age limit), read only by the gate.
  streams.push({
    name: GATE_BUFFER_STREAM,
    subjects: [gateBufferStreamSubject()],
    maxAgeMs: 0,
    duplicateWindowMs: options.duplicateWindowMs,
    replicas: options.replicas,
  });
  const consumers: ConsumerSpec[] = [];
  for (const service of SERVICES) {
    for (const channelId of channelsReceivedBy(service)) {
      consumers.push(...consumersOf(service, channelId, options));
    }
  }
  const keyValues: KeyValueSpec[] = [
    {
      bucket: PARTITION_BUCKET,
      description: 'Which replica of each service owns which partition, and which replicas are alive.',
      history: 1,
      replicas: options.replicas,
    },
    {
      bucket: BREAKER_STATE_BUCKET,
      description: 'Breaker state per session (<agent>.<session>), written by the breaker, read by the reviewer.',
      history: 1,
      replicas: options.replicas,
    },
    {
      bucket: AUTOMATION_LEVEL_BUCKET,
      description: 'Automation level per agent, written by the ladder, read by the reviewer.',
      history: 1,
      replicas: options.replicas,
    },
    {
      bucket: BREAKER_LEDGER_BUCKET,
      description: "The breaker's accounting per session and per agent's rolling day, so replicas take over where others stopped.",
      history: 1,
      replicas: options.replicas,
      // Sessions silent for a week (and their phase clocks) are forgotten; the day ledger needs only 24 hours.
      ttlMs: 7 * 24 * 3_600_000,
    },
    {
      bucket: LADDER_RECORD_BUCKET,
      description: "The ladder's track record per agent: metrics, level and operator pin.",
      history: 1,
      replicas: options.replicas,
    },
    {
      bucket: PATTERN_SESSION_BUCKET,
      description: "The pattern detector's windows and episodes per session.",
      history: 1,
      replicas: options.replicas,
      ttlMs: SESSION_STATE_TTL_MS,
    },
    {
      bucket: INTERVENTION_STATE_BUCKET,
      description: "The intervention controller's record of each session: history, cooldown, counts, checkpoints.",
      history: 1,
      replicas: options.replicas,
      ttlMs: SESSION_STATE_TTL_MS,
    },
    {
      bucket: GATE_SESSION_BUCKET,
      description: "The gate's relay state of each paused session and the progress of its flush.",
      history: 1,
      replicas: options.replicas,
    },
    {
      bucket: GATE_CONTEXT_BUCKET,
      description: 'Phase and environment of each session, for the human gates.',
      history: 1,
      replicas: options.replicas,
      ttlMs: 30 * 24 * 3_600_000,
    },
    {
      bucket: OPERATOR_BUCKET,
      description: 'Operators of the HTTP APIs and the console: role, scrypt password hash, SHA-256 of each API token.',
      history: 1,
      replicas: options.replicas,
    },
    {
      bucket: OPERATOR_SESSION_BUCKET,
      description: 'Console login sessions by SHA-256 of the session token; forgotten when the login expires.',
      history: 1,
      replicas: options.replicas,
      ttlMs: OPERATOR_SESSION_TTL_MS,
    },
    {
      bucket: GATE_REQUEST_BUCKET,
      description: 'Human gate approval requests, pending and answered (answers to stale requests are refused).',
      history: 1,
      replicas: options.replicas,
      ttlMs: 30 * 24 * 3_600_000,
    },
    {
      bucket: GATE_APPROVAL_BUCKET,
      description: "The gate's approval channels' outbox: what is still to be sent to Slack or a webhook per request, and the Slack message posted for it.",
      history: 1,
      replicas: options.replicas,
      ttlMs: 30 * 24 * 3_600_000,
    },
    {
      bucket: DECISION_RECORD_BUCKET,
      description: 'Every decided action (<agent>.<session>.<action>): the decision and a digest of the action, so that an action id gets one decision.',
      history: 1,
      replicas: options.replicas,
      ttlMs: DECISION_RECORD_TTL_MS,
    },
    {
      bucket: CONTROL_MAILBOX_BUCKET,
      description: "Each session's recent control messages (<agent>.<session>), for agent processes that were not listening when they were sent; each agent reads only its own.",
      history: 1,
      replicas: options.replicas,
      ttlMs: CONTROL_MAILBOX_TTL_MS,
    },
    {
      bucket: SEAL_KEY_BUCKET,
      description: 'The key pair agents seal the secrets of their actions with: the public half for agents, both halves for the reviewer.',
      history: 1,
      replicas: options.replicas,
    },
    {
      bucket: HOOK_SESSION_BUCKET,
      description: "The agent gateway's Claude Code sessions: the agent each belongs to, and the hook's state of each.",
      history: 1,
      replicas: options.replicas,
      ttlMs: HOOK_SESSION_TTL_MS,
    },
  ];
  const objectStores: ObjectStoreSpec[] = [...new Set(options.agents ?? [])].map((agent) => ({
    bucket: checkpointBucket(agent),
    description: `Checkpoint snapshots of agent ${agent}, for rollback; only that agent reads and writes it.`,
    replicas: options.replicas,
    maxBytes: options.checkpointMaxBytes ?? CHECKPOINT_MAX_BYTES,
  }));
  return { options, streams, consumers, keyValues, objectStores };
}

function consumersOf(service: ServiceName, channelId: ChannelId, options: TopologyOptions): ConsumerSpec[] {
  const channel = CHANNELS[channelId];
  const base = {
    stream: streamName(channelId),
    service,
    channel: channelId,
    ackWaitMs: options.ackWaitMs,
    maxDeliver: options.maxDeliver,
    maxAckPending: options.maxAckPending,
  };
  if (channel.kind === 'request') return [];
  if (channel.kind === 'deadletter') {
    return [{ ...base, name: consumerName(service, channelId, null), partition: null, filterSubject: deadLetterStreamSubject() }];
  }
  return Array.from({ length: options.partitions }, (_, partition) => ({
    ...base,
    name: consumerName(service, channelId, partition),
    partition,
    filterSubject: partitionFilter(channelId as SessionChannelId, partition),
  }));
}

export function consumersFor(topology: Topology, service: ServiceName): ConsumerSpec[] {
  return topology.consumers.filter((c) => c.service === service);
}
