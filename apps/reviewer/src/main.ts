import 'reflect-metadata';
import { runService } from '@warden/service-bootstrap';
import { ReviewerAppModule } from './app.module.js';
import { loadReviewerConfig } from './config.js';

runService({ service: 'reviewer', loadConfig: loadReviewerConfig, createModule: ReviewerAppModule.forRoot });
