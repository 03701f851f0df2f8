import 'reflect-metadata';
import { runService } from '@warden/service-bootstrap';
import { InterventionControllerAppModule } from './app.module.js';
import { loadInterventionControllerConfig } from './config.js';

runService({ service: 'intervention-controller', loadConfig: loadInterventionControllerConfig, createModule: InterventionControllerAppModule.forRoot });
