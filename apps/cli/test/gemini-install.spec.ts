import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWarden } from './hook-suite.fixture.js';

/**
 * `warden hook install --agent gemini`: `hooks` in Gemini CLI's settings.json (https://geminicli.com/docs/hooks,
 * "Configuration schema": matcher groups, `name`, `type`, `command`, `timeout` in milliseconds,
 * `description`; google-gemini/gemini-cli packages/core/src/hooks/types.ts HOOKS_CONFIG_FIELDS for the
 * keys of `hooks` that are settings), merged with the user's own settings and hooks.
 */
describe('warden hook install --agent gemini', () => {
  let project: string;
  let credentials: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'gemini-install-'));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { gemini: 'S3cret_pw' } }));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  const settingsFile = () => join(project, '.gemini/settings.json');
  const settings = () => JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
  const shim = () => join(project, '.warden/hooks/gemini.sh');
  const install = (...extra: string[]) => runWarden(['hook', 'install', '--agent', 'gemini', '--project', project, '--credentials', credentials, ...extra]);
  const events = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'];
  const warden = (event: string) => ({
    ...(event.endsWith('Tool') ? { matcher: '*' } : {}),
    hooks: [{ name: `warden-${event}`, type: 'command', command: `sh ${JSON.stringify(shim())} ${event}`, timeout: 60000, description: 'Warden supervises the session' }],
  });
  const expected = (own: Record<string, unknown[]> = {}) => Object.fromEntries(events.map((event) => [event, [...(own[event] ?? []), warden(event)]]));

  it('writes the hooks into settings.json, the command shim and the token in an empty project', async () => {
    const run = await install('--gateway-url', 'http://10.0.0.5:3108');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`Gemini CLI hooks (${events.join(', ')}) → ${settingsFile()}`);
    expect(run.stdout).toContain('hooks system is on');
    expect(settings()).toEqual({ hooks: expected() });
    expect(readFileSync(join(project, '.warden/hooks/gemini.token'), 'utf8')).toBe('gemini.S3cret_pw\n');
    const script = readFileSync(shim(), 'utf8');
    expect(script).toContain("url='http://10.0.0.5:3108/hooks/gemini'");
    expect(script).toMatch(/BeforeTool\)\n\s*reason="Warden could not decide[^\n]*\n\s*echo "\$reason" >&2\n\s*exit 2/);
  });

  it('keeps the user’s settings, hooks and hook settings, installs once however often it is run, and takes only Warden’s out again', async () => {
    const own = { BeforeTool: [{ matcher: 'write_file|replace', hooks: [{ name: 'secret-scanner', type: 'command', command: './scan.sh', timeout: 5000 }] }] };
    const original = { model: { name: 'gemini-2.5-pro' }, tools: { enableHooks: true }, hooks: { disabled: ['auto-test'], notifications: true, ...own } };
    mkdirSync(join(project, '.gemini'));
    writeFileSync(settingsFile(), JSON.stringify(original));
    for (let i = 0; i < 2; i++) expect((await install()).code).toBe(0);
    expect(settings()).toEqual({ ...original, hooks: { disabled: ['auto-test'], notifications: true, ...expected(own) } });
    const removed = await runWarden(['hook', 'uninstall', '--agent', 'gemini', '--project', project]);
    expect(removed).toEqual({ code: 0, stdout: `Warden's hooks removed from ${settingsFile()}\n`, stderr: '' });
    expect(settings()).toEqual(original);
    expect(existsSync(shim())).toBe(false);
  });

  it('removes the file it created alone, and changes nothing in a file it cannot read', async () => {
    await install();
    await runWarden(['hook', 'uninstall', '--agent', 'gemini', '--project', project]);
    expect(existsSync(settingsFile())).toBe(false);
    mkdirSync(join(project, '.gemini'), { recursive: true });
    for (const [text, why] of [
      ['{ "hooks": ', 'is not valid JSON'],
      ['{"hooks": ["BeforeTool"]}', '"hooks" in'],
    ]) {
      writeFileSync(settingsFile(), text!);
      const run = await install();
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(why);
      expect(readFileSync(settingsFile(), 'utf8')).toBe(text);
      expect(existsSync(shim())).toBe(false);
    }
  });

  it('installs for the user in ~/.gemini/settings.json', async () => {
    const run = await runWarden(['hook', 'install', '--agent', 'gemini', '--user', '--credentials', credentials], { env: { HOME: project } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(settings()).toEqual({ hooks: expected() });
  });
});
