import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { JsMsg } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { NO_SCOPE, type AnyMessage, type ChannelId, type DeadLetterReason, type ServiceName, type SessionAddress } from '@warden/contracts';
import {
  buildDeadLetter,
  ChannelConsumer,
  ConcurrencyLimit,
  CONSUMER_NOT_FOUND,
  isApiError,
  KvLeaseStore,
  PARTITION_BUCKET,
  PartitionCoordinator,
  prepareConsumerForOwner,
  probePartitionMapping,
  RecordStore,
  RejectMessageError,
  screenMessage,
  SessionLanes,
  STREAM_NOT_FOUND,
  TransientError,
  consumerDrift,
  whileJetStreamSettles,
  type BusConnection,
  type ConsumerSpec,
  type MessagePublisher,
  type MessagingMetrics,
  type ReleaseReason,
  type TakeoverRecord,
  type Topology,
} from '@warden/messaging';
import { lazyMessageLogger, type Logger } from '@warden/observability';
import { NOOP_MESSAGE_TRACER, type MessageTracer } from '@warden/tracing';
import { isObservable, lastValueFrom } from 'rxjs';
import { JetStreamContext } from './jetstream.context.js';
import { ANY_MESSAGE } from './on-message.decorator.js';

export interface TransportOptions {
  service: ServiceName;
  /** Channels this service consumes. */
  channels: ChannelId[];
  topology: Topology;
  replicaId: string;
  heartbeatMs: number;
  leaseMs: number;
  /** Bigger messages are dead-lettered as `oversized`. */
  maxPayloadBytes: number;
  /** Handlers running at once across all consumers of the process. */
  maxConcurrentHandlers: number;
  /** Run each session's messages one after another (stateful services); off for pure sinks. */
  sessionOrdering: boolean;
  /** Check the server's partition mapping at start. */
  verifyPartitionMapping: boolean;
}

/** Delay before a failed message is redelivered: 250 ms, doubling per attempt, at most 10 s. */
export function retryDelayMs(deliveryCount: number): number {
  return Math.min(250 * 2 ** Math.max(0, deliveryCount - 1), 10_000);
}

export class TopologyMissingError extends Error {}

/** How often a running service checks that its consumers are still configured as the topology says. */
const DRIFT_CHECK_MS = 60_000;

/**
 * Warden's JetStream transport for Nest (`app.connectMicroservice({ strategy })`).
 *
 * It pulls the durable consumers the topology declares for this service: one per partition of each
 * session channel it receives, for the partitions this replica owns (see PartitionCoordinator), plus
 * shared consumers. Each message is screened (size, subject, partition, JSON, schema, channel, identity)
 * before a handler sees it; rejected messages are copied to the dead-letter subject with the reason and
 * terminated. A message is acknowledged only after its handler resolves (or, when the handler took the
 * acknowledgement over with JetStreamContext.deferAcknowledgement, by its receipt). A handler that throws
 * TransientError (a dependency is down) has its message retried in its place, in its session's lane,
 * with a growing delay for as long as it takes (the session's later messages wait behind it: a
 * redelivery would come after them); any other failure is redelivered with a growing delay and
 * dead-lettered at the delivery limit.
 *
 * Events (`on`): `partition.acquired`, `partition.released`, `members`, `dead_letter`, `error`.
 */
export class JetStreamServer extends Server implements CustomTransportStrategy {
  private readonly emitter = new EventEmitter();
  private readonly lanes = new SessionLanes();
  private readonly takeovers: RecordStore<TakeoverRecord>;
  private readonly limit: ConcurrencyLimit;
  private readonly consumers = new Map<number | 'shared', ChannelConsumer[]>();
  private readonly handlerByType = new Map<string, MessageHandler | null>();
  private coordinator?: PartitionCoordinator;
  private running = false;
  private stopping?: Promise<void>;
  /** Aborted at shutdown: a message waiting to be retried in its place is left to the next owner. */
  private readonly stopped = new AbortController();
  private driftTimer?: NodeJS.Timeout;

