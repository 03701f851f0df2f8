import 'reflect-metadata';
import { createLogger } from '@warden/observability';
import { runMain, serviceUrl } from '@warden/service-bootstrap';
import { createConsole } from './console-app.js';
import { loadConsoleConfig, type ConsoleConfig } from './config.js';

let config: ConsoleConfig;
try {
  config = loadConsoleConfig(process.env);
} catch (error) {
  createLogger({ service: 'console' }).fatal(`invalid configuration: ${(error as Error).message}`);
  process.exit(1);
}
const logger = createLogger({ service: 'console', level: config.logLevel });
runMain(logger, async () => {
  const app = await createConsole(config, logger);
  logger.info({ url: serviceUrl(app) }, 'console ready');
  return app;
});
