import 'reflect-metadata';
import { runService } from '@warden/service-bootstrap';
import { LadderAppModule } from './app.module.js';
import { loadLadderConfig } from './config.js';

runService({ service: 'ladder', loadConfig: loadLadderConfig, createModule: LadderAppModule.forRoot });
