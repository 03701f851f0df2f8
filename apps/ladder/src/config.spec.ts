import { ConfigurationError } from '@warden/service-bootstrap';
import { loadLadderConfig } from './config.js';

describe('loadLadderConfig', () => {
  it('defaults to the seed: level 1, level-up allowed, alpha 0.1, and a probation of 10 runs', () => {
    const config = loadLadderConfig({});
    expect(config.http.port).toBe(3106);
    expect(config.ladder).toMatchObject({ initialLevel: 1, allowLevelUp: true, approvalAlpha: 0.1, probationRuns: 10 });
  });

  it('reads every setting from the environment', () => {
    const config = loadLadderConfig({ LADDER_INITIAL_LEVEL: '0', LADDER_ALLOW_LEVEL_UP: 'false', LADDER_APPROVAL_ALPHA: '0.25', LADDER_PROBATION_RUNS: '0' });
    expect(config.ladder).toMatchObject({ initialLevel: 0, allowLevelUp: false, approvalAlpha: 0.25, probationRuns: 0 });
  });

  it.each([
    ['LADDER_INITIAL_LEVEL', '5', 'LADDER_INITIAL_LEVEL must be an automation level from 0 to 4 (got "5")'],
    ['LADDER_INITIAL_LEVEL', 'two', 'LADDER_INITIAL_LEVEL must be an integer >= 0 (got "two")'],
    ['LADDER_ALLOW_LEVEL_UP', 'maybe', 'LADDER_ALLOW_LEVEL_UP must be true or false (got "maybe")'],
    ['LADDER_APPROVAL_ALPHA', '0', 'LADDER_APPROVAL_ALPHA must be a number greater than 0 and at most 1 (got "0")'],
    ['LADDER_APPROVAL_ALPHA', '1.5', 'LADDER_APPROVAL_ALPHA must be a number greater than 0 and at most 1 (got "1.5")'],
    ['LADDER_APPROVAL_ALPHA', 'ten percent', 'LADDER_APPROVAL_ALPHA must be a number greater than 0 and at most 1 (got "ten percent")'],
    ['LADDER_PROBATION_RUNS', '-1', 'LADDER_PROBATION_RUNS must be an integer >= 0 (got "-1")'],
  ])('refuses %s=%s with a clear message', (name, value, message) => {
    const load = () => loadLadderConfig({ [name]: value });
    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(message);
  });
});
