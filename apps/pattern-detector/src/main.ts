import 'reflect-metadata';
import { runService } from '@warden/service-bootstrap';
import { PatternDetectorAppModule } from './app.module.js';
import { loadPatternDetectorConfig } from './config.js';

runService({ service: 'pattern-detector', loadConfig: loadPatternDetectorConfig, createModule: PatternDetectorAppModule.forRoot });
