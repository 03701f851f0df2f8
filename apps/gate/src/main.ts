import 'reflect-metadata';
import { runService } from '@warden/service-bootstrap';
import { GateAppModule } from './app.module.js';
import { loadGateConfig } from './config.js';

runService({ service: 'gate', loadConfig: loadGateConfig, createModule: GateAppModule.forRoot });
