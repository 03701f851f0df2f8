import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
    const run = await runWarden(['hook', 'install', '--project', project, '--agent-id', 'my-agent', '--credentials', credentials, '--gateway-url', 'http://10.0.0.5:3108/', '--decide']);
    expect(run).toEqual({
      code: 0,
      stdout:
        `Claude Code HTTP hooks (PreToolUse, PostToolUse, PostToolUseFailure, PermissionDenied, SessionStart, UserPromptSubmit, Stop, SubagentStop, SessionEnd) → ${join(project, '.claude/settings.json')}\n` +
        `Agent my-agent's token (WARDEN_AGENT_TOKEN) → ${join(project, '.claude/settings.local.json')}\n` +
        "Spend: from the agent's telemetry (logs and metrics) to the gateway\n" +
        `Claude Code telemetry settings (env) → ${join(project, '.claude/settings.local.json')}\n`,
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
        PermissionDenied: tool(false),
        SessionStart: lifecycle(false),
        UserPromptSubmit: lifecycle(true),
        Stop: lifecycle(false),
        SubagentStop: lifecycle(false),
        SessionEnd: lifecycle(false),
      },
    });
    const local = join(project, '.claude/settings.local.json');
    // Beside the token, the telemetry env (telemetry-install.spec.ts has it).
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ env: expect.objectContaining({ FOO: 'bar', WARDEN_AGENT_TOKEN: 'my-agent.S3cret_pw' }) });
    expect(statSync(local).mode & 0o777).toBe(0o600);
    expect(existsSync(join(project, '.warden/hook.json'))).toBe(false);

    // Installing again replaces Warden's entries instead of adding them twice.
    expect((await runWarden(['hook', 'install', '--project', project, '--agent-id', 'my-agent', '--credentials', credentials])).code).toBe(0);
    expect(settings().hooks.PostToolUse).toEqual([lint, { matcher: '*', hooks: [http('http://127.0.0.1:3108/hooks/claude-code', false)] }]);
    expect(settings().hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [http('http://127.0.0.1:3108/hooks/claude-code', true)] }]);
  });

  it('keeps the command hook for Claude Code without http hooks, and replaces an http install with it', async () => {
    await runWarden(['hook', 'install', '--project', project, '--agent-id', 'my-agent', '--credentials', credentials]);
    const run = await runWarden(['hook', 'install', '--project', project, '--transport', 'command', '--agent-id', 'my-agent', '--nats-url', 'nats://10.0.0.5:4222', '--credentials', credentials, '--command', 'warden hook', '--approvals', 'operator']);
    expect(run.stdout).toBe(
      `Claude Code hooks (PreToolUse, PostToolUse, PostToolUseFailure, PermissionDenied, UserPromptSubmit, SessionEnd) → ${join(project, '.claude/settings.json')}\nWarden hook settings → ${join(project, '.warden/hook.json')}\n` +
        "Spend: from the agent's telemetry (logs and metrics) to the gateway\n" +
        `Claude Code telemetry settings (env) → ${join(project, '.claude/settings.local.json')}\n`,
    );
    const command = (blocks: boolean) => ({ type: 'command', command: 'warden hook', timeout: 60, ...(blocks ? { onFailure: 'block' } : {}) });
    expect(settings().hooks).toEqual({
      PreToolUse: [{ matcher: '*', hooks: [command(true)] }],
      PostToolUse: [{ matcher: '*', hooks: [command(false)] }],
      PostToolUseFailure: [{ matcher: '*', hooks: [command(false)] }],
      PermissionDenied: [{ matcher: '*', hooks: [command(false)] }],
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

  it('takes only Warden’s entries out again, and the token from the local settings', async () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude/settings.json'), JSON.stringify({ model: 'opus', hooks: { PostToolUse: [lint] } }));
    writeFileSync(join(project, '.claude/settings.local.json'), JSON.stringify({ env: { FOO: 'bar' } }));
    expect((await runWarden(['hook', 'install', '--project', project, '--agent-id', 'my-agent', '--credentials', credentials])).code).toBe(0);
    const run = await runWarden(['hook', 'uninstall', '--project', project]);
    expect(run).toEqual({ code: 0, stdout: `Warden's hooks removed from ${join(project, '.claude/settings.json')}\nWarden's telemetry settings removed from Claude Code's env\n`, stderr: '' });
    expect(settings()).toEqual({ model: 'opus', hooks: { PostToolUse: [lint] } });
    expect(JSON.parse(readFileSync(join(project, '.claude/settings.local.json'), 'utf8'))).toEqual({ env: { FOO: 'bar' } });
  });

  it('refuses an agent it has no adapter for, naming those it has', async () => {
    const run = await runWarden(['hook', 'install', '--project', project, '--agent', 'my-agent']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--agent must be one of claude-code, codex');
    expect(run.stderr).toContain("Warden's agent id is --agent-id");
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

/**
 * `warden hook install --agent codex`: Codex's hooks.json (https://developers.openai.com/codex/hooks,
 * "Where hooks live" and the hooks.json example: events under "hooks", matcher groups, command handlers
 * with timeout and statusMessage), merged with the user's own hooks, and the command shim beside it.
 */
describe('warden hook install --agent codex', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'codex-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { codex: 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const hooksFile = () => join(project, '.codex/hooks.json');
  const config = () => JSON.parse(readFileSync(hooksFile(), 'utf8')) as Record<string, unknown>;
  const shim = () => join(project, '.warden/hooks/codex.sh');
  const warden = (event: string) => ({
    type: 'command',
    command: `sh ${JSON.stringify(shim())} ${event}`,
    timeout: 60,
    ...(event === 'PreToolUse' ? { statusMessage: 'Warden is reviewing the action' } : {}),
  });
  const expected = (extra: Record<string, unknown[]> = {}) => ({
    PreToolUse: [{ matcher: '.*', hooks: [warden('PreToolUse')] }],
    PostToolUse: [...(extra.PostToolUse ?? []), { matcher: '.*', hooks: [warden('PostToolUse')] }],
    UserPromptSubmit: [{ hooks: [warden('UserPromptSubmit')] }],
    SessionStart: [{ hooks: [warden('SessionStart')] }],
    Stop: [{ hooks: [warden('Stop')] }],
    SessionEnd: [{ hooks: [warden('SessionEnd')] }],
  });

  it('writes hooks.json, the command shim and the token (mode 600) in an empty project, and tells what Codex still needs', async () => {
    const run = await runWarden(['hook', 'install', '--agent', 'codex', '--project', project, '--credentials', credentials, '--gateway-url', 'http://10.0.0.5:3108']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Codex hooks (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SessionEnd) → ${hooksFile()}`);
    expect(run.stdout).toContain('review Warden\'s hooks with /hooks');
    expect(config()).toEqual({ hooks: expected() });
    const token = join(project, '.warden/hooks/codex.token');
    expect(readFileSync(token, 'utf8')).toBe('codex.S3cret_pw\n');
    expect(statSync(token).mode & 0o777).toBe(0o600);
    expect(readFileSync(shim(), 'utf8')).toContain("url='http://10.0.0.5:3108/hooks/codex'");
    expect(readFileSync(join(project, '.warden/.gitignore'), 'utf8')).toContain('*');
  });

  it('keeps the user’s own hooks and settings, installs once however often it is run, and takes only Warden’s out again', async () => {
    const own = { matcher: 'apply_patch', hooks: [{ type: 'command', command: 'npx prettier --check .', timeout: 30 }] };
    mkdirSync(join(project, '.codex'));
    writeFileSync(hooksFile(), JSON.stringify({ hooks: { PostToolUse: [own] } }));
    for (let i = 0; i < 2; i++) expect((await runWarden(['hook', 'install', '--agent', 'codex', '--project', project, '--credentials', credentials])).code).toBe(0);
    expect(config()).toEqual({ hooks: expected({ PostToolUse: [own] }) });
    const removed = await runWarden(['hook', 'uninstall', '--agent', 'codex', '--project', project]);
    expect(removed).toEqual({ code: 0, stdout: `Warden's [otel] removed from ${join(project, '.codex/config.toml')}\nWarden's hooks removed from ${hooksFile()}\n`, stderr: '' });
    expect(config()).toEqual({ hooks: { PostToolUse: [own] } });
    expect(existsSync(shim())).toBe(false);
    expect(existsSync(join(project, '.warden/hooks/codex.token'))).toBe(false);
  });

  it('removes the file it created alone, and changes nothing in a file it cannot read', async () => {
    await runWarden(['hook', 'install', '--agent', 'codex', '--project', project, '--credentials', credentials]);
    await runWarden(['hook', 'uninstall', '--agent', 'codex', '--project', project]);
    expect(existsSync(hooksFile())).toBe(false);
    mkdirSync(join(project, '.codex'), { recursive: true });
    writeFileSync(hooksFile(), '{ "hooks": ');
    const run = await runWarden(['hook', 'install', '--agent', 'codex', '--project', project, '--credentials', credentials]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${hooksFile()} is not valid JSON`);
    expect(readFileSync(hooksFile(), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(shim())).toBe(false);
  });
});

/**
 * `warden hook install --agent antigravity`: agy's hooks.json as measured on agy 1.1.x (stbenjam/skillsaw
 * docs/rules/antigravity-hooks-valid.md: top-level named hook groups; PreToolUse/PostToolUse take matcher
 * groups, the other events a flat list of command handlers with whole-second timeouts), Warden's being the
 * group "warden", beside the user's own.
 */
describe('warden hook install --agent antigravity', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'agy-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { antigravity: 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const hooksFile = () => join(project, '.agents/hooks.json');
  const config = () => JSON.parse(readFileSync(hooksFile(), 'utf8')) as Record<string, unknown>;
  const shim = () => join(project, '.warden/hooks/antigravity.sh');
  // agy runs the command without a shell: unquoted, the event as its argument.
  const handler = (event: string) => ({ type: 'command', command: `sh ${shim()} ${event}`, timeout: 60 });
  const warden = () => ({
    PreToolUse: [{ matcher: '*', hooks: [handler('PreToolUse')] }],
    PostToolUse: [{ matcher: '*', hooks: [handler('PostToolUse')] }],
    PreInvocation: [handler('PreInvocation')],
  });
  const install = (...extra: string[]) => runWarden(['hook', 'install', '--agent', 'antigravity', '--project', project, '--credentials', credentials, ...extra]);

  it('writes hooks.json, the command shim and the token (mode 600) in an empty project, and says that approvals go to an operator', async () => {
    const run = await install('--gateway-url', 'http://10.0.0.5:3108', '--approvals', 'terminal');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Antigravity hooks (PreToolUse, PostToolUse, PreInvocation) → ${hooksFile()}`);
    expect(run.stdout).toContain('install with --approvals terminal to have agy ask you (force_ask)');
    expect(config()).toEqual({ warden: warden() });
    const token = join(project, '.warden/hooks/antigravity.token');
    expect(readFileSync(token, 'utf8')).toBe('antigravity.S3cret_pw\n');
    expect(statSync(token).mode & 0o777).toBe(0o600);
    const script = readFileSync(shim(), 'utf8');
    expect(script).toContain("url='http://10.0.0.5:3108/hooks/antigravity'");
    expect(script).toContain("query='approvals=terminal&usage=transcript'");
  });

  it('keeps the user’s own hook groups, installs once however often it is run, and takes only Warden’s out again', async () => {
    const own = { 'safe-chains': { PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: '/usr/local/bin/safe-chains agy', timeout: 10 }] }] } };
    mkdirSync(join(project, '.agents'));
    writeFileSync(hooksFile(), JSON.stringify(own));
    for (let i = 0; i < 2; i++) expect((await install()).code).toBe(0);
    expect(config()).toEqual({ ...own, warden: warden() });
    const removed = await runWarden(['hook', 'uninstall', '--agent', 'antigravity', '--project', project]);
    expect(removed).toEqual({ code: 0, stdout: `Warden's hooks removed from ${hooksFile()}\n`, stderr: '' });
    expect(config()).toEqual(own);
    expect(existsSync(shim())).toBe(false);
    expect(existsSync(join(project, '.warden/hooks/antigravity.token'))).toBe(false);
  });

  it('removes the file it created alone, and changes nothing in a file it cannot read', async () => {
    await install();
    await runWarden(['hook', 'uninstall', '--agent', 'antigravity', '--project', project]);
    expect(existsSync(hooksFile())).toBe(false);
    writeFileSync(hooksFile(), '{ "warden": ');
    const run = await install();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${hooksFile()} is not valid JSON`);
    expect(readFileSync(hooksFile(), 'utf8')).toBe('{ "warden": ');
    expect(existsSync(shim())).toBe(false);
  });

  it('refuses a project whose path has spaces, which agy would split, changing nothing', async () => {
    const spaced = join(project, 'my project');
    mkdirSync(spaced);
    const run = await runWarden(['hook', 'install', '--agent', 'antigravity', '--project', spaced, '--credentials', credentials]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('agy runs hook commands without a shell');
    expect(existsSync(join(spaced, '.agents'))).toBe(false);
    expect(existsSync(join(spaced, '.warden'))).toBe(false);
  });

  it('writes the user’s ~/.gemini/config/hooks.json with --user', async () => {
    const run = await runWarden(['hook', 'install', '--agent', 'antigravity', '--user', '--credentials', credentials], { env: { HOME: project } });
    expect(run.code).toBe(0);
    const userFile = join(project, '.gemini/config/hooks.json');
    expect(JSON.parse(readFileSync(userFile, 'utf8'))).toMatchObject({ warden: { PreToolUse: [{ matcher: '*', hooks: [{ command: `sh ${shim()} PreToolUse` }] }] } });
  });
});

/**
 * `warden hook install --agent factory`: Droid's hooks (Factory-AI/factory docs/reference/hooks-reference.mdx,
 * "Configuration": `{"hooks": {<Event>: [{matcher, hooks: [{type: "command", command, timeout}]}]}}` in
 * .factory/hooks.json, or, when there is none, the `hooks` of .factory/settings.json).
 */
describe('warden hook install --agent factory', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'droid-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { factory: 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const hooksFile = () => join(project, '.factory/hooks.json');
  const settingsFile = () => join(project, '.factory/settings.json');
  const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const shim = () => join(project, '.warden/hooks/factory.sh');
  const warden = (event: string) => ({ type: 'command', command: `sh ${JSON.stringify(shim())} ${event}`, timeout: 60 });
  const expected = (extra: Record<string, unknown[]> = {}) => ({
    PreToolUse: [{ matcher: '*', hooks: [warden('PreToolUse')] }],
    PostToolUse: [...(extra.PostToolUse ?? []), { matcher: '*', hooks: [warden('PostToolUse')] }],
    UserPromptSubmit: [{ hooks: [warden('UserPromptSubmit')] }],
    SessionStart: [{ hooks: [warden('SessionStart')] }],
    Stop: [{ hooks: [warden('Stop')] }],
    SessionEnd: [{ hooks: [warden('SessionEnd')] }],
  });
  const install = (...extra: string[]) => runWarden(['hook', 'install', '--agent', 'factory', '--project', project, '--credentials', credentials, ...extra]);
  const uninstall = () => runWarden(['hook', 'uninstall', '--agent', 'factory', '--project', project]);
  const lint = { matcher: 'Edit|Create', hooks: [{ type: 'command', command: 'npm run lint --silent', timeout: 30 }] };

  it('writes hooks.json, the command shim and the token (mode 600) in an empty project', async () => {
    const run = await install('--gateway-url', 'http://10.0.0.5:3108', '--decide');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Factory Droid hooks (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SessionEnd) → ${hooksFile()}`);
    expect(json(hooksFile())).toEqual({ hooks: expected() });
    const token = join(project, '.warden/hooks/factory.token');
    expect(readFileSync(token, 'utf8')).toBe('factory.S3cret_pw\n');
    expect(statSync(token).mode & 0o777).toBe(0o600);
    expect(readFileSync(shim(), 'utf8')).toContain("query='decide=true&usage=transcript'");
  });

  it('keeps the user’s own hooks, installs once however often it is run, and takes only Warden’s out again', async () => {
    mkdirSync(join(project, '.factory'));
    writeFileSync(hooksFile(), JSON.stringify({ hooks: { PostToolUse: [lint] } }));
    for (let i = 0; i < 2; i++) expect((await install()).code).toBe(0);
    expect(json(hooksFile())).toEqual({ hooks: expected({ PostToolUse: [lint] }) });
    expect(await uninstall()).toEqual({ code: 0, stdout: `Warden's hooks removed from ${hooksFile()}\n`, stderr: '' });
    expect(json(hooksFile())).toEqual({ hooks: { PostToolUse: [lint] } });
    expect(existsSync(shim())).toBe(false);
  });

  it('joins the user’s hooks in settings.json when there is no hooks.json (Droid then reads only settings.json), keeping the settings', async () => {
    mkdirSync(join(project, '.factory'));
    writeFileSync(settingsFile(), JSON.stringify({ model: 'claude-sonnet-5', autonomyLevel: 'auto-medium', hooks: { PostToolUse: [lint] } }));
    expect((await install()).code).toBe(0);
    expect(existsSync(hooksFile())).toBe(false);
    expect(json(settingsFile())).toEqual({ model: 'claude-sonnet-5', autonomyLevel: 'auto-medium', hooks: expected({ PostToolUse: [lint] }) });
    expect((await uninstall()).code).toBe(0);
    expect(json(settingsFile())).toEqual({ model: 'claude-sonnet-5', autonomyLevel: 'auto-medium', hooks: { PostToolUse: [lint] } });
  });

  it('removes the hooks.json it created alone, and changes nothing in a file it cannot read', async () => {
    await install();
    await uninstall();
    expect(existsSync(hooksFile())).toBe(false);
    writeFileSync(hooksFile(), '{ "hooks": ');
    const run = await install();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${hooksFile()} is not valid JSON`);
    expect(readFileSync(hooksFile(), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(shim())).toBe(false);
  });

  it('writes the user’s ~/.factory/hooks.json with --user', async () => {
    const run = await runWarden(['hook', 'install', '--agent', 'factory', '--user', '--credentials', credentials], { env: { HOME: project } });
    expect(run.code).toBe(0);
    expect(json(hooksFile())).toEqual({ hooks: expected() });
  });
});

/**
 * `warden hook install --agent opencode`: OpenCode 2.x has no hook configuration, only plugins it loads from
 * .opencode/plugins/ (https://opencode.ai/v2/docs/build/plugins/migrate-v1): Warden's plugin is one file of
 * its own there, beside the user's plugins, and the token in .warden/hooks/.
 */
describe('warden hook install --agent opencode', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'opencode-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { opencode: 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const plugin = () => join(project, '.opencode/plugins/warden.js');
  const token = () => join(project, '.warden/hooks/opencode.token');
  const install = (...extra: string[]) => runWarden(['hook', 'install', '--agent', 'opencode', '--project', project, '--credentials', credentials, ...extra]);
  const uninstall = () => runWarden(['hook', 'uninstall', '--agent', 'opencode', '--project', project]);
  const own = "export default { id: 'my-plugin', async setup(ctx) {} };\n";
  const config = JSON.stringify({ $schema: 'https://opencode.ai/config.json', plugins: ['opencode-plugin-otel@1.2.0'] });

  it('writes the plugin, with the gateway’s URL and the token file in it, and the token (mode 600), no command shim', async () => {
    const run = await install('--gateway-url', 'http://10.0.0.5:3108', '--approvals', 'terminal');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`OpenCode hooks (tool.execute.before, tool.execute.after, permission.evaluate, session.prompt, session.context, session.created, session.deleted) → ${plugin()}`);
    expect(run.stdout).toContain(`Agent opencode's token → ${token()}`);
    expect(run.stdout).toContain('restart it');
    const text = readFileSync(plugin(), 'utf8');
    expect(text.startsWith("// Warden's plugin for OpenCode 2.x (@warden/opencode-plugin)")).toBe(true);
    expect(text).toContain(`const WARDEN = ${JSON.stringify({ url: 'http://10.0.0.5:3108/hooks/opencode?approvals=terminal&usage=transcript', tokenFile: token(), timeoutMs: 55000 })};`);
    expect(readFileSync(token(), 'utf8')).toBe('opencode.S3cret_pw\n');
    expect(statSync(token()).mode & 0o777).toBe(0o600);
    expect(existsSync(join(project, '.warden/hooks/opencode.sh'))).toBe(false);
    expect(readFileSync(join(project, '.warden/.gitignore'), 'utf8')).toContain('*');
  });

  it('keeps the user’s own plugins and opencode.json, installs one plugin however often it is run, and takes only Warden’s out again', async () => {
    mkdirSync(join(project, '.opencode/plugins'), { recursive: true });
    writeFileSync(join(project, '.opencode/plugins/my-plugin.js'), own);
    writeFileSync(join(project, 'opencode.json'), config);
    expect((await install('--gateway-url', 'http://10.0.0.5:3108')).code).toBe(0);
    expect((await install()).code).toBe(0);
    expect(readdirSync(join(project, '.opencode/plugins')).sort()).toEqual(['my-plugin.js', 'warden.js']);
    expect(readFileSync(plugin(), 'utf8')).toContain('"url":"http://127.0.0.1:3108/hooks/opencode?usage=transcript"');
    expect(await uninstall()).toEqual({ code: 0, stdout: `Warden's hooks removed from ${plugin()}\n`, stderr: '' });
    expect(readdirSync(join(project, '.opencode/plugins'))).toEqual(['my-plugin.js']);
    expect(readFileSync(join(project, '.opencode/plugins/my-plugin.js'), 'utf8')).toBe(own);
    expect(readFileSync(join(project, 'opencode.json'), 'utf8')).toBe(config);
    expect(existsSync(token())).toBe(false);
  });

  it('changes nothing where a plugin of the user’s has Warden’s file name', async () => {
    mkdirSync(join(project, '.opencode/plugins'), { recursive: true });
    writeFileSync(plugin(), own);
    const run = await install();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${plugin()} is not Warden's plugin`);
    expect(readFileSync(plugin(), 'utf8')).toBe(own);
    expect(existsSync(token())).toBe(false);
    const removed = await uninstall();
    expect(removed.code).toBe(1);
    expect(readFileSync(plugin(), 'utf8')).toBe(own);
  });

  it('writes the user’s ~/.config/opencode/plugins/warden.js with --user', async () => {
    const run = await runWarden(['hook', 'install', '--agent', 'opencode', '--user', '--credentials', credentials], { env: { HOME: project, XDG_CONFIG_HOME: '' } });
    expect(run.code).toBe(0);
    expect(readFileSync(join(project, '.config/opencode/plugins/warden.js'), 'utf8')).toContain(`"tokenFile":${JSON.stringify(token())}`);
  });
});
