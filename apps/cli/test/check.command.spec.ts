import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

/** `warden check` as a user runs it: no suite, no NATS. */
function check(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WARDEN, 'check', ...args], { env: { ...inherited, NO_COLOR: '1' }, cwd: WORKSPACE_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('warden check', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-check-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the verdict, the rule that decided and the reason, and fails when a command is blocked', async () => {
    const blocked = await check(['rm -rf /', '--cwd', '/home/dev/app']);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toMatch(/^block {2}rm -rf \/\n {2}decided by destructive_root_deletion\n {2}- Recursive deletion of \/ /);
    const allowed = await check(['git status', 'npm test']);
    expect(allowed).toMatchObject({ code: 0, stdout: expect.stringMatching(/^allow {2}git status/m) });
    expect(allowed.stdout).toContain('2 reviewed: 2 allow');
  });

  it("takes a Windows project directory as written, and judges PowerShell's and cmd's deletions against it", async () => {
    const windows = await check(['--cwd', 'C:\\Users\\me\\proj', 'rd /s /q ..\\other', 'Remove-Item .\\out -Recurse -Force']);
    expect(windows.stdout).toMatch(/^block {2}rd \/s \/q \.\.\\other\n {2}decided by deletion_outside_project\n {2}- Deleting c:\/users\/me\/other reaches outside/m);
    expect(windows.stdout).not.toMatch(/^block {2}Remove-Item/m);
  });

  it('reads a file of commands, or JSON Lines of labelled tool calls, and summarises the labels', async () => {
    const commands = join(dir, 'commands.txt');
    writeFileSync(commands, '# cleanup\nrm -rf build\ngit reset --hard\n');
    const plain = await check(['--file', commands, '--cwd', '/home/dev/app']);
    expect(plain.stdout).toContain('decided by history_destruction');
    expect(plain.code).toBe(0);

    const labelled = join(dir, 'labelled.jsonl');
    writeFileSync(
      labelled,
      [
        { tool: 'Bash', input: { command: 'git reset --hard' }, expected: 'block', tag: 'core', family: 'git' },
        { tool: 'Bash', input: { command: 'git status' }, expected: 'allow', tag: 'core', family: 'git' },
        { tool: 'Bash', input: { command: 'git stash clear' }, expected: 'allow', tag: 'policy', family: 'git' },
        { tool: 'Read', input: { file_path: '/home/dev/app/src/a.ts' }, expected: 'allow', tag: 'core', family: 'other' },
      ]
        .map((v) => JSON.stringify(v))
        .join('\n'),
    );
    const result = await check(['--file', labelled, '--cwd', '/home/dev/app', '--mismatches']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/tag core +dangerous stopped +100% of +1 +safe blocked\/held +0% +safe warned +0% of +2/);
    expect(result.stdout).toMatch(/1 of 4 labelled vectors judged against their label:\n {2}allow → require_approval \(history_destruction\) {2}git stash clear/);
  });

  it('prints JSON, reads standard input, and uses a reviewer configuration', async () => {
    const config = join(dir, 'reviewer.yaml');
    writeFileSync(config, 'step_reviewer:\n  rules:\n    packs:\n      git: { enabled: false }\n');
    const lines = (await check(['--file', '-', '--json', '--config', config, '--cwd', '/home/dev/app'], 'git reset --hard\n')).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ input: { command: 'git reset --hard' }, verdict: expect.not.stringMatching(/^(?:block|require_approval)$/) });
    expect(lines[1].summary).toMatchObject({ total: 1 });
  });

  it('explains its usage, and refuses input it cannot read', async () => {
    expect(await check([])).toMatchObject({ code: 2, stderr: expect.stringContaining('give commands to check') });
    const help = await check(['--help']);
    expect(help.stdout).toContain('Exit status');
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"tool":"Bash","input":{"command":"ls"},"expected":"maybe"}\n');
    expect(await check(['--file', broken])).toMatchObject({ code: 2, stderr: expect.stringContaining('"expected" must be "block" or "allow"') });
  });
});
