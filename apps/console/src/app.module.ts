import { Global, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BusConnection } from '@warden/messaging';
import { HealthRegistry, LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { ObservabilityModule } from '@warden/observability-nest';
import { OperatorAuthModule } from '@warden/operator-auth';
import type { ConsoleConfig } from './config.js';
import { SessionBoard } from './domain/session-board.js';
import { BusFeed } from './feed/bus-feed.js';
import { ActionsController } from './http/actions.controller.js';
import { AssetsController } from './http/assets.controller.js';
import { AuthController } from './http/auth.controller.js';
import { LiveController } from './http/live.controller.js';
import { PagesController } from './http/pages.controller.js';
import { CONSOLE_CONFIG, SESSION_COOKIE } from './http/tokens.js';
import { GateClient } from './live/gate-client.js';
import { SupervisorLog } from './live/supervisor-log.js';
import { LiveHub } from './live/live-hub.js';
import { ReviewerClient } from './live/reviewer-client.js';

/** The console's connection to the bus (a service user), shared with the operator store. */
@Global()
@Module({})
class ConsoleBusModule {
  static forRoot(config: ConsoleConfig): DynamicModule {
    return {
      module: ConsoleBusModule,
      providers: [
        {
          provide: BusConnection,
          useFactory: (log: Logger) =>
            BusConnection.open(config.nats, {
              onDisconnect: () => log.warn('disconnected from NATS; reconnecting'),
              onReconnect: () => log.info('reconnected to NATS'),
              onError: (error) => log.error({ err: error }, 'NATS error'),
            }),
          inject: [LOGGER],
        },
      ],
      exports: [BusConnection],
    };
  }
}

/** Starts the feed once everything is wired, reports readiness, and stops in order. */
@Injectable()
class ConsoleLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly feed: BusFeed,
    private readonly hub: LiveHub,
    private readonly bus: BusConnection,
    private readonly health: HealthRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.health.register('nats', () => ({ up: this.bus.connected, ...(this.bus.connected ? {} : { detail: 'not connected to NATS; reconnecting' }) }));
    this.health.register('feed', () => ({ up: this.feed.caughtUp, ...(this.feed.caughtUp ? {} : { detail: `reading history of ${this.feed.waitingFor.join(', ')}` }) }));
    this.feed.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.feed.stop();
    this.hub.close();
    await this.bus.close();
  }
}

@Module({})
export class ConsoleAppModule {
  static forRoot(config: ConsoleConfig, logger: Logger): DynamicModule {
    return {
      module: ConsoleAppModule,
      imports: [ObservabilityModule.forRoot({ service: 'console', logger }), ConsoleBusModule.forRoot(config), OperatorAuthModule.forRoot({ cookie: SESSION_COOKIE })],
      controllers: [PagesController, AuthController, ActionsController, LiveController, AssetsController],
      providers: [
        { provide: CONSOLE_CONFIG, useValue: config },
        { provide: SessionBoard, useValue: new SessionBoard({ maxSessions: config.maxSessions, maxEventsPerSession: 5_000 }) },
        {
          provide: BusFeed,
          useFactory: (bus: BusConnection, board: SessionBoard, log: Logger, metrics: MetricsRegistry) => new BusFeed(bus, board, { historyHours: config.historyHours, partitions: config.partitions }, log, metrics),
          inject: [BusConnection, SessionBoard, LOGGER, MetricsRegistry],
        },
        {
          provide: LiveHub,
          useFactory: (board: SessionBoard, log: Logger, metrics: MetricsRegistry) => new LiveHub(board, config.liveIntervalMs, log, metrics),
          inject: [SessionBoard, LOGGER, MetricsRegistry],
        },
        { provide: GateClient, useValue: new GateClient(config.gateUrl) },
        { provide: ReviewerClient, useValue: new ReviewerClient(config.reviewerUrl) },
        { provide: SupervisorLog, useValue: new SupervisorLog(config.supervisorLog) },
        ConsoleLifecycle,
      ],
    };
  }
}

