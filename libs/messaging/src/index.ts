export { DEFAULT_NATS_URL, type NatsSettings, natsSettingsFromEnv } from './connection/nats-settings.js';
export { BusConnection, type BusConnectionEvents } from './connection/bus-connection.js';
export {
  buildTopology,
  consumerName,
  consumersFor,
  type ConsumerSpec,
  type KeyValueSpec,
  type ObjectStoreSpec,
  PARTITION_BUCKET,
  resolveTopologyOptions,
  streamName,
  type StreamSpec,
  type Topology,
  TOPOLOGY_DEFAULTS,
  type TopologyOptions,
} from './topology/topology.js';
export { type SettleOptions, whileJetStreamSettles } from './connection/jetstream-settling.js';
export {
  type ChangeAction,
  CONSUMER_NOT_FOUND,
  consumerConfig,
  consumerDrift,
  isApiError,
  provision,
  type ProvisionChange,
  type ProvisionOptions,
  type ProvisionReport,
  STREAM_MAX_MESSAGE_BYTES,
  STREAM_NOT_FOUND,
  streamConfig,
} from './topology/provision.js';
export { type PartitionProbeResult, probePartitionMapping } from './topology/partition-probe.js';
export {
  agentInboxPrefix,
  agentPasswordVariable,
  agentPermissions,
  NATS_MAX_PAYLOAD,
  type NatsServerConfigOptions,
  type NatsUser,
  operatorPermissions,
  PARTITION_PROBE_ROOT,
  passwordVariable,
  renderNatsServerConfig,
  type Secret,
  wardenAccount,
  type WardenAccountUser,
} from './topology/nats-server-config.js';
export {
  NATS_CONFIG_DEFAULTS,
  NATS_EXPORTER_PORT,
  NATS_HELM_CHART,
  NATS_SERVER_IMAGE_TAG,
  type NatsHelmValuesOptions,
  renderNatsHelmValues,
} from './topology/nats-helm-values.js';
export { LeaseConflictError, type LeaseEntry, type LeaseStore } from './partitions/lease-store.js';
export { KvLeaseStore } from './partitions/kv-lease-store.js';
export { assignPartitions } from './partitions/partition-assignment.js';
export {
  PartitionCoordinator,
  type PartitionCoordinatorOptions,
  type PartitionHandler,
  type ReleaseReason,
} from './partitions/partition-coordinator.js';
export { type Screening, screenMessage, type ScreenRules } from './consumer/message-screen.js';
export { ChannelConsumer } from './consumer/channel-consumer.js';
export { ConcurrencyLimit } from './consumer/concurrency-limit.js';
export { prepareConsumerForOwner, type TakeoverRecord } from './consumer/consumer-takeover.js';
export { buildDeadLetter, type DeadLetter, type RejectedMessage } from './consumer/dead-letter.js';
export { type MessageReceipt } from './consumer/message-receipt.js';
export { SessionLanes } from './consumer/session-lanes.js';
export { asTransient, isConflict, onTheBus } from './state/bus-failures.js';
export { openBucket, RecordConflictError, RecordStore, type Updated, type Versioned } from './state/record-store.js';
export { ensureSealKeys, SealKeyring } from './state/seal-keyring.js';
export { BucketMirror, type MirrorListener, type MirrorOptions } from './state/bucket-mirror.js';
export {
  type HolderEvents,
  type HolderOptions,
  type PartitionSource,
  type SessionAddress,
  SessionHolder,
} from './state/session-holder.js';
export {
  type Held,
  type KeeperOptions,
  type KeptSession,
  type Outgoing,
  SessionKeeper,
  type SessionModel,
  SESSION_STORE_BATCHING,
  sessionRecordKey,
  type SessionStep,
  type StoreBatching,
} from './state/session-keeper.js';
export { type LifecycleMessage, SessionLifecycle, sessionMessageOf } from './state/session-lifecycle.js';
export { readSubject, type ReadSubjectOptions, type StoredMessage } from './state/stored-subject.js';
export { ContractViolationError, RejectMessageError, TransientError } from './errors.js';
export { MessagingMetrics } from './messaging-metrics.js';
export { MessagePublisher } from './message-publisher.js';
