import { describeServiceContract } from '@warden/testing';
import { LadderAppModule } from '../src/app.module.js';
import { loadLadderConfig } from '../src/config.js';

describeServiceContract({
  service: 'ladder',
  createModule: (env, logger) => LadderAppModule.forRoot(loadLadderConfig(env), logger),
});
