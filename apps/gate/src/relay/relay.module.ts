import { Injectable, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { partitionOf, sessionSubject, type SessionAddress } from '@warden/contracts';
import { buildDeadLetter, MessagePublisher, onTheBus } from '@warden/messaging';
import { JetStreamServer } from '@warden/messaging-nest';
import type { HumanGate } from '@warden/gate';
import { LOGGER, type Logger } from '@warden/observability';
import { ApprovalOutbox } from '../approvals/approval-outbox.js';
import { ApprovalsModule } from '../approvals/approvals.module.js';
import type { GateOptions } from '../config.js';
import { GateMetrics } from '../core/gate-metrics.js';
import { GATE_OPTIONS } from '../core/gate-options.js';
import { GateStores } from '../core/gate-stores.js';
import { HUMAN_GATES, HumanGatesModule } from '../human-gates/human-gates.module.js';
import { GateMessageHandlers } from './gate-message.handlers.js';
import { HitlRelay, type RelayOptions } from './hitl-relay.js';

/** Where the proposal behind a verdict was stored: the subject and address of its dead letter. */
function proposalOf(verdict: { agent_id: string; session_id: string }, partitions: number): SessionAddress {
  return { channel: 'action', partition: partitionOf(verdict.session_id, partitions), agentId: verdict.agent_id, sessionId: verdict.session_id };
}

/** The relay follows the partitions of the transport from start to shutdown. */
@Injectable()
class RelayLifecycle implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly relay: HitlRelay,
    private readonly server: JetStreamServer,
  ) {}

  onModuleInit(): void {
    this.relay.follow(this.server);
  }

  onModuleDestroy(): void {
    this.relay.stop();
  }
}

/** What the relay is built with: the stores, the bus, metrics, the logger, the gate's options and human gates. */
export const RELAY_OPTIONS = Symbol('warden.gate.relay-options');

/** The HITL relay on the bus: every verdict passes through it on its way to becoming a decision. */
@Module({
  imports: [HumanGatesModule, ApprovalsModule],
  controllers: [GateMessageHandlers],
  providers: [
    {
      provide: RELAY_OPTIONS,
      useFactory: (
        stores: GateStores,
        publisher: MessagePublisher,
        metrics: GateMetrics,
        logger: Logger,
        server: JetStreamServer,
        options: GateOptions,
        gates: readonly HumanGate[],
        outbox: ApprovalOutbox,
      ): RelayOptions => {
        const partitions = server.options.topology.options.partitions;
        return {
          agentUserApprovals: options.agentUserApprovals,
          ...(options.approvals.channels.length ? { approvals: outbox } : {}),
          deadlines: options.approvals.deadlines,
          // The agent hears of it on its dead-letter subject, as of any proposal Warden rejects.
          refuse: (verdict, reason) =>
            onTheBus('refusing a reused action id', () =>
              publisher.publishDeadLetter(
                buildDeadLetter({
                  service: 'gate',
                  reason: 'rejected',
                  detail: reason,
                  type: 'action.proposed',
                  subject: sessionSubject(proposalOf(verdict, partitions)),
                  data: new TextEncoder().encode(JSON.stringify(verdict.payload.action)),
                  ...(verdict.causation_id ? { messageId: verdict.causation_id } : {}),
                  address: proposalOf(verdict, partitions),
                }),
              ),
            ),
          stores,
          publish: (message) => publisher.publishMessage(message),
          gates: () => gates,
          metrics,
          log: logger,
          partitions,
        };
      },
      inject: [GateStores, MessagePublisher, GateMetrics, LOGGER, JetStreamServer, GATE_OPTIONS, HUMAN_GATES, ApprovalOutbox],
    },
    { provide: HitlRelay, useFactory: (options: RelayOptions) => new HitlRelay(options), inject: [RELAY_OPTIONS] },
    RelayLifecycle,
  ],
  exports: [HitlRelay],
})
export class RelayModule {}
