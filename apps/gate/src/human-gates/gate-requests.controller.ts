import { Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Query, Req, Res, UnprocessableEntityException, UseFilters, UseGuards } from '@nestjs/common';
import { answerProblem, checkAnswer, type GateRequestRecord } from '@warden/gate';
import { OperatorAuthGuard, operatorOf, Requires } from '@warden/operator-auth';
import type { Request, Response } from 'express';
import type { GateOptions } from '../config.js';
import { CommandDispatcher } from '../core/command-dispatcher.js';
import { GATE_OPTIONS } from '../core/gate-options.js';
import { readJsonBody } from '../core/gateway-body.js';
import { GatewayExceptionFilter } from '../core/gateway-errors.js';
import { GateStores } from '../core/gate-stores.js';
import { sendOutcome } from '../hitl/outcome.js';

const STATUSES = ['pending', 'approved', 'approved_with_conditions', 'rejected', 'timed_out', 'all'];

/**
 * Approval requests of human gates (seed 002 §6.2-6.3): list them, read one, answer one. An answer must
 * name a pending request; it resumes the session the gate paused (approve, approve with conditions) or
 * rejects what the gate held (the agent is told first).
 */
@Controller('gateway')
@UseGuards(OperatorAuthGuard)
@UseFilters(GatewayExceptionFilter)
export class GateRequestsController {
  constructor(
    private readonly stores: GateStores,
    private readonly dispatcher: CommandDispatcher,
    @Inject(GATE_OPTIONS) private readonly options: GateOptions,
  ) {}

  /** The gates in effect, with their conditions as configured. */
  @Get('gates')
  gates() {
    return {
      gates: this.options.gates.map(({ condition: _condition, ...gate }) => gate),
    };
  }

  @Get('requests')
  async list(@Query('status') status = 'pending'): Promise<{ requests: GateRequestRecord[] }> {
    if (!STATUSES.includes(status)) throw new UnprocessableEntityException({ status: 'error', reason: `invalid_field: status (${STATUSES.join(', ')})` });
    const requests = (await this.stores.requests.list())
      .filter((r) => status === 'all' || r.status === status)
      .sort((a, b) => a.requested_at.localeCompare(b.requested_at));
    return { requests };
  }

  @Get('requests/:request_id')
  async get(@Param('request_id') requestId: string): Promise<GateRequestRecord> {
    const record = await this.stores.requests.get(requestId);
    if (!record) throw new NotFoundException({ status: 'error', reason: 'unknown_request' });
    return record;
  }

  @Post('requests/:request_id/respond')
  @Requires('decide')
  @HttpCode(200)
  async respond(@Param('request_id') requestId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const check = checkAnswer(await readJsonBody(request));
    if (!check.ok) throw new UnprocessableEntityException({ status: 'error', reason: check.reason });
    const record = /^[A-Za-z0-9_-]{1,128}$/.test(requestId) ? await this.stores.requests.get(requestId) : undefined;
    const problem = answerProblem(record);
    if (problem) {
      response.status(problem.code);
      return { status: 'error', reason: problem.reason };
    }
    const { answer } = check;
    const outcome = await this.dispatcher.dispatch({
      type: 'hitl_unpause',
      session_id: record!.session_id,
      agent_id: record!.agent_id,
      operator_id: operatorOf(request).id,
      timestamp: new Date().toISOString(),
      resolution: answer.approved ? 'approve' : 'reject',
      request_id: requestId,
      ...(answer.reason ? { reason: answer.reason } : {}),
      ...(answer.conditions ? { conditions: answer.conditions } : {}),
      ...(answer.digest ? { digest: answer.digest } : {}),
      channel: answer.channel ?? 'api',
    });
    return sendOutcome(outcome, response);
  }
}
