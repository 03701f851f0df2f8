import { hostname } from 'node:os';
import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { GATE_APPROVAL_BUCKET } from '@warden/contracts';
import { BusConnection, RecordStore } from '@warden/messaging';
import { JetStreamServer } from '@warden/messaging-nest';
import { LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { OperatorStore } from '@warden/operator-auth';
import type { GateOptions } from '../config.js';
import { GATE_OPTIONS } from '../core/gate-options.js';
import { ApprovalOutbox, type ApprovalChannel } from './approval-outbox.js';
import type { ApprovalSettings } from './approval-settings.js';
import { SlackChannel, type SlackThread } from './slack-channel.js';
import { APPROVAL_OPERATORS, APPROVAL_SETTINGS, SLACK_CHANNELS, SlackInteractionsController } from './slack-interactions.controller.js';
import { WebhookChannel } from './webhook-channel.js';

const CHANNELS = Symbol('warden.gate.approval-channels');

@Injectable()
class OutboxLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(ApprovalOutbox) private readonly outbox: ApprovalOutbox) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.outbox.start();
  }

  onModuleDestroy(): void {
    this.outbox.stop();
  }
}

/**
 * Approval channels (GATE_CONFIG `approvals.channels`): Slack and signed webhooks, fed by the relay
 * through the outbox, and Slack's interactivity endpoint for the buttons. No channel: nothing runs.
 */
@Module({
  controllers: [SlackInteractionsController],
  providers: [
    { provide: APPROVAL_SETTINGS, useFactory: (options: GateOptions) => options.approvals, inject: [GATE_OPTIONS] },
    {
      provide: CHANNELS,
      useFactory: (settings: ApprovalSettings, bus: BusConnection): ApprovalChannel[] =>
        settings.channels.map((c) =>
          c.type === 'slack'
            ? new SlackChannel(c, settings.consoleUrl, settings.delivery.timeoutMs, new RecordStore<SlackThread>(bus.nc, GATE_APPROVAL_BUCKET))
            : new WebhookChannel(c, settings.consoleUrl, settings.delivery.timeoutMs),
        ),
      inject: [APPROVAL_SETTINGS, BusConnection],
    },
    { provide: SLACK_CHANNELS, useFactory: (channels: ApprovalChannel[]) => channels.filter((c): c is SlackChannel => c instanceof SlackChannel), inject: [CHANNELS] },
    { provide: APPROVAL_OPERATORS, useFactory: (bus: BusConnection) => new OperatorStore(bus.nc), inject: [BusConnection] },
    {
      provide: ApprovalOutbox,
      useFactory: (bus: BusConnection, channels: ApprovalChannel[], settings: ApprovalSettings, server: JetStreamServer, log: Logger, metrics: MetricsRegistry) =>
        new ApprovalOutbox(ApprovalOutbox.open(bus), channels, settings.delivery, server.options.replicaId ?? `${hostname()}-${process.pid}`, log, metrics),
      inject: [BusConnection, CHANNELS, APPROVAL_SETTINGS, JetStreamServer, LOGGER, MetricsRegistry],
    },
    OutboxLifecycle,
  ],
  exports: [ApprovalOutbox],
})
export class ApprovalsModule {}
