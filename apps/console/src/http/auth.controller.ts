import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { cookieValue, csrfTokenMatches, LoginThrottle, OperatorStore, sameOrigin } from '@warden/operator-auth';
import { OPERATOR_SESSION_TTL_MS } from '@warden/contracts';
import { loginPage } from '../views/login-view.js';
import { sendHtml } from './respond.js';
import { CONSOLE_CONFIG, SESSION_COOKIE, type ConsoleConfig } from './tokens.js';

/** Only paths of this console after a login, never another site. */
const safeNext = (next: unknown) => (typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) ? next : '/');

/**
 * Logging in and out. A login checks the password against its scrypt hash (libs/operator-auth) and sets
 * the session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's request carries
 * it), Secure over HTTPS. Both forms must come from the console's own origin (login CSRF), logging out
 * also with the login's CSRF token. Failed logins are throttled per source (the client's address) as well
 * as per operator id, so that nobody can lock an operator out of a correct login from their own browser.
 */
@Controller()
export class AuthController {
  private readonly throttle = new LoginThrottle();
  private readonly logins;

  constructor(
    private readonly store: OperatorStore,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
    @Inject(LOGGER) private readonly log: Logger,
    metrics: MetricsRegistry,
  ) {
    this.logins = metrics.counter({ name: 'warden_console_logins_total', help: 'Console logins by result.', labelNames: ['result'] });
  }

  @Get('login')
  form(@Req() req: Request, @Res() res: Response, @Query('next') next?: string): void {
    sendHtml(req, res, loginPage({ next: safeNext(next) }));
  }

  @Post('login')
  async login(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const operator = typeof body?.operator === 'string' ? body.operator.trim().slice(0, 64) : '';
    const password = typeof body?.password === 'string' ? body.password : '';
    const next = safeNext(body?.next);
    if (!sameOrigin(req.headers)) {
      this.logins.inc({ result: 'cross_origin' });
      return sendHtml(req, res, loginPage({ error: 'Log in from the console page itself.', next }), 403);
    }
    // The connection's address, or the client a trusted proxy names (CONSOLE_TRUST_PROXY).
    const source = req.ip ?? req.socket.remoteAddress ?? '';
    const wait = this.throttle.retryAfterMs(operator, source);
    if (wait > 0) {
      this.logins.inc({ result: 'throttled' });
      res.setHeader('retry-after', String(Math.ceil(wait / 1000)));
      return sendHtml(req, res, loginPage({ error: `Too many failed logins for ${operator} from this address: try again in ${Math.ceil(wait / 60_000)} minute(s).`, next, operator }), 429);
    }
    const result = operator && password ? await this.store.login(operator, password) : { ok: false as const };
    if (!result.ok) {
      this.throttle.failed(operator, source);
      this.logins.inc({ result: 'refused' });
      this.log.warn({ operator_id: operator, source }, 'console login refused');
      return sendHtml(req, res, loginPage({ error: 'Unknown operator or wrong password.', next, operator }), 401);
    }
    this.throttle.succeeded(operator, source);
    this.logins.inc({ result: 'ok' });
    this.log.info({ operator_id: result.operator.id, role: result.operator.role }, 'console login');
    res.setHeader('set-cookie', this.cookie(req, result.token, OPERATOR_SESSION_TTL_MS / 1000));
    res.redirect(303, next);
  }

  @Post('logout')
  async logout(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (!token || !sameOrigin(req.headers) || !csrfTokenMatches(token, typeof body?._csrf === 'string' ? body._csrf : undefined)) {
      res.status(403).type('text/plain').send('csrf_check_failed: log out from a console page');
      return;
    }
    await this.store.logout(token);
    res.setHeader('set-cookie', this.cookie(req, '', 0));
    res.redirect(303, '/login');
  }

  private cookie(req: Request, value: string, maxAgeSeconds: number): string {
    const https = req.secure || String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim() === 'https';
    const secure = this.config.cookieSecure === 'auto' ? https : this.config.cookieSecure;
    return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
  }
}
