import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { NestFactory } from '@nestjs/core';
import { runMain, SHUTDOWN_TIMEOUT_MS } from '@warden/messaging';
import { createLogger, PinoNestLogger } from '@warden/observability';
import { GatewayAppModule } from './app.module.js';
import { loadGatewayConfig, type GatewayConfig } from './config.js';

let config: GatewayConfig;
try {
  config = loadGatewayConfig(process.env);
} catch (error) {
  createLogger({ service: 'gateway' }).fatal(`invalid configuration: ${(error as Error).message}`);
  process.exit(1);
}
const logger = createLogger({ service: 'gateway', level: config.logLevel });
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref());
}
runMain(logger, async () => {
  const app = await NestFactory.create<NestExpressApplication>(GatewayAppModule.forRoot(config, logger), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    bodyParser: false,
  });
  // Claude Code posts whole file contents (Write, Edit): the payload limit is the gateway's own setting.
  // The body is read as text and parsed by the adapter, which names what is wrong with a bad payload.
  app.useBodyParser('text', { type: () => true, limit: config.maxBodyBytes });
  app.enableShutdownHooks();
  await app.listen(config.http.port, config.http.host);
  logger.info({ url: `http://${config.http.host}:${config.http.port}` }, 'gateway ready');
});