  constructor(
    private readonly bus: BusConnection,
    private readonly publisher: MessagePublisher,
    private readonly metrics: MessagingMetrics,
    private readonly log: Logger,
    readonly options: TransportOptions,
    /** The span of each handling (a child of the message's publication), when tracing is on. */
    private readonly tracer: MessageTracer = NOOP_MESSAGE_TRACER,
  ) {
    super();
    this.limit = new ConcurrencyLimit(options.maxConcurrentHandlers);
    this.takeovers = new RecordStore<TakeoverRecord>(bus.nc, PARTITION_BUCKET);
    // Problems are logged and reported to listeners, never thrown: an 'error' event nobody listens to
    // (a lease write timing out while the bus elects a leader) would end the process.
    this.emitter.on('error', () => undefined);
  }

  /** True once consumers run and the replica has held the partitions the group assigned it. */
  get ready(): boolean {
    return this.running && (this.coordinator?.settled ?? true);
  }

  ownedPartitions(): number[] {
    return this.coordinator?.ownedPartitions() ?? [];
  }

  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- the signature Nest's Server declares
  override on(event: string, callback: Function): this {
    this.emitter.on(event, callback as (...args: unknown[]) => void);
    return this;
  }

  override unwrap<T>(): T {
    return this.bus.nc as T;
  }

  override async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  override async close(): Promise<void> {
    this.stopping ??= this.stop();
    await this.stopping;
  }

  private specs(): ConsumerSpec[] {
    return this.options.topology.consumers.filter(
      (c) => c.service === this.options.service && this.options.channels.includes(c.channel),
    );
  }

  private async start(): Promise<void> {
    const specs = this.specs();
    // A cluster whose every server just restarted answers "temporarily unavailable" until it has elected
    // its leaders: a service started then waits for it rather than exiting.
    const settling = {
      onWait: (error: unknown, attempt: number, delayMs: number) =>
        this.log.warn({ attempt, delayMs, err: (error as Error).message }, 'JetStream is not available yet: waiting for it'),
    };
    await whileJetStreamSettles(() => this.verifyTopology(specs), settling);
    this.watchDrift(specs);
    const partitioned = specs.some((s) => s.partition !== null);
    if (partitioned && this.options.verifyPartitionMapping) {
      const probe = await probePartitionMapping(this.bus.nc, this.options.topology.options.partitions);
      if (!probe.ok) throw new TopologyMissingError(probe.detail);
    }
    const shared = specs.filter((s) => s.partition === null).map((s) => this.consumerFor(s));
    // Opening a consumer meets the same election as the checks above; one that failed to open holds nothing.
    await Promise.all(shared.map((c) => whileJetStreamSettles(() => c.start(), settling)));
    this.consumers.set('shared', shared);
    this.running = true;
    void this.reopenAfterReconnects();
    if (partitioned) {
      const kv = await whileJetStreamSettles(() => new Kvm(this.bus.nc).open(PARTITION_BUCKET), settling);
      this.coordinator = new PartitionCoordinator({
        group: this.options.service,
        replicaId: this.options.replicaId,
        partitions: this.options.topology.options.partitions,
        heartbeatMs: this.options.heartbeatMs,
        leaseMs: this.options.leaseMs,
        store: new KvLeaseStore(kv),
        handler: {
          acquire: (partition, takeover) => this.acquire(partition, takeover),
          release: (partition, reason) => this.release(partition, reason),
        },
      });
      this.coordinator.on('acquired', (partition: number, takeover: boolean) => {
        this.metrics.partitionChanges.inc({ event: takeover ? 'takeover' : 'acquired' });
        this.metrics.partitionsOwned.set(this.ownedPartitions().length);
        this.log.info({ partition, takeover }, 'partition acquired');
        this.emitter.emit('partition.acquired', partition, takeover);
      });
      this.coordinator.on('released', (partition: number, reason: ReleaseReason) => {
        this.metrics.partitionChanges.inc({ event: reason });
        this.metrics.partitionsOwned.set(this.ownedPartitions().length);
        this.log.info({ partition, reason }, 'partition released');
        this.emitter.emit('partition.released', partition, reason);
      });
      this.coordinator.on('members', (members: string[]) => {
        this.log.info({ members }, 'replica group changed');
        this.emitter.emit('members', members);
      });
      this.coordinator.on('error', (error: Error) => {
        this.log.warn({ err: error }, 'partition coordination problem');
        this.emitter.emit('error', error);
      });
      await this.coordinator.start();
    }
  }

