import { Inject, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Kvm } from '@nats-io/kv';
import { HOOK_SESSION_BUCKET } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { HealthRegistry, LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { ObservabilityModule } from '@warden/observability-nest';
import { AgentConnections } from './agent-connections.js';
import type { GatewayConfig } from './config.js';
import { GatewayMetrics } from './gateway-metrics.js';
import { HookGateway } from './hook-gateway.js';
import { SessionOwners } from './session-records.js';
import { TelemetryReceiver } from './telemetry-receiver.js';

const CONFIG = Symbol('gateway.config');

/**
 * Ready while the gateway's own connection is up; at shutdown, stores what follows the answers already
 * sent (the calls' records), then closes the agents' connections and its own.
 */
class GatewayLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(BusConnection) private readonly bus: BusConnection,
    @Inject(AgentConnections) private readonly connections: AgentConnections,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(HookGateway) private readonly gateway: HookGateway,
  ) {}

  onModuleInit(): void {
    this.health.register('nats', () => ({ up: this.bus.connected, ...(this.bus.connected ? {} : { detail: 'not connected to NATS' }) }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.gateway.drain();
    await this.connections.close();
    await this.bus.close();
  }
}

/** The agent gateway: agents' hooks and their telemetry over HTTP, with `/metrics` and `/health` like every service. */
@Module({})
export class GatewayAppModule {
  static forRoot(config: GatewayConfig, logger: Logger): DynamicModule {
    return {
      module: GatewayAppModule,
      imports: [ObservabilityModule.forRoot({ service: 'gateway', logger })],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: BusConnection, useFactory: () => BusConnection.open(config.nats) },
        { provide: AgentConnections, useFactory: () => new AgentConnections({ servers: config.nats.servers, idleMs: config.agentIdleMs, deadlineMs: config.deadlineMs }) },
        { provide: GatewayMetrics, useFactory: (metrics: MetricsRegistry) => new GatewayMetrics(metrics), inject: [MetricsRegistry] },
        {
          provide: HookGateway,
          useFactory: async (bus: BusConnection, connections: AgentConnections, metrics: GatewayMetrics, log: Logger) => {
            const kv = await new Kvm(bus.nc).open(HOOK_SESSION_BUCKET);
            try {
              await kv.status();
            } catch (error) {
              throw new Error(`the bucket ${HOOK_SESSION_BUCKET} is missing: run \`warden provision\` first (${(error as Error).message})`, { cause: error });
            }
            return new HookGateway(config, connections, new SessionOwners(kv), kv, metrics, log, () => bus.connected);
          },
          inject: [BusConnection, AgentConnections, GatewayMetrics, LOGGER],
        },
        {
          provide: TelemetryReceiver,
          useFactory: (gateway: HookGateway, bus: BusConnection, connections: AgentConnections, metrics: GatewayMetrics, log: Logger) =>
            new TelemetryReceiver(connections, gateway.owners, metrics, log, () => bus.connected),
          inject: [HookGateway, BusConnection, AgentConnections, GatewayMetrics, LOGGER],
        },
        GatewayLifecycle,
      ],
      exports: [HookGateway, TelemetryReceiver],
    };
  }
}
