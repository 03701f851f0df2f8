import 'reflect-metadata';
import { createLogger } from '@warden/observability';
import { runMain, serviceUrl, SHUTDOWN_TIMEOUT_MS } from '@warden/service-bootstrap';
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
// Nest closes the app on these signals; should that hang, the process still ends.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref());
}
runMain(logger, async () => {
  const app = await createConsole(config, logger);
  logger.info({ url: serviceUrl(app) }, 'console ready');
});