  private async stop(): Promise<void> {
    this.running = false;
    this.stopped.abort();
    clearInterval(this.driftTimer);
    // With the bus out of reach nothing can be handed over: the leases lapse for the next owner.
    await this.coordinator?.stop(this.bus.connected);
    await Promise.all((this.consumers.get('shared') ?? []).map((c) => c.stop()));
    this.consumers.clear();
  }

  /**
   * Fails fast, with the fix, when streams or consumers were never provisioned; reports (log, metric) a
   * consumer configured otherwise than the topology, which delivers what the service does not expect
   * (checked again every DRIFT_CHECK_MS while the service runs).
   */
  private async verifyTopology(specs: ConsumerSpec[]): Promise<void> {
    const missing: string[] = [];
    await Promise.all(
      specs.map(async (spec) => {
        try {
          const info = await this.bus.jsm.consumers.info(spec.stream, spec.name);
          this.reportDrift(spec, info.config as unknown as Record<string, unknown>);
        } catch (error) {
          if (isApiError(error, CONSUMER_NOT_FOUND) || isApiError(error, STREAM_NOT_FOUND)) {
            missing.push(`${spec.stream}/${spec.name}`);
          } else {
            throw error;
          }
        }
      }),
    );
    if (missing.length) {
      throw new TopologyMissingError(
        `${missing.length} JetStream consumer(s) missing, e.g. ${missing.sort().slice(0, 3).join(', ')}: ` +
          'run `warden provision` with the same partition count first',
      );
    }
  }

  private reportDrift(spec: ConsumerSpec, config: Record<string, unknown>): void {
    const drift = consumerDrift(spec, config);
    this.metrics.consumerDrift.set({ consumer: spec.name }, drift ? 1 : 0);
    if (drift) this.log.error({ consumer: `${spec.stream}/${spec.name}`, drift }, 'a consumer of this service strays from the topology: run `warden provision` to repair it');
  }

  /** Every DRIFT_CHECK_MS, the consumers' configuration again (a bus that cannot answer is checked next time). */
  private watchDrift(specs: ConsumerSpec[]): void {
    this.driftTimer = setInterval(() => {
      for (const spec of specs) {
        this.bus.jsm.consumers.info(spec.stream, spec.name).then(
          (info) => this.reportDrift(spec, info.config as unknown as Record<string, unknown>),
          () => undefined,
        );
      }
    }, DRIFT_CHECK_MS);
    this.driftTimer.unref();
  }

  private consumerFor(spec: ConsumerSpec): ChannelConsumer {
    return new ChannelConsumer(this.bus.js, spec, (m, s) => this.process(m, s), this.limit, (error) =>
      this.log.error({ err: error, consumer: spec.name }, 'message processing crashed'),
    );
  }

  /** After each reconnect every consumer opens its messages anew (see ChannelConsumer.reopen); ends with the connection. */
  private async reopenAfterReconnects(): Promise<void> {
    for await (const status of this.bus.nc.status()) {
      if (status.type !== 'reconnect' || !this.running) continue;
      this.log.info({ consumers: [...this.consumers.values()].flat().length }, 'reconnected; consumers pull anew');
      for (const consumers of this.consumers.values()) for (const consumer of consumers) consumer.reopen();
    }
  }

  private async acquire(partition: number, takeover: boolean): Promise<void> {
    const specs = this.specs().filter((s) => s.partition === partition);
    const pending = await Promise.all(specs.map((s) => prepareConsumerForOwner(this.bus.jsm, s, this.takeovers)));
    const redelivering = pending.reduce((a, b) => a + b, 0);
    if (redelivering) this.log.info({ partition, takeover, redelivering }, 'replaying unacknowledged messages first');
    const consumers = specs.map((s) => this.consumerFor(s));
    this.consumers.set(partition, consumers);
    await Promise.all(consumers.map((c) => c.start()));
  }

