import type { MetricsRegistry } from '@warden/observability';

/** The series every service's transport exports. Labels are bounded: channel, message type, reason. */
export class MessagingMetrics {
  readonly handlerDuration;
  readonly processed;
  readonly failed;
  readonly deadLettered;
  readonly published;
  readonly redactions;
  readonly partitionsOwned;
  readonly partitionChanges;
  readonly fenceWaits;
  readonly connected;
  readonly consumerDrift;

  constructor(registry: MetricsRegistry) {
    this.handlerDuration = registry.histogram({
      name: 'warden_handler_duration_seconds',
      help: 'Time from receiving a message to acknowledging it, by channel and message type.',
      labelNames: ['channel', 'type'],
    });
    this.processed = registry.counter({
      name: 'warden_messages_processed_total',
      help: 'Messages consumed and acknowledged; result is handled or unhandled (no handler in this service).',
      labelNames: ['channel', 'type', 'result'],
    });
    this.failed = registry.counter({
      name: 'warden_messages_failed_total',
      help: 'Handler failures; disposition is retry (retried in place, or redelivered with a delay) or dead_letter (delivery limit reached).',
      labelNames: ['channel', 'type', 'disposition'],
    });
    this.deadLettered = registry.counter({
      name: 'warden_messages_dead_lettered_total',
      help: 'Messages rejected to the dead-letter subject, by channel and reason.',
      labelNames: ['channel', 'reason'],
    });
    this.published = registry.counter({
      name: 'warden_messages_published_total',
      help: 'Messages published to JetStream, by channel and type; duplicate is true when JetStream de-duplicated it.',
      labelNames: ['channel', 'type', 'duplicate'],
    });
    this.redactions = registry.counter({
      name: 'warden_secrets_redacted_total',
      help: 'Secrets removed before a message excerpt was logged or stored, by kind.',
      labelNames: ['kind'],
    });
    this.partitionsOwned = registry.gauge({
      name: 'warden_partitions_owned',
      help: 'Partitions this replica owns.',
    });
    this.partitionChanges = registry.counter({
      name: 'warden_partition_changes_total',
      help: 'Partitions acquired or released by this replica, by event (acquired, takeover, rebalance, lost, shutdown).',
      labelNames: ['event'],
    });
    this.fenceWaits = registry.counter({
      name: 'warden_partition_fence_waits_total',
      help: "Messages that came while their partition's lease waited for renewal, by outcome: held (handled once renewed) or lost (left to the next owner).",
      labelNames: ['outcome'],
    });
    this.connected = registry.gauge({
      name: 'warden_nats_connected',
      help: '1 while the NATS connection is up.',
    });
    this.consumerDrift = registry.gauge({
      name: 'warden_consumer_config_drift',
      help: "1 while one of this service's consumers is configured otherwise than the topology (another filter, a delivery target): what it delivers is not what the service expects; `warden provision` repairs it.",
      labelNames: ['consumer'],
    });
  }
}
