import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { runWarden } from './hook-suite.fixture.js';

/** `warden hook install`: the hook merged into a project's .claude/settings.json, never clobbering it. */
describe('warden hook install', () => {
  let project: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'hook-install-'));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const settings = () => JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8')) as Record<string, unknown>;
  const entry = (command: string) => [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 60 }] }];

  it('adds the four hooks to the settings the project has, keeping everything else', async () => {
    mkdirSync(join(project, '.claude'));
    const lint = { matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'npm run lint --silent' }] };
    writeFileSync(
      join(project, '.claude/settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] }, model: 'opus', hooks: { PostToolUse: [lint], Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } }),
    );
    const credentials = join(project, 'credentials.json');
    const run = await runWarden(['hook', 'install', '--project', project, '--agent', 'my-agent', '--nats-url', 'nats://10.0.0.5:4222', '--credentials', credentials, '--command', 'warden hook']);
    expect(run).toEqual({
      code: 0,
      stdout: `Claude Code hooks (PreToolUse, PostToolUse, PostToolUseFailure, SessionEnd) → ${join(project, '.claude/settings.json')}\nWarden hook settings → ${join(project, '.warden/hook.json')}\n`,
      stderr: '',
    });
    expect(settings()).toEqual({
      permissions: { allow: ['Bash(npm test:*)'] },
      model: 'opus',
      hooks: {
        PostToolUse: [lint, ...entry('warden hook')],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
        PreToolUse: entry('warden hook'),
        PostToolUseFailure: entry('warden hook'),
        SessionEnd: entry('warden hook'),
      },
    });
    expect(JSON.parse(readFileSync(join(project, '.warden/hook.json'), 'utf8'))).toEqual({
      servers: 'nats://10.0.0.5:4222',
      agentId: 'my-agent',
      credentialsFile: credentials,
      deadlineMs: 45000,
      failOpenTools: [],
    });

    // Installing again replaces Warden's entries instead of adding them twice, and keeps the edited hook.json.
    writeFileSync(join(project, '.warden/hook.json'), '{"agentId":"edited"}');
    const again = await runWarden(['hook', 'install', '--project', project, '--command', 'node /opt/warden/bin/warden.js hook']);
    expect(again.stdout).toContain(`Kept the existing ${join(project, '.warden/hook.json')}`);
    expect((settings().hooks as Record<string, unknown>).PostToolUse).toEqual([lint, ...entry('node /opt/warden/bin/warden.js hook')]);
    expect((settings().hooks as Record<string, unknown>).PreToolUse).toEqual(entry('node /opt/warden/bin/warden.js hook'));
    expect(readFileSync(join(project, '.warden/hook.json'), 'utf8')).toBe('{"agentId":"edited"}');
  });

  it('writes new settings with this warden, by absolute path, when the project has none', async () => {
    const run = await runWarden(['hook', 'install', '--project', project]);
    expect(run.code).toBe(0);
    const pre = (settings().hooks as Record<string, { hooks: { command: string }[] }[]>).PreToolUse!;
    expect(pre[0]!.hooks[0]!.command).toBe(`${JSON.stringify(process.execPath)} ${JSON.stringify(join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js'))} hook`);
  });

  it('changes nothing when the settings file is not valid JSON', async () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude/settings.json'), '{ "hooks": ');
    const run = await runWarden(['hook', 'install', '--project', project, '--command', 'warden hook']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: ${join(project, '.claude/settings.json')} is not valid JSON`);
    expect(readFileSync(join(project, '.claude/settings.json'), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(join(project, '.warden/hook.json'))).toBe(false);
  });
});
