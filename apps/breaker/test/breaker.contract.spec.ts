import { describeServiceContract } from '@warden/testing';
import { BreakerAppModule } from '../src/app.module.js';
import { loadBreakerConfig } from '../src/config.js';

describeServiceContract({
  service: 'breaker',
  createModule: (env, logger) => BreakerAppModule.forRoot(loadBreakerConfig(env), logger),
});
