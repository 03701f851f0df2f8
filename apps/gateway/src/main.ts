import 'reflect-metadata';
import { createServer } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';
import { createLogger } from '@warden/observability';
import { PinoNestLogger } from '@warden/observability-nest';
import { runMain } from '@warden/service-bootstrap';
import { GatewayAppModule } from './app.module.js';
import { loadGatewayConfig, type GatewayConfig } from './config.js';
import { HookGateway } from './hook-gateway.js';
import { HOOK_PREFIX, hookRequestHandler } from './hook-http.js';
import { telemetryRequestHandler } from './telemetry-http.js';
import { TelemetryReceiver } from './telemetry-receiver.js';

let config: GatewayConfig;
try {
  config = loadGatewayConfig(process.env);
} catch (error) {
  createLogger({ service: 'gateway' }).fatal(`invalid configuration: ${(error as Error).message}`);
  process.exit(1);
}
const logger = createLogger({ service: 'gateway', level: config.logLevel });
runMain(logger, async () => {
  const web = express();
  const app = await NestFactory.create(GatewayAppModule.forRoot(config, logger), new ExpressAdapter(web), { logger: new PinoNestLogger(logger), abortOnError: false });
  await app.init();
  // The hook is on every tool call's path: Node's server hands it over directly; Nest serves the rest.
  const hook = hookRequestHandler(app.get(HookGateway), config.maxBodyBytes);
  const telemetry = telemetryRequestHandler(app.get(TelemetryReceiver), config.otlpMaxBodyBytes);
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith(HOOK_PREFIX)) hook(req, res);
    else if (url.startsWith('/v1/')) telemetry(req, res);
    else web(req, res);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.http.port, config.http.host, resolve));
  logger.info({ url: `http://${config.http.host}:${config.http.port}` }, 'gateway ready');
  return {
    async close() {
      server.close();
      server.closeAllConnections();
      await app.close();
    },
  };
});
