import type { AddressInfo } from 'node:net';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger, type Logger } from '@warden/observability';
import { JetStreamServer } from './transport/jetstream.server.js';

export interface ServiceStartOptions {
  module: DynamicModule | Type<unknown>;
  logger: Logger;
  http: { host: string; port: number };
  /** Stop gracefully on SIGTERM/SIGINT. On for processes; off when tests boot many apps in one process. */
  shutdownHooks?: boolean;
}

/**
 * Boots a Warden service as a Nest hybrid application: the JetStream transport for its handlers, and
 * HTTP for `/metrics` and `/health`. Resolves once consumers run and the HTTP port listens.
 */
export async function startService(options: ServiceStartOptions): Promise<INestApplication> {
  const app = await NestFactory.create(options.module, {
    logger: new PinoNestLogger(options.logger),
    abortOnError: false,
  });
  if (options.shutdownHooks ?? true) app.enableShutdownHooks();
  try {
    app.connectMicroservice({ strategy: app.get(JetStreamServer) }, { inheritAppConfig: true });
    await app.startAllMicroservices();
    await app.listen(options.http.port, options.http.host);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

/** The base URL the service's HTTP server listens on. */
export function serviceUrl(app: INestApplication): string {
  const address = app.getHttpServer().address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Runs a service's main function; a start-up failure is logged with its reason and exits 1. */
export function runMain(logger: Logger, main: () => Promise<unknown>): void {
  main().catch((error: Error) => {
    logger.fatal({ err: error }, `failed to start: ${error.message}`);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  });
}
