import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from '@warden/observability';
import { PinoNestLogger } from '@warden/observability-nest';
import { ConsoleAppModule } from './app.module.js';
import type { ConsoleConfig } from './config.js';
import { boundedNesting, credentialsBeforeBody, nestingRefused, OperatorAuthenticator } from '@warden/operator-auth';
import { securityHeaders } from './http/respond.js';

/** Routes that read their body before anyone is logged in: the login form, and logging out (its own checks). */
const OPEN_WITH_BODY: ReadonlySet<string> = new Set(['/login', '/logout']);

/** The console's HTTP application, listening (main.ts runs it and closes it on a stop; tests run it in process). */
export async function createConsole(config: ConsoleConfig, logger: Logger): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ConsoleAppModule.forRoot(config, logger), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    bodyParser: false,
  });
  // Which proxies may name the client (req.ip, X-Forwarded-For): none unless configured.
  app.set('trust proxy', config.trustProxy);
  app.use(securityHeaders);
  // Credentials first, then the body: nobody without a login makes the console parse anything.
  app.use(credentialsBeforeBody(app.get(OperatorAuthenticator), OPEN_WITH_BODY));
  // body-parser's `verify` (Nest's option type leaves it out): the nesting is checked before parsing.
  app.useBodyParser('json', { limit: '1mb', verify: boundedNesting } as { limit: string });
  app.useBodyParser('urlencoded', { limit: '16kb', extended: false });
  app.use(nestingRefused);
  try {
    await app.listen(config.http.port, config.http.host);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
