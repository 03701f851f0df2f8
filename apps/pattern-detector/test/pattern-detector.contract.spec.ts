import { describeServiceContract } from '@warden/testing';
import { PatternDetectorAppModule } from '../src/app.module.js';
import { loadPatternDetectorConfig } from '../src/config.js';

describeServiceContract({
  service: 'pattern-detector',
  createModule: (env, logger) => PatternDetectorAppModule.forRoot(loadPatternDetectorConfig(env), logger),
});
