import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWarden } from './hook-suite.fixture.js';

/**
 * `warden hook install --agent copilot`: Copilot CLI loads every `.github/hooks/*.json` (and
 * `~/.copilot/hooks/*.json`) and combines them (GitHub's hooks reference, "Hooks locations", "Command
 * hooks": `version: 1`, each event's entries listed directly, `type`, `bash`, `timeoutSec`), so Warden's
 * hooks are a file of their own beside the user's.
 */
describe('warden hook install --agent copilot', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'copilot-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { copilot: 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const hooksFile = () => join(project, '.github/hooks/warden.json');
  const config = (path = hooksFile()) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const shim = () => join(project, '.warden/hooks/copilot.sh');
  const install = (...extra: string[]) => runWarden(['hook', 'install', '--agent', 'copilot', '--project', project, '--credentials', credentials, ...extra]);
  const events = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop', 'sessionEnd'];
  const expected = (own: Record<string, unknown[]> = {}) =>
    Object.fromEntries(events.map((event) => [event, [...(own[event] ?? []), { type: 'command', bash: `sh ${JSON.stringify(shim())} ${event}`, timeoutSec: 60 }]]));
  const lint = { version: 1, hooks: { postToolUse: [{ type: 'command', bash: './scripts/lint.sh', matcher: 'edit|create' }] } };

  it('writes its own warden.json beside the user’s hook files, the command shim and the token, and tells what Copilot still needs', async () => {
    mkdirSync(join(project, '.github/hooks'), { recursive: true });
    writeFileSync(join(project, '.github/hooks/lint.json'), JSON.stringify(lint));
    const run = await install('--gateway-url', 'http://10.0.0.5:3108', '--approvals', 'operator');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`Copilot CLI hooks (${events.join(', ')}) → ${hooksFile()}`);
    expect(run.stdout).toContain('only in a folder you trust');
    expect(config()).toEqual({ version: 1, hooks: expected() });
    expect(config(join(project, '.github/hooks/lint.json'))).toEqual(lint);
    expect(readFileSync(join(project, '.warden/hooks/copilot.token'), 'utf8')).toBe('copilot.S3cret_pw\n');
    const script = readFileSync(shim(), 'utf8');
    expect(script).toContain("url='http://10.0.0.5:3108/hooks/copilot'");
    expect(script).toContain("query='approvals=operator&usage=transcript'");
    expect(script).toMatch(/preToolUse\)\n\s*reason="Warden could not decide[^\n]*\n\s*echo "\$reason" >&2\n\s*exit 2/);
  });

  it('keeps entries the user put in warden.json, installs once however often it is run, and takes only Warden’s out again', async () => {
    const own = { preToolUse: [{ type: 'command', bash: './scripts/guard.sh', timeoutSec: 5 }] };
    mkdirSync(join(project, '.github/hooks'), { recursive: true });
    writeFileSync(hooksFile(), JSON.stringify({ version: 1, disableAllHooks: false, hooks: own }));
    for (let i = 0; i < 2; i++) expect((await install()).code).toBe(0);
    expect(config()).toEqual({ version: 1, disableAllHooks: false, hooks: expected(own) });
    const removed = await runWarden(['hook', 'uninstall', '--agent', 'copilot', '--project', project]);
    expect(removed).toEqual({ code: 0, stdout: `Warden's hooks removed from ${hooksFile()}\n`, stderr: '' });
    expect(config()).toEqual({ version: 1, disableAllHooks: false, hooks: own });
    expect(existsSync(shim())).toBe(false);
  });

  it('removes the file it created alone, and changes nothing in a file it cannot read', async () => {
    await install();
    await runWarden(['hook', 'uninstall', '--agent', 'copilot', '--project', project]);
    expect(existsSync(hooksFile())).toBe(false);
    for (const [text, why] of [
      ['{ "version": 1, ', 'is not valid JSON'],
      ['{"version": 2, "hooks": {}}', 'has version 2'],
    ]) {
      writeFileSync(hooksFile(), text!);
      const run = await install();
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(why);
      expect(readFileSync(hooksFile(), 'utf8')).toBe(text);
      expect(existsSync(shim())).toBe(false);
    }
  });

  it('installs for the user in $COPILOT_HOME/hooks/warden.json', async () => {
    const home = join(project, 'copilot-home');
    const run = await runWarden(['hook', 'install', '--agent', 'copilot', '--user', '--credentials', credentials], { env: { HOME: project, COPILOT_HOME: home } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(config(join(home, 'hooks/warden.json'))).toEqual({ version: 1, hooks: expected() });
  });
});
