import {
  Global,
  Inject,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { BusConnection, MessagePublisher, MessagingMetrics } from '@warden/messaging';
import { HealthRegistry, LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { createMessageTracer, type MessageTracer } from '@warden/tracing';
import { JetStreamServer } from './jetstream.server.js';
import { MessageHandlerErrorFilter } from './message-handler-error.filter.js';
import { resolveMessagingOptions, type MessagingOptions, type ResolvedMessagingOptions } from './messaging.options.js';

export const MESSAGING_OPTIONS = Symbol('warden.messaging.options');
/** The service's MessageTracer: OpenTelemetry spans when OTEL_EXPORTER_OTLP_ENDPOINT is set, a no-op otherwise. */
export const MESSAGE_TRACER = Symbol('warden.messaging.tracer');

/** Registers readiness checks, and drains the transport before the connection at shutdown. */
@Injectable()
class MessagingLifecycle implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly bus: BusConnection,
    private readonly server: JetStreamServer,
    private readonly health: HealthRegistry,
    private readonly metrics: MessagingMetrics,
    @Inject(MESSAGE_TRACER) private readonly tracer: MessageTracer,
  ) {}

  onModuleInit(): void {
    this.metrics.connected.set(1);
    this.health.register('nats', () => ({
      up: this.bus.connected,
      ...(this.bus.connected ? {} : { detail: 'not connected to NATS; reconnecting' }),
    }));
    this.health.register('consumers', () => ({
      up: this.server.ready,
      detail: this.server.ready ? `partitions owned: ${this.server.ownedPartitions().join(',') || 'none'}` : 'starting',
    }));
  }

  /** Stop pulling, finish in-flight messages and hand partitions over while the connection is still up. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.server.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
    // The spans of the last messages handled go out before the process ends.
    await this.tracer.shutdown();
  }
}

/**
 * The JetStream transport of a service: the NATS connection, the publisher and the transport strategy
 * to connect (`app.connectMicroservice({ strategy: app.get(JetStreamServer) })`, done by `startService`).
 * Global, like the observability module it depends on: every feature module publishes.
 */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    const resolved = resolveMessagingOptions(options);
    return {
      module: MessagingModule,
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: resolved },
        {
          provide: MessagingMetrics,
          useFactory: (registry: MetricsRegistry) => new MessagingMetrics(registry),
          inject: [MetricsRegistry],
        },
        {
          provide: BusConnection,
          useFactory: (logger: Logger, metrics: MessagingMetrics) => {
            logger.info({ servers: resolved.nats.servers, user: resolved.nats.user }, 'connecting to NATS');
            return BusConnection.open(resolved.nats, {
              onDisconnect: () => {
                metrics.connected.set(0);
                logger.warn('disconnected from NATS; reconnecting');
              },
              onReconnect: () => {
                metrics.connected.set(1);
                logger.info('reconnected to NATS');
              },
              onError: (error) => logger.error({ err: error }, 'NATS error'),
            });
          },
          inject: [LOGGER, MessagingMetrics],
        },
        {
          provide: MESSAGE_TRACER,
          useFactory: async (logger: Logger) => {
            const tracer = await createMessageTracer({ service: resolved.service, instance: resolved.replicaId });
            if (tracer.enabled) logger.info('exporting traces over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT)');
            return tracer;
          },
          inject: [LOGGER],
        },
        {
          provide: MessagePublisher,
          useFactory: (bus: BusConnection, metrics: MessagingMetrics, tracer: MessageTracer) => new MessagePublisher(bus, metrics, tracer),
          inject: [BusConnection, MessagingMetrics, MESSAGE_TRACER],
        },
        {
          provide: JetStreamServer,
          useFactory: (
            bus: BusConnection,
            publisher: MessagePublisher,
            metrics: MessagingMetrics,
            logger: Logger,
            opts: ResolvedMessagingOptions,
            tracer: MessageTracer,
          ) => new JetStreamServer(bus, publisher, metrics, logger, opts, tracer),
          inject: [BusConnection, MessagePublisher, MessagingMetrics, LOGGER, MESSAGING_OPTIONS, MESSAGE_TRACER],
        },
        { provide: APP_FILTER, useClass: MessageHandlerErrorFilter },
        MessagingLifecycle,
      ],
      exports: [MESSAGING_OPTIONS, MESSAGE_TRACER, BusConnection, MessagePublisher, JetStreamServer, MessagingMetrics],
    };
  }
}

