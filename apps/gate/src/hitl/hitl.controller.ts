import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UnprocessableEntityException, UseFilters, UseGuards } from '@nestjs/common';
import { OPERATOR_REJECTION_PROMPT, type HitlCommandType } from '@warden/contracts';
import { OperatorAuthGuard, operatorOf, Requires } from '@warden/operator-auth';
import type { Request, Response } from 'express';
import { CommandDispatcher } from '../core/command-dispatcher.js';
import { readJsonBody } from '../core/gateway-body.js';
import { GatewayExceptionFilter } from '../core/gateway-errors.js';
import { checkHitlCommand, isHitlCommandType } from '@warden/gate';
import { sendOutcome } from './outcome.js';
import { SessionViews, type SessionSummary, type SessionView } from './session-views.js';

const unprocessable = (reason: string) => new UnprocessableEntityException({ status: 'error', reason });

/**
 * The HITL endpoints of FR-11.5 and the operator actions of FR-11.10, each one call. The body carries
 * the command's fields (FR-11.4): `agent_id` and `timestamp` always, plus `reason` (pause),
 * `original_trace_id` and `new_content` (rewrite), `prompt` (inject). The path gives the session, the
 * endpoint the type, and the authenticated operator (OperatorAuthGuard: reading needs a viewer, every
 * command an approver) the operator id.
 */
@Controller('gateway/sessions')
@UseGuards(OperatorAuthGuard)
@UseFilters(GatewayExceptionFilter)
export class HitlController {
  constructor(
    private readonly dispatcher: CommandDispatcher,
    private readonly views: SessionViews,
  ) {}

  @Get()
  async list(): Promise<{ sessions: SessionSummary[] }> {
    return { sessions: await this.views.list() };
  }

  @Get(':session_id')
  async view(@Param('session_id') sessionId: string, @Query('agent_id') agentId?: string): Promise<SessionView> {
    if (!agentId) {
      const agents = await this.views.agentsOf(sessionId);
      if (agents.length > 1) throw unprocessable(`agent_id_required: the session is paused for ${agents.join(', ')}`);
      agentId = agents[0];
    }
    if (!agentId) return { session_id: sessionId, agent_id: '', status: 'normal', messages: [], pending_requests: [] };
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(agentId) || !/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) throw unprocessable('invalid_field: agent_id or session_id');
    return this.views.view(agentId, sessionId);
  }

  @Requires('decide')
  @Post(':session_id/pause')
  @HttpCode(200)
  pause(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_pause', sessionId, request, response);
  }

  @Requires('decide')
  @Post(':session_id/unpause')
  @HttpCode(200)
  unpause(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_unpause', sessionId, request, response);
  }

  @Requires('decide')
  @Post(':session_id/rewrite')
  @HttpCode(200)
  rewrite(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_rewrite', sessionId, request, response);
  }

  @Requires('decide')
  @Post(':session_id/inject')
  @HttpCode(200)
  inject(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_inject', sessionId, request, response);
  }

  /** Any of the four commands with its `type` in the body, as in an inbox file (FR-11.4). */
  @Requires('decide')
  @Post(':session_id/commands')
  @HttpCode(200)
  anyCommand(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command(null, sessionId, request, response);
  }

  /** FR-11.10 approve: flush as it is. */
  @Requires('decide')
  @Post(':session_id/approve')
  @HttpCode(200)
  approve(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_unpause', sessionId, request, response, { resolution: 'approve' });
  }

  /** FR-11.10 rewrite: the rewrite (`original_trace_id`, `new_content`) and the unpause as one command; nothing happens if the rewrite cannot. */
  @Requires('decide')
  @Post(':session_id/rewrite-and-approve')
  @HttpCode(200)
  rewriteAndApprove(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_unpause', sessionId, request, response, { resolution: 'approve', rewrite: true });
  }

  /** FR-11.10 reject: inject the rejection prompt first, deny what waited for approval, flush the rest. */
  @Requires('decide')
  @Post(':session_id/reject')
  @HttpCode(200)
  reject(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_unpause', sessionId, request, response, { resolution: 'reject' });
  }

  /**
   * Emergency stop by an operator: the session pauses (a pause command with `stop_agent`) and its agent
   * is told to stop (control emergency_stop; the SDK refuses to propose and confirms). Approving the
   * pause (`/approve` or `/unpause`) resumes the agent; rejecting it leaves it stopped.
   */
  @Requires('decide')
  @Post(':session_id/stop')
  @HttpCode(200)
  stop(@Param('session_id') sessionId: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    return this.command('hitl_pause', sessionId, request, response, { stop: true });
  }

  private async command(
    type: HitlCommandType | null,
    sessionId: string,
    request: Request,
    response: Response,
    action: { resolution?: 'approve' | 'reject'; rewrite?: boolean; stop?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    const body = await readJsonBody(request);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw unprocessable('body_must_be_a_json_object');
    const fields = { ...(body as Record<string, unknown>) };
    if (type && fields.type !== undefined && fields.type !== type) {
      throw unprocessable(isHitlCommandType(fields.type) ? `command_type_mismatch: this endpoint takes ${type}` : 'unknown_command_type');
    }
    if (fields.session_id !== undefined && fields.session_id !== sessionId) throw unprocessable('session_id_mismatch: the path names the session');
    if (fields.agent_id === undefined && typeof request.query.agent_id === 'string') fields.agent_id = request.query.agent_id;
    if (action.rewrite) {
      if (fields.original_trace_id === undefined) throw unprocessable('missing_required_field: original_trace_id');
      if (fields.new_content === undefined) throw unprocessable('missing_required_field: new_content');
    }
    if (action.stop) {
      fields.stop_agent = true;
      if (fields.reason === undefined) fields.reason = 'Emergency stop by an operator';
    }
    if (action.resolution) {
      if (fields.resolution !== undefined && fields.resolution !== action.resolution) throw unprocessable(`invalid_field: resolution (this endpoint ${action.resolution}s)`);
      fields.resolution = action.resolution;
      if (action.resolution === 'reject' && fields.prompt === undefined) fields.prompt = OPERATOR_REJECTION_PROMPT;
    }
    const check = checkHitlCommand({ ...fields, ...(type ? { type } : {}), session_id: sessionId, operator_id: operatorOf(request).id });
    if (!check.ok) throw unprocessable(check.reason);
    const command = check.command;
    // Answering a gate request approves what it showed: the approval names the digest it was shown.
    if (command.type === 'hitl_unpause' && command.request_id && command.resolution !== 'reject' && !command.digest) {
      throw unprocessable('missing_required_field: digest (approve exactly what was shown: send the digest of the request you read)');
    }
    if (command.type === 'hitl_unpause' && !command.channel) command.channel = 'api';
    return sendOutcome(await this.dispatcher.dispatch(command), response);
  }
}
