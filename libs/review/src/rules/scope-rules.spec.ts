import { ruleContext } from './rule-context.fixture.js';
import { readOutsideProjectRule, secretFileReadRule, writeOutsideProjectRule } from './scope-rules.js';

const inProject = (path: string) => path.startsWith('/work/app') || path.startsWith('/tmp/');
const context = (tool: string, input: Record<string, unknown>) => ruleContext(tool, input, inProject);
const bash = (command: string) => context('Bash', { command });

describe('write_outside_project', () => {
  it.each([
    ['a file of another project', context('Edit', { file_path: '/work/other/config.json', old_string: 'a', new_string: 'b' })],
    ['a shell start file', context('Write', { file_path: '~/.bashrc', content: 'export X=1' })],
    ['a redirect into /etc', bash('echo "127.0.0.1 api" >> /etc/hosts')],
  ])('asks for approval to write %s', (_name, ctx) => {
    expect(writeOutsideProjectRule.evaluate(ctx)).toMatchObject({ verdict: 'require_approval', factors: expect.arrayContaining(['out_of_scope']) });
  });

  it.each([
    ['sudoers', context('Write', { file_path: '/etc/sudoers.d/dev', content: 'dev ALL=(ALL) NOPASSWD:ALL' })],
    ['authorized_keys', bash('echo ssh-ed25519 AAAA >> ~/.ssh/authorized_keys')],
  ])('blocks writing %s', (_name, ctx) => {
    expect(writeOutsideProjectRule.evaluate(ctx)?.verdict).toBe('block');
  });

  it('leaves writes in the project and in scratch space alone, and deletions to their own rule', () => {
    expect(writeOutsideProjectRule.evaluate(context('Write', { file_path: 'src/a.ts', content: '' }))).toBeNull();
    expect(writeOutsideProjectRule.evaluate(bash('npm test > /tmp/out.log'))).toBeNull();
    expect(writeOutsideProjectRule.evaluate(bash('rm /work/other/file'))).toBeNull();
    // PowerShell's null device, as Windows agents write it inside `powershell -Command "…"`.
    expect(writeOutsideProjectRule.evaluate(bash('cd /work/other && docker ps 2>$null'))).toBeNull();
  });
});

describe('secret_file_read', () => {
  it('asks for approval to read private keys anywhere and secret files outside the project', () => {
    expect(secretFileReadRule.evaluate(context('Read', { file_path: '~/.ssh/id_rsa' }))?.verdict).toBe('require_approval');
    expect(secretFileReadRule.evaluate(bash('cat ~/.aws/credentials'))?.verdict).toBe('require_approval');
    expect(secretFileReadRule.evaluate(context('Read', { file_path: '/work/other/.env' }))?.verdict).toBe('require_approval');
  });

  it('lets a listing name credential files: names are no keys', () => {
    expect(secretFileReadRule.evaluate(bash('ls -la ~/.ssh'))).toBeNull();
    expect(secretFileReadRule.evaluate(bash('test -f ~/.aws/credentials && echo configured'))).toBeNull();
    expect(secretFileReadRule.evaluate(context('Glob', { pattern: '*', path: '~/.aws' }))).toBeNull();
    expect(secretFileReadRule.evaluate(bash('ls ~/.ssh && cat ~/.ssh/id_ed25519'))?.verdict).toBe('require_approval');
    expect(secretFileReadRule.evaluate(bash('ls ~/.ssh $(cat ~/.ssh/id_rsa)'))?.verdict).toBe('require_approval');
    expect(secretFileReadRule.evaluate(context('Grep', { pattern: 'BEGIN', path: '~/.ssh' }))?.verdict).toBe('require_approval');
  });

  it("lets the agent read its own project's .env", () => {
    expect(secretFileReadRule.evaluate(context('Read', { file_path: '.env' }))).toBeNull();
  });

  it('reads a file printed from another version of the repository as that file', () => {
    expect(secretFileReadRule.evaluate(bash('git cat-file -p HEAD:.ssh/id_rsa'))?.verdict).toBe('require_approval');
    expect(secretFileReadRule.evaluate(bash('git -C /work/app show origin/main~3:config/master.key'))?.verdict).toBe('require_approval');
    expect(secretFileReadRule.evaluate(bash('git show :deploy/tls.key'))?.verdict).toBe('require_approval');
    expect(secretFileReadRule.evaluate(bash('git show HEAD~1:src/app.ts'))).toBeNull();
    expect(secretFileReadRule.evaluate(bash('git log --format=%H:%s'))).toBeNull();
  });
});

describe('read_outside_project', () => {
  it('warns about looking around the home directory and other projects', () => {
    expect(readOutsideProjectRule.evaluate(bash('ls -la ~'))?.verdict).toBe('warn');
    expect(readOutsideProjectRule.evaluate(bash('find ~ -name "*.env"'))?.verdict).toBe('warn');
    expect(readOutsideProjectRule.evaluate(context('Read', { file_path: '/work/other/src/index.ts' }))?.verdict).toBe('warn');
  });

  it('does not mind system reads or anything that changes files (other rules judge those)', () => {
    expect(readOutsideProjectRule.evaluate(bash('cat /etc/os-release'))).toBeNull();
    expect(readOutsideProjectRule.evaluate(context('Read', { file_path: '/usr/include/stdio.h' }))).toBeNull();
    expect(readOutsideProjectRule.evaluate(bash('cp ~/notes.txt ./notes.txt'))).toBeNull();
  });
});
