import { Module, type DynamicModule } from '@nestjs/common';
import { LOGGER, type Logger } from '@warden/observability';
import type { InterventionControllerConfig } from '../config.js';
import { loadCustomHandlers } from './custom-handler-loader.js';
import { ControlMailboxes } from './control-mailbox.js';
import { InterventionEventsHandler } from './intervention-events.handler.js';
import { InterventionMetrics } from './intervention-metrics.js';
import { INTERVENTION_NOTIFIERS, IncidentNotifications } from './incident-notifications.js';
import {
  INTERVENTION_PARTITIONS,
  INTERVENTION_REGISTRY,
  INTERVENTION_SETTINGS,
  INTERVENTION_SWEEP_MS,
  INTERVENTION_TEMPLATES,
  InterventionSupervisor,
} from './intervention-supervisor.js';
import { LogNotifier, WebhookNotifier, type Notifier } from './notifier.js';

/**
 * Interventions wired to the bus and the KV store. Uses BusConnection, MessagePublisher and
 * JetStreamServer from the global messaging module; MetricsRegistry and LOGGER from observability.
 */
@Module({})
export class InterventionsModule {
  static forRoot(config: InterventionControllerConfig): DynamicModule {
    const { settings } = config;
    return {
      module: InterventionsModule,
      controllers: [InterventionEventsHandler],
      providers: [
        { provide: INTERVENTION_SETTINGS, useValue: settings },
        { provide: INTERVENTION_TEMPLATES, useValue: config.templates },
        { provide: INTERVENTION_PARTITIONS, useValue: config.messaging.partitions },
        { provide: INTERVENTION_SWEEP_MS, useValue: config.sweepMs },
        { provide: INTERVENTION_REGISTRY, useFactory: () => loadCustomHandlers(config.handlerPaths) },
        {
          provide: INTERVENTION_NOTIFIERS,
          inject: [LOGGER],
          useFactory: (logger: Logger): Notifier[] =>
            settings.emergency_stop.notification_channels.map((name) => {
              if (name === 'log') return new LogNotifier(logger);
              const { url, timeout_ms, retries, backoff_ms } = settings.emergency_stop.webhook;
              return new WebhookNotifier({ url: url!, timeoutMs: timeout_ms, retries, backoffMs: backoff_ms });
            }),
        },
        InterventionMetrics,
        IncidentNotifications,
        InterventionSupervisor,
        ControlMailboxes,
      ],
      exports: [InterventionSupervisor],
    };
  }
}