  private async release(partition: number, _reason: ReleaseReason): Promise<void> {
    const consumers = this.consumers.get(partition) ?? [];
    this.consumers.delete(partition);
    await Promise.all(consumers.map((c) => c.stop()));
  }

  /**
   * The handler of a message type, or of every type, or none. Nest's getHandlerByPattern first tries to
   * read the pattern as JSON, which throws for every dotted type name; patterns here are plain strings.
   */
  private handlerFor(type: string): MessageHandler | null {
    let handler = this.handlerByType.get(type);
    if (handler === undefined) {
      handler = this.messageHandlers.get(type) ?? this.messageHandlers.get(ANY_MESSAGE) ?? null;
      this.handlerByType.set(type, handler);
    }
    return handler;
  }

  /**
   * An owner whose lease is past the fence must not act: the message waits for the renewal (in its
   * session's lane, so that the session's later messages wait behind it), and is left unacknowledged
   * for the next owner, who replays from the first unacknowledged one in order, if the partition is
   * lost. Never left while the partition stays here: redelivered after the ack wait, it would come
   * after the session's later messages.
   */
  private mayProcess(spec: ConsumerSpec): boolean | Promise<boolean> {
    if (spec.partition === null) return true;
    if (!this.coordinator) return false;
    const held = this.coordinator.whenHeld(spec.partition);
    if (typeof held === 'boolean') return held;
    return held.then((waited) => {
      this.metrics.fenceWaits.inc({ outcome: waited ? 'held' : 'lost' });
      return waited;
    });
  }

  private async process(jsMsg: JsMsg, spec: ConsumerSpec): Promise<void> {
    // Owned no more: the next owner's. Owned but past the fence: it waits in its lane (see dispatch).
    if (spec.partition !== null && !this.coordinator?.owns(spec.partition)) return;
    const started = performance.now();
    const screening = screenMessage(jsMsg.subject, jsMsg.data, {
      channel: spec.channel,
      partitions: this.options.topology.options.partitions,
      maxPayloadBytes: this.options.maxPayloadBytes,
    });
    if (screening.verdict === 'reject') {
      const may = this.mayProcess(spec);
      if (may !== true && !(await may)) return;
      await this.deadLetter(jsMsg, spec, screening.reason, screening.detail, screening.type, screening.address);
      return;
    }
    const { message, address } = screening;
    const run = () => this.dispatch(jsMsg, spec, message, address, started);
    if (this.options.sessionOrdering && message.session_id !== NO_SCOPE) await this.lanes.run(message.session_id, run);
    else await run();
  }

  private async dispatch(
    jsMsg: JsMsg,
    spec: ConsumerSpec,
    message: AnyMessage,
    address: SessionAddress | null,
    started: number,
  ): Promise<void> {
    const may = this.mayProcess(spec);
    if (may !== true && !(await may)) return;
    const handler = this.handlerFor(message.type);
    const labels = { channel: spec.channel, type: message.type };
    if (!handler) {
      jsMsg.ack();
      this.metrics.processed.inc({ ...labels, result: 'unhandled' });
      return;
    }
    const log = lazyMessageLogger(this.log, {
      trace_id: message.trace_id,
      session_id: message.session_id,
      message_id: message.id,
      message_type: message.type,
    });
    for (let attempt = 1; ; attempt++) {
      const acknowledgement = { deferred: false };
      try {
        await this.tracer.handle(message, { channel: spec.channel, subject: jsMsg.subject }, async () => {
          const result: unknown = await handler(message, new JetStreamContext([jsMsg, address, log, acknowledgement]));
          if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
        });
        // A handler that took the acknowledgement over acknowledges once what the message changed is stored.
        if (!acknowledgement.deferred) jsMsg.ack();
        this.metrics.processed.inc({ ...labels, result: 'handled' });
        this.metrics.handlerDuration.observe(labels, (performance.now() - started) / 1000);
        return;
      } catch (error) {
        if (!(error instanceof TransientError)) {
          await this.handleFailure(jsMsg, spec, message, address, error as Error, log());
          return;
        }
        // A dependency is down, not the message wrong: never dead-lettered, retried here for as long as it takes.
        this.metrics.failed.inc({ ...labels, disposition: 'retry' });
        log().warn({ err: error, attempt }, 'dependency unavailable; the message is retried in its place');
        if (!(await this.waitToRetry(jsMsg, spec, retryDelayMs(attempt)))) {
          jsMsg.nak();
          return;
        }
      }
    }
  }

