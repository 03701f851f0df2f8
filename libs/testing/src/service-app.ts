import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { JetStreamServer } from '@warden/messaging-nest';
import type { Logger } from '@warden/observability';
import { serviceUrl, startService } from '@warden/service-bootstrap';
import { captureLogger, type CapturedLogger } from './test-logger.js';

export interface InProcessService {
  app: INestApplication;
  url: string;
  transport: JetStreamServer;
  log: CapturedLogger;
  close(): Promise<void>;
}

/**
 * Boots a service module in this process on a random HTTP port. The module is built with the logger it
 * must use, so that every line (Nest's and the service's) is captured for the test to read.
 */
export async function startInProcess(
  name: string,
  createModule: (logger: Logger) => DynamicModule | Type<unknown>,
  options: { jsonBodyLimit?: string; operatorBodies?: boolean } = {},
): Promise<InProcessService> {
  const log = captureLogger(name);
  const module = createModule(log.logger);
  const app = await startService({ module, logger: log.logger, http: { host: '127.0.0.1', port: 0 }, ...options });
  return {
    app,
    url: serviceUrl(app),
    transport: app.get(JetStreamServer),
    log,
    close: () => app.close(),
  };
}
