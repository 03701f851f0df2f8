import { describeServiceContract } from '@warden/testing';
import { InterventionControllerAppModule } from '../src/app.module.js';
import { loadInterventionControllerConfig } from '../src/config.js';

describeServiceContract({
  service: 'intervention-controller',
  createModule: (env, logger) => InterventionControllerAppModule.forRoot(loadInterventionControllerConfig(env), logger),
});