  /**
   * Waits before a message is handled again in its place, telling JetStream meanwhile that it is still
   * being worked on. False when this replica stops or the partition is no longer its own: the message is
   * then the next owner's, who replays the unacknowledged messages in order.
   */
  private async waitToRetry(jsMsg: JsMsg, spec: ConsumerSpec, ms: number): Promise<boolean> {
    const beat = Math.max(50, Math.floor(this.options.topology.options.ackWaitMs / 3));
    const stillOurs = () => this.running && (spec.partition === null || (this.coordinator?.owns(spec.partition) ?? false));
    for (let left = ms; left > 0; left -= beat) {
      try {
        jsMsg.working();
        await delay(Math.min(beat, left), undefined, { signal: this.stopped.signal });
      } catch {
        return false;
      }
      if (!stillOurs()) return false;
    }
    const may = this.mayProcess(spec);
    return may === true || (may !== false && (await may));
  }

  private async handleFailure(
    jsMsg: JsMsg,
    spec: ConsumerSpec,
    message: AnyMessage,
    address: SessionAddress | null,
    error: Error,
    log: Logger,
  ): Promise<void> {
    const labels = { channel: spec.channel, type: message.type };
    if (error instanceof RejectMessageError) {
      await this.deadLetter(jsMsg, spec, 'rejected', error.detail, message.type, address);
      return;
    }
    const deliveries = jsMsg.info.deliveryCount;
    if (deliveries >= this.options.topology.options.maxDeliver) {
      this.metrics.failed.inc({ ...labels, disposition: 'dead_letter' });
      log.error({ err: error, deliveries }, 'handler keeps failing; dead-lettering the message');
      await this.deadLetter(jsMsg, spec, 'handler_failed', `${error.message} (failed ${deliveries} times)`, message.type, address);
      return;
    }
    this.metrics.failed.inc({ ...labels, disposition: 'retry' });
    log.warn({ err: error, deliveries }, 'handler failed; the message will be redelivered');
    jsMsg.nak(retryDelayMs(deliveries));
  }

  private async deadLetter(
    jsMsg: JsMsg,
    spec: ConsumerSpec,
    reason: DeadLetterReason,
    detail: string,
    type: string | undefined,
    address: SessionAddress | null,
  ): Promise<void> {
    const deadLetter = buildDeadLetter({
      service: this.options.service,
      reason,
      detail,
      type,
      subject: jsMsg.subject,
      data: jsMsg.data,
      messageId: jsMsg.headers?.get('Nats-Msg-Id') || undefined,
      address,
      stream: spec.stream,
      streamSequence: jsMsg.seq,
      deliveryCount: jsMsg.info.deliveryCount,
    });
    try {
      await this.publisher.publishDeadLetter(deadLetter);
    } catch (error) {
      // Without a dead-letter copy the message must not be dropped: try again later.
      this.log.error({ err: error }, 'could not publish a dead letter; the message will be redelivered');
      jsMsg.nak(retryDelayMs(jsMsg.info.deliveryCount));
      return;
    }
    jsMsg.term();
    this.metrics.deadLettered.inc({ channel: spec.channel, reason });
    for (const [kind, count] of Object.entries(deadLetter.redactions)) this.metrics.redactions.inc({ kind }, count);
    this.log.warn(
      { reason, detail: deadLetter.message.payload.detail, subject: jsMsg.subject, stream_sequence: jsMsg.seq },
      'message dead-lettered',
    );
    this.emitter.emit('dead_letter', deadLetter.message);
  }
}
