import { Module } from '@nestjs/common';
import { DecisionRelayHandler } from './decision-relay.handler.js';

/** Forwards verdicts to agents as decisions. Uses MessagePublisher and MetricsRegistry from the global modules. */
@Module({ controllers: [DecisionRelayHandler] })
export class RelayModule {}
