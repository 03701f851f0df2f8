import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { isSystemPath, withoutWorldWrite, worldWritablePermissionsRule, worldWritableSystemRule } from './permission-rules.js';
import type { RuleContext } from './review-rule.js';

function bash(command: string, extra: Record<string, unknown> = {}): RuleContext {
  const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command, ...extra } }, '/work/app');
  return { action, session: new ReviewSession('agent-1', 's1', Date.now()), limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}

describe('world_writable_system', () => {
  it.each(['chmod -R 777 /', 'chmod 777 /etc/passwd', 'sudo chmod a+rwx /usr/local/bin', 'chmod 777 ~/.ssh', 'chmod 0777 $HOME/.ssh/id_rsa'])('blocks %s', (command) => {
    expect(worldWritableSystemRule.evaluate(bash(command))).toMatchObject({ verdict: 'block', severity: 'critical' });
    expect(worldWritablePermissionsRule.evaluate(bash(command))).toBeNull();
  });

  it('leaves project paths to world_writable_permissions', () => {
    expect(worldWritableSystemRule.evaluate(bash('chmod 777 ./scripts/run.sh'))).toBeNull();
  });
});

describe('world_writable_permissions', () => {
  it.each([
    ['chmod 777 ./scripts/run.sh', 'chmod 755 ./scripts/run.sh'],
    ['chmod -R 0777 build && ls build', 'chmod -R 755 build && ls build'],
    ['chmod a+rwx tmp/cache', 'chmod 755 tmp/cache'],
    ['mkdir -p out && chmod ugo+rwx out', 'mkdir -p out && chmod 755 out'],
  ])('changes %s to %s', (command, modified) => {
    const finding = worldWritablePermissionsRule.evaluate(bash(command, { description: 'open up' }));
    expect(finding).toMatchObject({ verdict: 'modify', severity: 'high', reason: expect.stringContaining('chmod 755') });
    expect(finding?.modifiedInput).toEqual({ command: modified, description: 'open up' });
  });

  it('warns when the mode cannot be rewritten in place', () => {
    expect(worldWritablePermissionsRule.evaluate(bash("sh -c 'chmod 777 out'"))).toMatchObject({ verdict: 'warn' });
  });

  it.each(['chmod 755 ./scripts/run.sh', 'chmod +x run.sh', 'echo 777'])('ignores %s', (command) => {
    expect(worldWritablePermissionsRule.evaluate(bash(command))).toBeNull();
  });
});

describe('isSystemPath / withoutWorldWrite', () => {
  it('knows system trees from project paths', () => {
    expect(['/', '/etc', '/etc/nginx/nginx.conf', '/usr/bin/node', '~/.ssh/config', '$HOME'].every(isSystemPath)).toBe(true);
    expect(['/work/app', './out', '/var/www/site', 'etc/config'].some(isSystemPath)).toBe(false);
  });

  it('returns null when there is nothing to rewrite', () => {
    expect(withoutWorldWrite('ls -la')).toBeNull();
  });
});
