import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { runWarden } from './hook-suite.fixture.js';

/** `warden hook install`: Warden's hooks merged into a project's .claude/settings.json, never clobbering it. */
describe('warden hook install', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'hook-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ service: { user: 'warden', password: 'x' }, operator: { user: 'operator', password: 'y' }, agents: { 'my-agent': 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const settings = () => JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8')) as { hooks: Record<string, unknown[]> } & Record<string, unknown>;
  const lint = { matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'npm run lint --silent' }] };

  function http(url: string, blocks: boolean) {
    return {
      type: 'http',
      url,
      headers: { Authorization: 'Bearer $WARDEN_AGENT_TOKEN', 'X-Claude-Code-Entrypoint': '$CLAUDE_CODE_ENTRYPOINT' },
      allowedEnvVars: ['WARDEN_AGENT_TOKEN', 'CLAUDE_CODE_ENTRYPOINT'],
      timeout: 60,
      ...(blocks ? { onFailure: 'block' } : {}),
    };
  }

  it('writes Claude Code http hooks that block when Warden fails, and the agent’s token beside them, keeping everything else', async () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(
      join(project, '.claude/settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] }, model: 'opus', hooks: { PostToolUse: [lint], Notification: [{ hooks: [{ type: 'command', command: 'say done' }] }] } }),
    );
    writeFileSync(join(project, '.claude/settings.local.json'), JSON.stringify({ env: { FOO: 'bar' } }));
    const run = await runWarden(['hook', 'install', '--project', project, '--agent', 'my-agent', '--credentials', credentials, '--gateway-url', 'http://10.0.0.5:3108/', '--decide']);
    expect(run).toEqual({
      code: 0,
      stdout:
        `Claude Code HTTP hooks (PreToolUse, PostToolUse, PostToolUseFailure, SessionStart, UserPromptSubmit, Stop, SubagentStop, SessionEnd) → ${join(project, '.claude/settings.json')}\n` +
        `Agent my-agent's token (WARDEN_AGENT_TOKEN) → ${join(project, '.claude/settings.local.json')}\n`,
      stderr: '',
    });
    const url = 'http://10.0.0.5:3108/hooks/claude-code?decide=true';
    const tool = (blocks: boolean) => [{ matcher: '*', hooks: [http(url, blocks)] }];
    const lifecycle = (blocks: boolean) => [{ hooks: [http(url, blocks)] }];
    expect(settings()).toEqual({
      permissions: { allow: ['Bash(npm test:*)'] },
      model: 'opus',
      hooks: {
        PostToolUse: [lint, ...tool(false)],
        Notification: [{ hooks: [{ type: 'command', command: 'say done' }] }],
        PreToolUse: tool(true),
        PostToolUseFailure: tool(false),
        SessionStart: lifecycle(false),
        UserPromptSubmit: lifecycle(true),
        Stop: lifecycle(false),
        SubagentStop: lifecycle(false),
        SessionEnd: lifecycle(false),
      },
    });
    const local = join(project, '.claude/settings.local.json');
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ env: { FOO: 'bar', WARDEN_AGENT_TOKEN: 'my-agent.S3cret_pw' } });
    expect(statSync(local).mode & 0o777).toBe(0o600);
    expect(existsSync(join(project, '.warden/hook.json'))).toBe(false);

    // Installing again replaces Warden's entries instead of adding them twice.
    expect((await runWarden(['hook', 'install', '--project', project, '--agent', 'my-agent', '--credentials', credentials])).code).toBe(0);
    expect(settings().hooks.PostToolUse).toEqual([lint, { matcher: '*', hooks: [http('http://127.0.0.1:3108/hooks/claude-code', false)] }]);
    expect(settings().hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [http('http://127.0.0.1:3108/hooks/claude-code', true)] }]);
  });

  it('keeps the command hook for Claude Code without http hooks, and replaces an http install with it', async () => {
    await runWarden(['hook', 'install', '--project', project, '--agent', 'my-agent', '--credentials', credentials]);
    const run = await runWarden(['hook', 'install', '--project', project, '--transport', 'command', '--agent', 'my-agent', '--nats-url', 'nats://10.0.0.5:4222', '--credentials', credentials, '--command', 'warden hook', '--approvals', 'operator']);
    expect(run.stdout).toBe(
      `Claude Code hooks (PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, SessionEnd) → ${join(project, '.claude/settings.json')}\nWarden hook settings → ${join(project, '.warden/hook.json')}\n`,
    );
    const command = (blocks: boolean) => ({ type: 'command', command: 'warden hook', timeout: 60, ...(blocks ? { onFailure: 'block' } : {}) });
    expect(settings().hooks).toEqual({
      PreToolUse: [{ matcher: '*', hooks: [command(true)] }],
      PostToolUse: [{ matcher: '*', hooks: [command(false)] }],
      PostToolUseFailure: [{ matcher: '*', hooks: [command(false)] }],
      UserPromptSubmit: [{ hooks: [command(true)] }],
      SessionEnd: [{ hooks: [command(false)] }],
    });
    expect(JSON.parse(readFileSync(join(project, '.warden/hook.json'), 'utf8'))).toEqual({
      servers: 'nats://10.0.0.5:4222',
      agentId: 'my-agent',
      credentialsFile: credentials,
      deadlineMs: 45000,
      failOpenTools: [],
      approvals: 'operator',
    });
    const pre = await runWarden(['hook', 'install', '--project', project, '--transport', 'command']);
    expect(pre.stdout).toContain(`Kept the existing ${join(project, '.warden/hook.json')}`);
    expect(settings().hooks.PreToolUse).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(join(WORKSPACE_ROOT, 'apps/cli/bin/warden-hook.cjs'))}`, timeout: 60, onFailure: 'block' }] },
    ]);
  });

  it('prints the agent’s token', async () => {
    expect(await runWarden(['hook', 'token', '--agent', 'my-agent', '--credentials', credentials])).toEqual({ code: 0, stdout: 'my-agent.S3cret_pw\n', stderr: '' });
    const missing = await runWarden(['hook', 'token', '--agent', 'nobody', '--credentials', credentials]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no token for agent nobody');
  });

  it('changes nothing when the settings file is not valid JSON', async () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude/settings.json'), '{ "hooks": ');
    const run = await runWarden(['hook', 'install', '--project', project, '--transport', 'command', '--command', 'warden hook']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: ${join(project, '.claude/settings.json')} is not valid JSON`);
    expect(readFileSync(join(project, '.claude/settings.json'), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(join(project, '.warden/hook.json'))).toBe(false);
  });
});
