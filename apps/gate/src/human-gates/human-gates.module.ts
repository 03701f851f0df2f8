import { Module } from '@nestjs/common';
import type { GateOptions } from '../config.js';
import { GATE_OPTIONS } from '../core/gate-options.js';
import { GateRequestsController } from './gate-requests.controller.js';

/** The human gates in effect (standard and configured, seed 002 §6), for the relay to evaluate. */
export const HUMAN_GATES = Symbol('warden.gate.human-gates');

/** Human gates: their definitions, and the operator API for their approval requests. */
@Module({
  controllers: [GateRequestsController],
  providers: [{ provide: HUMAN_GATES, useFactory: (options: GateOptions) => options.gates, inject: [GATE_OPTIONS] }],
  exports: [HUMAN_GATES],
})
export class HumanGatesModule {}
