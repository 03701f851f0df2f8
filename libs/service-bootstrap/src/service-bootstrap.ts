import type { AddressInfo } from 'node:net';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ServiceName } from '@warden/contracts';
import { JetStreamServer, MessagingModule } from '@warden/messaging-nest';
import { createLogger, type Logger } from '@warden/observability';
import { ObservabilityModule, PinoNestLogger } from '@warden/observability-nest';
import type { ServiceRuntime } from './service-runtime.js';

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

/** Longest a graceful shutdown may take before the process exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 20_000;

export interface RunServiceOptions<C extends ServiceRuntime> {
  service: ServiceName;
  /** Reads the service's configuration from the environment; throws ConfigurationError on bad values. */
  loadConfig(env: NodeJS.ProcessEnv): C;
  createModule(config: C, logger: Logger): DynamicModule;
}

/** The whole `main` of a service: configuration, logger, start, and a clear message if any of it fails. */
export function runService<C extends ServiceRuntime>(options: RunServiceOptions<C>): void {
  let config: C;
  try {
    config = options.loadConfig(process.env);
  } catch (error) {
    createLogger({ service: options.service }).fatal(`invalid configuration: ${(error as Error).message}`);
    process.exit(1);
  }
  const logger = createLogger({ service: options.service, level: config.logLevel });
  // Nest closes the app on these signals; should that hang (the bus is gone and nothing can be
  // handed over), the process still ends.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        logger.error({ signal }, `graceful shutdown took over ${SHUTDOWN_TIMEOUT_MS} ms; exiting`);
        process.exit(1);
      }, SHUTDOWN_TIMEOUT_MS).unref();
    });
  }
  runMain(logger, async () => {
    const app = await startService({ module: options.createModule(config, logger), logger, http: config.http });
    logger.info({ url: serviceUrl(app), replica: app.get(JetStreamServer).options.replicaId }, `${options.service} ready`);
  });
}

/** The modules every service imports first: observability (metrics, health, logger) and messaging. */
export function serviceInfrastructure(runtime: ServiceRuntime, logger: Logger): DynamicModule[] {
  return [ObservabilityModule.forRoot({ service: runtime.service, logger }), MessagingModule.forRoot(runtime.messaging)];
}
