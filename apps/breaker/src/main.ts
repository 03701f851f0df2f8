import 'reflect-metadata';
import { runService } from '@warden/messaging';
import { BreakerAppModule } from './app.module.js';
import { loadBreakerConfig } from './config.js';

runService({ service: 'breaker', loadConfig: loadBreakerConfig, createModule: BreakerAppModule.forRoot });
