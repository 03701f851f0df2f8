import { Body, Controller, HttpCode, Inject, Param, Post, Req, Res, UnprocessableEntityException, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { BREAKER_KINDS, createMessage, isSubjectToken, NO_SCOPE, publishSubject, type PayloadOf } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { authenticationOf, OperatorAuthGuard, Requires } from '@warden/operator-auth';
import { GateClient, type ConsoleAction } from '../live/gate-client.js';

const ACTIONS: readonly ConsoleAction[] = ['approve', 'rewrite', 'reject', 'stop', 'resume'];
const unprocessable = (reason: string) => new UnprocessableEntityException({ status: 'error', reason });
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the console's buttons do. Each is checked here (role, CSRF for the login cookie, input) and then
 * made as the operator: the gate's FR-11.10 calls for a session, a ladder command for an agent's level.
 * The answer lists the gate calls made, with their status.
 */
@Controller('api')
@UseGuards(OperatorAuthGuard)
export class ActionsController {
  private readonly gateCalls;

  constructor(
    private readonly gate: GateClient,
    private readonly bus: BusConnection,
    @Inject(LOGGER) private readonly log: Logger,
    metrics: MetricsRegistry,
  ) {
    this.gateCalls = metrics.counter({ name: 'warden_console_gate_calls_total', help: 'Calls the console made to the gate for operators, by endpoint and status.', labelNames: ['endpoint', 'status'] });
  }

  /**
   * Reset one breaker of a session (`breaker.command` reset as the operator): a spent run budget starts
   * its count again, the way `warden breaker reset` does.
   */
  @Post('sessions/:session_id/breakers/:breaker/reset')
  @Requires('decide')
  @HttpCode(200)
  async resetBreaker(@Param('session_id') sessionId: string, @Param('breaker') breaker: string, @Body() body: unknown, @Req() req: Request) {
    if (!isSubjectToken(sessionId)) throw unprocessable('invalid_field: session_id');
    if (!(BREAKER_KINDS as readonly string[]).includes(breaker)) throw unprocessable(`invalid_field: breaker (${BREAKER_KINDS.join(', ')})`);
    if (!isObject(body)) throw unprocessable('body_must_be_a_json_object');
    const agentId = body.agent_id;
    if (typeof agentId !== 'string' || !isSubjectToken(agentId)) throw unprocessable('invalid_field: agent_id');
    const operator = authenticationOf(req).operator;
    const payload: PayloadOf<'breaker.command'> = {
      command: 'reset',
      breaker: breaker as PayloadOf<'breaker.command'>['breaker'],
      operator_id: operator.id,
      reason: typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 2000) : `From the console by ${operator.id}`,
    };
    const message = createMessage('breaker.command', { agent_id: agentId, session_id: sessionId, payload });
    await this.bus.js.publish(publishSubject('breaker_command', agentId, sessionId), new TextEncoder().encode(JSON.stringify(message)), { msgID: message.id });
    this.log.info({ operator_id: operator.id, agent_id: agentId, session_id: sessionId, breaker }, 'breaker reset sent');
    return { status: 'ok', message_id: message.id };
  }

  /**
   * The answer to one request of a human gate (the approval page): approve or reject with the digest of
   * what the page showed; the gate refuses it (409 digest_mismatch) when the action changed since.
   */
  @Post('requests/:request_id/respond')
  @Requires('decide')
  @HttpCode(200)
  async respond(@Param('request_id') requestId: string, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(requestId)) throw unprocessable('invalid_field: request_id');
    if (!isObject(body)) throw unprocessable('body_must_be_a_json_object');
    if (typeof body.approved !== 'boolean') throw unprocessable('invalid_field: approved (true or false)');
    if (typeof body.digest !== 'string' || !/^[a-f0-9]{64}$/.test(body.digest)) throw unprocessable('missing_required_field: digest (of the request the page showed)');
    const auth = authenticationOf(req);
    const reason = typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 2000) : undefined;
    const call = await this.gate.respond(requestId, { approved: body.approved, digest: body.digest, ...(reason ? { reason } : {}) }, { id: auth.operator.id, token: auth.token });
    this.gateCalls.inc({ endpoint: 'respond', status: String(call.status) });
    this.log.info({ operator_id: auth.operator.id, request_id: requestId, approved: body.approved, status: call.status }, 'operator answer to a gate request');
    if (call.status >= 300) res.status(call.status);
    return { status: call.status < 300 ? 'ok' : 'error', ...(call.status >= 300 ? { reason: call.body.reason } : {}), calls: [call] };
  }

  @Post('sessions/:session_id/:action')
  @Requires('decide')
  @HttpCode(200)
  async act(@Param('session_id') sessionId: string, @Param('action') action: string, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    if (!(ACTIONS as readonly string[]).includes(action)) throw unprocessable(`unknown_action: ${action} (approve, rewrite, reject, stop, resume)`);
    if (!isSubjectToken(sessionId)) throw unprocessable('invalid_field: session_id');
    if (!isObject(body)) throw unprocessable('body_must_be_a_json_object');
    const agentId = body.agent_id;
    if (typeof agentId !== 'string' || !isSubjectToken(agentId)) throw unprocessable('invalid_field: agent_id');
    const fields: { traceId?: string; input?: Record<string, unknown>; reason?: string } = {};
    if (action === 'rewrite') {
      if (typeof body.trace_id !== 'string' || !body.trace_id) throw unprocessable('missing_required_field: trace_id');
      if (!isObject(body.input)) throw unprocessable('invalid_input: the tool input must be a JSON object');
      fields.traceId = body.trace_id;
      fields.input = body.input;
    }
    if (typeof body.reason === 'string' && body.reason.trim()) fields.reason = body.reason.trim().slice(0, 2000);
    const auth = authenticationOf(req);
    const calls = await this.gate.perform(action as ConsoleAction, { sessionId, agentId }, { id: auth.operator.id, token: auth.token }, fields);
    for (const call of calls) this.gateCalls.inc({ endpoint: call.path.slice(call.path.lastIndexOf('/') + 1), status: String(call.status) });
    const failed = calls.find((c) => c.status >= 300);
    this.log.info({ operator_id: auth.operator.id, session_id: sessionId, agent_id: agentId, action, calls: calls.map((c) => `${c.path} ${c.status}`) }, 'operator action');
    if (failed) res.status(failed.status === 202 ? 202 : failed.status);
    return { status: failed ? (failed.status === 202 ? 'accepted' : 'error') : 'ok', ...(failed ? { reason: failed.body.reason ?? failed.body.note } : {}), calls };
  }

  @Post('agents/:agent_id/level')
  @Requires('administer')
  @HttpCode(200)
  async level(@Param('agent_id') agentId: string, @Body() body: unknown, @Req() req: Request) {
    if (!isSubjectToken(agentId)) throw unprocessable('invalid_field: agent_id');
    if (!isObject(body)) throw unprocessable('body_must_be_a_json_object');
    const command = body.command;
    if (command !== 'pin' && command !== 'unpin' && command !== 'set_level') throw unprocessable('invalid_field: command (pin, unpin or set_level)');
    const level = Number(body.level);
    if (command !== 'unpin' && !(Number.isInteger(level) && level >= 0 && level <= 4)) throw unprocessable('invalid_field: level (0-4)');
    const operator = authenticationOf(req).operator;
    const payload: PayloadOf<'ladder.command'> = {
      command,
      operator_id: operator.id,
      ...(command !== 'unpin' ? { level: level as 0 | 1 | 2 | 3 | 4 } : {}),
      ...(typeof body.reason === 'string' && body.reason.trim() ? { reason: body.reason.trim().slice(0, 2000) } : { reason: `From the console by ${operator.id}` }),
    };
    const message = createMessage('ladder.command', { agent_id: agentId, session_id: NO_SCOPE, payload });
    await this.bus.js.publish(publishSubject('ladder_command', agentId, NO_SCOPE), new TextEncoder().encode(JSON.stringify(message)), { msgID: message.id });
    this.log.info({ operator_id: operator.id, agent_id: agentId, command, level: payload.level }, 'ladder command sent');
    return { status: 'ok', message_id: message.id };
  }
}
