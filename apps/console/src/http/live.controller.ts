import { Controller, Get, Query, Req, Res, UnprocessableEntityException, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isSubjectToken } from '@warden/contracts';
import { authenticationOf, OperatorAuthGuard } from '@warden/operator-auth';
import { sessionKey } from '../domain/console-event.js';
import { LiveHub, type LivePage } from '../live/live-hub.js';

const PAGES: readonly LivePage[] = ['sessions', 'approvals', 'agents', 'session'];

/**
 * The live stream of a page (Server-Sent Events). A drill-down's stream is scoped at connection time to
 * its one session and agent: it never carries another session's changes (FR-11.10).
 */
@Controller()
@UseGuards(OperatorAuthGuard)
export class LiveController {
  constructor(private readonly hub: LiveHub) {}

  @Get('events')
  events(@Req() req: Request, @Res() res: Response, @Query('page') page?: string, @Query('session') session?: string, @Query('agent') agent?: string, @Query('since') since?: string): void {
    if (!page || !(PAGES as readonly string[]).includes(page)) throw new UnprocessableEntityException({ status: 'error', reason: `invalid_field: page (${PAGES.join(', ')})` });
    let key: string | undefined;
    if (page === 'session') {
      if (typeof session !== 'string' || typeof agent !== 'string' || !isSubjectToken(session) || !isSubjectToken(agent)) {
        throw new UnprocessableEntityException({ status: 'error', reason: 'invalid_field: a session page names its session and agent' });
      }
      key = sessionKey(agent, session);
    }
    // The board's version the page was rendered at (absent or malformed: nothing to catch up on).
    const version = typeof since === 'string' && /^\d{1,15}$/.test(since) ? Number(since) : undefined;
    this.hub.connect(res, page as LivePage, authenticationOf(req).operator, key, version);
  }
}
