import 'reflect-metadata';
import { runService } from '@warden/service-bootstrap';
import { ReviewerAppModule } from './app.module.js';
import { loadReviewerConfig, REVIEWER_JSON_BODY_LIMIT } from './config.js';

runService({ service: 'reviewer', loadConfig: loadReviewerConfig, createModule: ReviewerAppModule.forRoot, jsonBodyLimit: REVIEWER_JSON_BODY_LIMIT, operatorBodies: true });
