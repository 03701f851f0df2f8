import { BadRequestException, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { OperatorAuthGuard, Requires } from '@warden/operator-auth';
import { InvalidQueryError, parseQueryRequest, type AuditQueryName } from '../domain/query-request.js';
import { AuditQueryService, type QueryPage } from './audit-query-service.js';

type QueryString = Record<string, unknown>;

/**
 * The audit store's HTTP API (described in GET /audit/openapi.json). Every route is one audit query;
 * parameters are checked the same way as on the bus, and a bad one answers 400 with the reason. Every
 * route needs an operator's bearer token (401 otherwise): reading a viewer, running retention an admin.
 */
@Controller('audit')
@UseGuards(OperatorAuthGuard)
export class AuditQueryController {
  constructor(private readonly queries: AuditQueryService) {}

  @Get('sessions/paused')
  paused(@Query() query: QueryString) {
    return this.answer('paused_sessions', query);
  }

  @Get('sessions/:session_id/timeline')
  timeline(@Param('session_id') sessionId: string, @Query() query: QueryString) {
    return this.answer('session_timeline', query, { session_id: sessionId });
  }

  @Get('traces/:trace_id/events')
  trace(@Param('trace_id') traceId: string, @Query() query: QueryString) {
    return this.answer('trace_events', query, { trace_id: traceId });
  }

  @Get('gates/events')
  gateEvents(@Query() query: QueryString) {
    return this.answer('gate_events', query);
  }

  @Get('gates/stats')
  gateStats(@Query() query: QueryString) {
    return this.answer('gate_stats', query);
  }

  @Get('costs')
  costs(@Query() query: QueryString) {
    return this.answer('cost_breakdown', query);
  }

  @Get('breakers/trips')
  trips(@Query() query: QueryString) {
    return this.answer('breaker_history', query);
  }

  @Get('incidents')
  incidents(@Query() query: QueryString) {
    return this.answer('incidents', query);
  }

  @Get('chain/verify')
  verify(@Query() query: QueryString) {
    return this.answer('chain_verify', query);
  }

  @Post('retention/run')
  @Requires('administer')
  @HttpCode(200)
  retention(@Query() query: QueryString) {
    return this.answer('retention_run', query);
  }

  private async answer(name: AuditQueryName, query: QueryString, path: Record<string, string> = {}): Promise<{ query: AuditQueryName } & QueryPage> {
    const { limit, cursor, ...params } = query;
    let request;
    try {
      request = parseQueryRequest(name, { ...params, ...path }, limit, cursor);
    } catch (error) {
      if (error instanceof InvalidQueryError) throw new BadRequestException({ status: 'error', reason: error.message });
      throw error;
    }
    return { query: name, ...(await this.queries.run(request)) };
  }
}
