import type { AddressInfo } from 'node:net';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServiceName } from '@warden/contracts';
import { boundedNesting, credentialsBeforeBody, nestingRefused, OperatorAuthenticator } from '@warden/operator-auth';
import { JetStreamServer, MessagingModule } from '@warden/messaging-nest';
import { createLogger, type Logger } from '@warden/observability';
import { ObservabilityModule, PinoNestLogger } from '@warden/observability-nest';
import type { ServiceRuntime } from './service-runtime.js';

export interface ServiceStartOptions {
  module: DynamicModule | Type<unknown>;
  logger: Logger;
  http: { host: string; port: number };
  /** The largest JSON body its HTTP routes read [body-parser's 100 KB]. */
  jsonBodyLimit?: string;
  /**
   * Its HTTP routes that take a body are operators' (the reviewer's explain): credentials are checked
   * before a body is read, and a body nesting deeper than 64 levels is refused unparsed (400).
   */
  operatorBodies?: boolean;
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
  if (options.operatorBodies) app.use(credentialsBeforeBody(app.get(OperatorAuthenticator)));
  // Set before the app starts, this parser takes the place of Nest's default one; body-parser's `verify`
  // (Nest's option type leaves it out) checks the nesting before parsing.
  if (options.jsonBodyLimit || options.operatorBodies) {
    (app as NestExpressApplication).useBodyParser('json', { limit: options.jsonBodyLimit ?? '100kb', ...(options.operatorBodies ? { verify: boundedNesting } : {}) } as { limit: string });
  }
  if (options.operatorBodies) app.use(nestingRefused);
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

/** Longest a graceful shutdown may take before the process exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 20_000;

/** A started service: what its shutdown closes. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Runs a service's main function and ends the process once, in order, on SIGTERM or SIGINT, or when the
 * process that started it goes away (`WARDEN_EXIT_WITH_PARENT`, set by `warden up`: its end closes the
 * service's stdin). A start-up failure is logged with its reason and exits 1. A stop during start-up
 * exits at once (nothing is handed over yet); a stop of a started service closes it (drain, hand the
 * partitions over) and exits 0, or exits 1 after SHUTDOWN_TIMEOUT_MS whatever the bus or the database does.
 */
export function runMain(logger: Logger, main: () => Promise<Closable>): void {
  let started: Closable | undefined;
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    if (!started) {
      logger.info({ why }, 'stopping during start-up');
      process.exit(0);
    }
    logger.info({ why }, 'stopping');
    setTimeout(() => {
      logger.error({ why }, `graceful shutdown took over ${SHUTDOWN_TIMEOUT_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    started.close().then(
      () => process.exit(0),
      (error: Error) => {
        logger.error({ err: error }, `shutdown failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
  if (process.env.WARDEN_EXIT_WITH_PARENT === 'stdin') {
    // The supervisor holds the other end of stdin: it is closed when the supervisor ends, however it ends.
    process.stdin.on('end', () => stop('the supervising process ended'));
    process.stdin.on('error', () => stop('the supervising process ended'));
    process.stdin.resume();
  }
  main().then(
    (closable) => {
      started = closable;
    },
    (error: Error) => {
      logger.fatal({ err: error }, `failed to start: ${error.message}`);
      process.exitCode = 1;
      setTimeout(() => process.exit(1), 100).unref();
    },
  );
}

export interface RunServiceOptions<C extends ServiceRuntime> {
  service: ServiceName;
  /** Reads the service's configuration from the environment; throws ConfigurationError on bad values. */
  loadConfig(env: NodeJS.ProcessEnv): C;
  createModule(config: C, logger: Logger): DynamicModule;
  /** The largest JSON body its HTTP routes read [100 KB]. */
  jsonBodyLimit?: string;
  /** See ServiceStartOptions.operatorBodies. */
  operatorBodies?: boolean;
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
  runMain(logger, async () => {
    const app = await startService({
      module: options.createModule(config, logger),
      logger,
      http: config.http,
      ...(options.jsonBodyLimit ? { jsonBodyLimit: options.jsonBodyLimit } : {}),
      ...(options.operatorBodies ? { operatorBodies: true } : {}),
    });
    logger.info({ url: serviceUrl(app), replica: app.get(JetStreamServer).options.replicaId }, `${options.service} ready`);
    return app;
  });
}

/** The modules every service imports first: observability (metrics, health, logger) and messaging. */
export function serviceInfrastructure(runtime: ServiceRuntime, logger: Logger): DynamicModule[] {
  return [ObservabilityModule.forRoot({ service: runtime.service, logger }), MessagingModule.forRoot(runtime.messaging)];
}
