import { Body, Controller, Headers, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HookGateway } from './hook-gateway.js';

/**
 * `POST /hooks/claude-code`: Claude Code's `type: "http"` hook for every event Warden answers. The
 * body is the hook's JSON input; the answer is a 200 with the hook's JSON output (an empty body when
 * there is nothing to say), or 400 / 401 / 403 / 413 with `{ "error": reason }`.
 */
@Controller('hooks')
export class HookController {
  constructor(private readonly gateway: HookGateway) {}

  @Post('claude-code')
  async claudeCode(
    @Headers('authorization') authorization: string | undefined,
    @Headers('x-claude-code-entrypoint') entrypoint: string | undefined,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const reply = await this.gateway.handle({ authorization, entrypoint, query, body });
    if (reply.status !== 200) {
      res.status(reply.status).json({ error: reply.error });
      return;
    }
    if (reply.output) res.status(200).json(reply.output);
    else res.status(200).end();
  }
}
