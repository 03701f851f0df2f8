import 'reflect-metadata';
import { runService } from '@warden/messaging';
import { PatternDetectorAppModule } from './app.module.js';
import { loadPatternDetectorConfig } from './config.js';

runService({ service: 'pattern-detector', loadConfig: loadPatternDetectorConfig, createModule: PatternDetectorAppModule.forRoot });
