import { Global, Module, type DynamicModule } from '@nestjs/common';
import { BusConnection } from '@warden/messaging';
import { MetricsRegistry } from '@warden/observability';
import type { GateOptions } from '../config.js';
import { GateMetrics } from './gate-metrics.js';
import { GateStores } from './gate-stores.js';
import { CommandDispatcher } from './command-dispatcher.js';
import { GATE_OPTIONS } from './gate-options.js';
import { GatewayBodyParsing } from './gateway-body.js';

/**
 * What the gate's features share: its options, the stores (KV buckets and the buffer stream), metrics,
 * the command dispatcher and the body parsing of its HTTP API (operators are checked by OperatorAuthGuard).
 */
@Global()
@Module({})
export class GateCoreModule {
  static forRoot(options: GateOptions): DynamicModule {
    return {
      module: GateCoreModule,
      providers: [
        { provide: GATE_OPTIONS, useValue: options },
        { provide: GateStores, useFactory: (bus: BusConnection) => GateStores.open(bus), inject: [BusConnection] },
        { provide: GateMetrics, useFactory: (metrics: MetricsRegistry) => new GateMetrics(metrics), inject: [MetricsRegistry] },
        CommandDispatcher,
        GatewayBodyParsing,
      ],
      exports: [GATE_OPTIONS, GateStores, GateMetrics, CommandDispatcher],
    };
  }
}
