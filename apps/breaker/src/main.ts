import 'reflect-metadata';
import { runService } from '@warden/service-bootstrap';
import { BreakerAppModule } from './app.module.js';
import { loadBreakerConfig } from './config.js';

runService({ service: 'breaker', loadConfig: loadBreakerConfig, createModule: BreakerAppModule.forRoot });
