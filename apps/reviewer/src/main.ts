import 'reflect-metadata';
import { runMain, serviceUrl, startService } from '@warden/messaging';
import { createLogger } from '@warden/observability';
import { ReviewerAppModule } from './app.module.js';
import { loadReviewerConfig } from './config.js';

const config = loadReviewerConfig();
const logger = createLogger({ service: 'reviewer', level: config.logLevel });

runMain(logger, async () => {
  const app = await startService({ module: ReviewerAppModule.forRoot(config, logger), logger, http: config.http });
  logger.info({ url: serviceUrl(app) }, 'reviewer ready');
});
