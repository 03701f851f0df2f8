import { isAllowedAtLevel } from '@warden/contracts';
import { parseAction } from '../parsing/parsed-action.js';
import { ladderActionOf } from './ladder-action.js';

const bash = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app');

describe('ladderActionOf', () => {
  it.each([
    ['gh pr merge 42 --squash', 'auto_merge'],
    ['git push origin main', 'auto_merge'],
    ['git merge feature/x', 'auto_merge'],
    ['kubectl apply -f k8s/staging.yaml', 'auto_deploy_staging'],
    ['helm upgrade api ./chart -f values-prod.yaml --namespace prod', 'auto_deploy_production'],
    ['npm run deploy', 'auto_deploy_staging'],
    ['npm test', 'auto_fix'],
    ['git push origin fix/dates', 'auto_fix'],
  ])('names %s %s', (command, expected) => {
    expect(ladderActionOf(bash(command))).toBe(expected);
  });

  it('counts a deployment as production when the session runs in production', () => {
    expect(ladderActionOf(bash('terraform apply'), 'production')).toBe('auto_deploy_production');
  });

  it('does not gate reading, talking or delegating', () => {
    expect(ladderActionOf(bash('git status'))).toBeNull();
    expect(ladderActionOf(parseAction({ kind: 'message', tool: 'say', input: {} }))).toBeNull();
    expect(ladderActionOf(parseAction({ kind: 'tool_use', tool: 'Task', input: { prompt: 'x' } }))).toBeNull();
  });
});

describe('isAllowedAtLevel (seed 002 §7.2)', () => {
  it('allows nothing at levels 0 and 1', () => {
    expect(isAllowedAtLevel(0, 'auto_fix', 'low')).toBe(false);
    expect(isAllowedAtLevel(1, 'auto_fix', 'low')).toBe(false);
  });

  it('allows low-risk fixes at 2, merges and staging deploys at 3, all but production at 4', () => {
    expect(isAllowedAtLevel(2, 'auto_fix', 'low')).toBe(true);
    expect(isAllowedAtLevel(2, 'auto_fix', 'medium')).toBe(false);
    expect(isAllowedAtLevel(2, 'auto_merge', 'low')).toBe(false);
    expect(isAllowedAtLevel(3, 'auto_merge', 'low')).toBe(true);
    expect(isAllowedAtLevel(3, 'auto_deploy_production', 'low')).toBe(false);
    expect(isAllowedAtLevel(4, 'auto_deploy_staging', 'low')).toBe(true);
    expect(isAllowedAtLevel(4, 'auto_deploy_production', 'low')).toBe(false);
    expect(isAllowedAtLevel(4, 'auto_fix', 'high')).toBe(false);
  });
});
