import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWarden } from './hook-suite.fixture.js';

/**
 * `warden hook install --agent cursor`: Cursor's hooks.json (https://cursor.com/docs/agent/hooks:
 * `version: 1`, each event's entries listed directly, `command`, `matcher`, `timeout`, `failClosed`),
 * merged with the user's own hooks, and the command shim beside it.
 */
describe('warden hook install --agent cursor', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'cursor-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { cursor: 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const hooksFile = () => join(project, '.cursor/hooks.json');
  const config = () => JSON.parse(readFileSync(hooksFile(), 'utf8')) as Record<string, unknown>;
  const shim = () => join(project, '.warden/hooks/cursor.sh');
  const install = (...extra: string[]) => runWarden(['hook', 'install', '--agent', 'cursor', '--project', project, '--credentials', credentials, ...extra]);
  const warden = (event: string, extra: Record<string, unknown> = {}) => ({ command: `sh ${JSON.stringify(shim())} ${event}`, ...extra, timeout: 60000 });
  const notShellOrMcp = { matcher: '^(?!Shell$|MCP:).*' };
  const held = (event: string, extra: Record<string, unknown> = {}) => ({ ...warden(event, extra), failClosed: true });
  const expected = (own: Record<string, unknown[]> = {}) => ({
    sessionStart: [...(own.sessionStart ?? []), warden('sessionStart')],
    beforeSubmitPrompt: [...(own.beforeSubmitPrompt ?? []), warden('beforeSubmitPrompt')],
    beforeShellExecution: [...(own.beforeShellExecution ?? []), held('beforeShellExecution')],
    beforeMCPExecution: [...(own.beforeMCPExecution ?? []), held('beforeMCPExecution')],
    preToolUse: [...(own.preToolUse ?? []), held('preToolUse', notShellOrMcp)],
    afterShellExecution: [...(own.afterShellExecution ?? []), warden('afterShellExecution')],
    afterMCPExecution: [...(own.afterMCPExecution ?? []), warden('afterMCPExecution')],
    postToolUse: [...(own.postToolUse ?? []), warden('postToolUse', notShellOrMcp)],
    postToolUseFailure: [...(own.postToolUseFailure ?? []), warden('postToolUseFailure', notShellOrMcp)],
    stop: [...(own.stop ?? []), warden('stop')],
    sessionEnd: [...(own.sessionEnd ?? []), warden('sessionEnd')],
  });

  it('writes hooks.json (the calls it holds fail closed), the command shim and the token in an empty project', async () => {
    const run = await install('--gateway-url', 'http://10.0.0.5:3108');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(
      `Cursor hooks (sessionStart, beforeSubmitPrompt, beforeShellExecution, beforeMCPExecution, preToolUse, afterShellExecution, afterMCPExecution, postToolUse, postToolUseFailure, stop, sessionEnd) → ${hooksFile()}`,
    );
    expect(run.stdout).toContain('restart Cursor');
    expect(config()).toEqual({ version: 1, hooks: expected() });
    const token = join(project, '.warden/hooks/cursor.token');
    expect(readFileSync(token, 'utf8')).toBe('cursor.S3cret_pw\n');
    expect(statSync(token).mode & 0o777).toBe(0o600);
    const script = readFileSync(shim(), 'utf8');
    expect(script).toContain("url='http://10.0.0.5:3108/hooks/cursor'");
    expect(script).toMatch(/beforeShellExecution\|beforeMCPExecution\|preToolUse\)\n\s*reason="Warden could not decide[^\n]*\n\s*echo "\$reason" >&2\n\s*exit 2/);
  });

  it('passes the answer settings it was given to the gateway through the shim', async () => {
    expect((await install('--decide', '--approvals', 'operator')).code).toBe(0);
    expect(readFileSync(shim(), 'utf8')).toContain("query='decide=true&approvals=operator&usage=transcript'");
    expect((await install()).code).toBe(0);
    expect(readFileSync(shim(), 'utf8')).toContain("query='usage=transcript'");
  });

  it('keeps the user’s own hooks and settings, installs once however often it is run, and takes only Warden’s out again', async () => {
    const own = {
      afterFileEdit: [{ command: './hooks/format.sh' }],
      beforeShellExecution: [{ command: './hooks/block-git.sh', timeout: 10 }],
      stop: [{ command: './hooks/audit.sh', loop_limit: 3 }],
    };
    mkdirSync(join(project, '.cursor'));
    const original = { $schema: 'https://unpkg.com/cursor-hooks@latest/schema/hooks.schema.json', version: 1, hooks: own };
    writeFileSync(hooksFile(), JSON.stringify(original));
    for (let i = 0; i < 2; i++) expect((await install()).code).toBe(0);
    expect(config()).toEqual({ ...original, hooks: { afterFileEdit: own.afterFileEdit, ...expected(own) } });
    const removed = await runWarden(['hook', 'uninstall', '--agent', 'cursor', '--project', project]);
    expect(removed).toEqual({ code: 0, stdout: `Warden's hooks removed from ${hooksFile()}\n`, stderr: '' });
    expect(config()).toEqual(original);
    expect(existsSync(shim())).toBe(false);
    expect(existsSync(join(project, '.warden/hooks/cursor.token'))).toBe(false);
  });

  it('removes the file it created alone, and changes nothing in a file it cannot read or whose version is not 1', async () => {
    await install();
    await runWarden(['hook', 'uninstall', '--agent', 'cursor', '--project', project]);
    expect(existsSync(hooksFile())).toBe(false);
    mkdirSync(join(project, '.cursor'), { recursive: true });
    for (const [text, why] of [
      ['{ "version": 1, "hooks": ', 'is not valid JSON'],
      ['{"version": 2, "hooks": {}}', 'has version 2, and Warden writes version 1 hooks'],
      ['{"version": 1, "hooks": {"stop": {"command": "x"}}}', '"hooks.stop" in'],
    ]) {
      writeFileSync(hooksFile(), text!);
      const run = await install();
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(why);
      expect(readFileSync(hooksFile(), 'utf8')).toBe(text);
      expect(existsSync(shim())).toBe(false);
    }
  });

  it('installs for the user in ~/.cursor/hooks.json with the shim in ~/.warden/hooks/', async () => {
    const run = await runWarden(['hook', 'install', '--agent', 'cursor', '--user', '--credentials', credentials], { env: { HOME: project } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(config().hooks).toEqual(expected());
  });
});
