import { parseAction, type ParsedAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { isConfigFile, isEnvTemplateBeside, isSecretsEnvFile } from './config-files.js';
import { FileSystemValidator } from './filesystem-validator.js';
import type { ValidationContext } from './tool-validator.js';

const CWD = '/work/app';
const bash = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, CWD);
const write = (file_path: string) => parseAction({ kind: 'tool_use', tool: 'Write', input: { file_path, content: 'X=1\n' } }, CWD);
const edit = (file_path: string) => parseAction({ kind: 'tool_use', tool: 'Edit', input: { file_path, old_string: 'a', new_string: 'b' } }, CWD);
const read = (file_path: string) => parseAction({ kind: 'tool_use', tool: 'Read', input: { file_path } }, CWD);

function sessionOf(...steps: [ParsedAction, string?][]): ValidationContext {
  const session = new ReviewSession('agent-1', 's1', 1_000);
  steps.forEach(([action, error], i) => {
    session.recordAction(action, `a${i}`, 'allow', 1_000 + i);
    session.recordOutcome(error ? { actionId: `a${i}`, status: 'error', error: { message: error } } : { actionId: `a${i}`, status: 'success' }, 1_000 + i);
  });
  return { session, suspectEndpoints: ['localhost:3000'] };
}

describe('config files', () => {
  it.each([
    '/work/app/.env',
    '/work/app/.env.local',
    '/work/app/deploy/production.env',
    '/work/app/.envrc',
    '/work/app/config.json',
    '/work/app/settings.py',
    '/work/app/playwright.config.ts',
    '/work/app/vite.config.mjs',
    '/work/app/nginx.conf',
    '/work/app/setup.cfg',
    '/work/app/php.ini',
    '/work/app/.npmrc',
    '/work/app/docker-compose.yml',
    '/work/app/docker-compose.override.yaml',
    '/work/app/compose.yaml',
    '/work/app/config/database.yml',
    '/work/app/config/default.toml',
    '~/.config/gh/hosts.yml',
    '~/.ssh/config',
    '/work/app/.git/config',
    '~/.aws/credentials',
    '/etc/hosts',
  ])('%s is configuration', (path) => expect(isConfigFile(path)).toBe(true));

  it.each([
    '/work/app/src/environment.ts',
    '/work/app/src/environments/environment.prod.ts',
    '/work/app/src/config/index.ts',
    '/work/app/tsconfig.json',
    '/work/app/package.json',
    '/work/app/env/lib/python3.12/site.py',
    '/work/app/src/envelope.ts',
    '/work/app/config',
    '/work/app/README.md',
  ])('%s is not', (path) => expect(isConfigFile(path)).toBe(false));

  it('tells env files with values from templates', () => {
    expect(isSecretsEnvFile('/work/app/.env.production')).toBe(true);
    expect(isSecretsEnvFile('/work/app/.env.example')).toBe(false);
    expect(isConfigFile('/work/app/.env.example')).toBe(true);
    expect(isEnvTemplateBeside('/work/app/.env.example', '/work/app/.env')).toBe(true);
    expect(isEnvTemplateBeside('.env.sample', '.env.local')).toBe(true);
    expect(isEnvTemplateBeside('/work/app/.env.example', '/work/app/api/.env')).toBe(false);
    expect(isEnvTemplateBeside('/work/app/.env.production', '/work/app/.env')).toBe(false);
  });
});

describe('FileSystemValidator', () => {
  const validator = new FileSystemValidator();
  const FAILURE = 'Failed to connect to Playwright server at localhost:3000 ECONNREFUSED';

  it('applies to writes, creations and deletions, shell redirects included', () => {
    expect(validator.appliesTo(write('/work/app/.env'))).toBe(true);
    expect(validator.appliesTo(edit('playwright.config.ts'))).toBe(true);
    expect(validator.appliesTo(bash('echo "PLAYWRIGHT_SERVER_URL=http://localhost:3000" >> .env'))).toBe(true);
    expect(validator.appliesTo(bash('rm docker-compose.yml'))).toBe(true);
    expect(validator.appliesTo(bash('cat .env'))).toBe(false);
  });

  it('counts no failure that is over (the same command succeeded since) or a search that found nothing', () => {
    const rewrite = bash("cat > playwright.config.ts <<'EOF'\nexport default { retries: 5 };\nEOF");
    expect(validator.validate(rewrite, sessionOf([bash('git push origin main'), 'rejected: large file'], [bash('git push origin main')]))).toEqual({ kind: 'approve' });
    expect(validator.validate(rewrite, sessionOf([bash('rg -n "retries" src'), 'Exit code 1']))).toEqual({ kind: 'approve' });
    expect(validator.validate(rewrite, sessionOf([bash('netstat -ano | findstr 5432'), 'Exit code: 1']))).toEqual({ kind: 'approve' });
    // A search that failed (exit 2: a bad pattern, a missing file) and a failure still standing count.
    expect(validator.validate(rewrite, sessionOf([bash('rg -n "(" src'), 'Exit code 2: regex parse error']))).toMatchObject({ kind: 'require_prerequisites' });
    expect(validator.validate(rewrite, sessionOf([bash('git push origin main'), 'rejected'], [bash('git status')]))).toMatchObject({ kind: 'require_prerequisites' });
  });

  it('asks before rewriting configuration it never read, right after a failure', () => {
    const context = sessionOf([bash('npx playwright test'), FAILURE]);
    const rewrite = bash("cat > playwright.config.ts <<'EOF'\nexport default { retries: 5 };\nEOF");
    const result = validator.validate(rewrite, context);
    expect(result).toEqual({
      kind: 'require_prerequisites',
      reason: '/work/app/playwright.config.ts is configuration this session has not read, changed right after a failure: review the current configuration before changing it.',
      checks: [
        {
          description: 'Review existing configuration',
          method: { type: 'user_confirmation', question: 'Should I modify /work/app/playwright.config.ts? Have you verified the current config?' },
          success_criteria: 'User confirms config change is appropriate',
          priority: 8,
        },
      ],
    });
    expect(validator.alternatives(rewrite, context)[0]).toBe('Read /work/app/playwright.config.ts first');
  });

  it('lets an edit that quotes the values it replaces change an env file, in a quiet session or after a failure', () => {
    // Antigravity's replace_file_content names the text it replaces (a public Antigravity transcript, MohitMadhu1/Eager:
    // the Supabase URL in .env.local, open in the user's editor, fixed at the fifth action).
    const fix = parseAction(
      { kind: 'tool_use', tool: 'replace_file_content', input: { TargetFile: '/work/app/.env.local', TargetContent: 'NEXT_PUBLIC_SUPABASE_URL=https://x.supabase.co/rest/v1/', ReplacementContent: 'NEXT_PUBLIC_SUPABASE_URL=https://x.supabase.co' } },
      CWD,
    );
    expect(validator.validate(fix, sessionOf())).toEqual({ kind: 'approve' });
    // After a failed test run too: it corrects a value it saw. Right after a connection failure it is the trap the
    // seed names (the configuration changed instead of the endpoint checked); a blind rewrite is asked about either way.
    expect(validator.validate(fix, sessionOf([bash('npm test'), 'FAIL src/auth.test.ts: expected 200, received 401']))).toEqual({ kind: 'approve' });
    expect(validator.validate(fix, sessionOf([bash('npm run dev'), FAILURE])).kind).toBe('require_prerequisites');
    expect(validator.validate(bash('echo "NEXT_PUBLIC_SUPABASE_URL=https://x.supabase.co" > .env.local'), sessionOf([bash('npm test'), 'FAIL src/auth.test.ts'])).kind).toBe('require_prerequisites');
    expect(validator.validate(bash('echo "NEXT_PUBLIC_SUPABASE_URL=https://x.supabase.co" > .env.local'), sessionOf()).kind).toBe('require_prerequisites');
  });

  it('asks before writing an env file with values it never read, even in a quiet session', () => {
    const result = validator.validate(bash('echo "PLAYWRIGHT_SERVER_URL=http://localhost:3000" > .env'), sessionOf());
    expect(result.kind === 'require_prerequisites' && result.checks.map((c) => c.method)).toEqual([
      { type: 'user_confirmation', question: 'Should I modify /work/app/.env? Have you verified the current config?' },
    ]);
    expect(result.kind === 'require_prerequisites' && result.reason).toContain('holds environment values');
  });

  it('takes a scratch env file in a temporary directory for no configuration, after a failure too', () => {
    // A Codex session's test script writing its own env file to load (cabinet-governance, eighth set's DEV half).
    const scratch = bash("printf 'AI_API_KEY=test-key\\nPORT=4010\\n' > /tmp/env-manual.env");
    expect(validator.validate(scratch, sessionOf())).toEqual({ kind: 'approve' });
    expect(validator.validate(scratch, sessionOf([bash('npm run dev'), FAILURE]))).toEqual({ kind: 'approve' });
    expect(validator.validate(bash("printf 'AI_API_KEY=test-key\\n' > .env"), sessionOf()).kind).toBe('require_prerequisites');
  });

  it('lets new configuration through in a quiet session', () => {
    expect(validator.validate(write('/work/app/playwright.config.ts'), sessionOf())).toEqual({ kind: 'approve' });
    expect(validator.validate(write('/work/app/.env.example'), sessionOf())).toEqual({ kind: 'approve' });
  });

  it('lets through configuration the session read or wrote itself', () => {
    expect(validator.validate(edit('/work/app/.env'), sessionOf([read('/work/app/.env')], [bash('npm test'), FAILURE]))).toEqual({ kind: 'approve' });
    expect(validator.validate(edit('/work/app/.env'), sessionOf([bash('cat .env')]))).toEqual({ kind: 'approve' });
    expect(validator.validate(edit('/work/app/.env'), sessionOf([write('/work/app/.env')]))).toEqual({ kind: 'approve' });
  });

  it('lets an env file be set up from the template beside it, in a quiet session', () => {
    // The scaffolding of a Cursor session (SatyamOzaR/ts-nim cursor-transcript.jsonl): .env.example written, then .env from it.
    expect(validator.validate(write('/work/app/.env'), sessionOf([write('/work/app/.env.example')]))).toEqual({ kind: 'approve' });
    expect(validator.validate(bash('cp .env.example .env.local'), sessionOf([bash('cat .env.example')]))).toEqual({ kind: 'approve' });
    // A template elsewhere is not this file's, and a failure to react to still needs the file itself read.
    expect(validator.validate(write('/work/app/.env'), sessionOf([write('/work/app/deploy/.env.example')])).kind).toBe('require_prerequisites');
    expect(validator.validate(write('/work/app/.env'), sessionOf([read('/work/app/.env.example')], [bash('npm start'), FAILURE])).kind).toBe('require_prerequisites');
  });

  it('lets Claude Code create configuration: its Write refuses to overwrite a file the session has not read', () => {
    const context = sessionOf([bash('npx hardhat test'), 'Error HH8: There\'s one or more errors in your config file']);
    context.session.declare({ cwd: CWD }, { agentKind: 'claude-code' });
    expect(validator.validate(write('/work/app/hardhat.config.js'), context)).toEqual({ kind: 'approve' });
    expect(validator.validate(write('/work/app/.env'), context)).toEqual({ kind: 'approve' });
    // Changing it in place quotes what it changes; writing it with the shell is still a change to review.
    expect(validator.validate(edit('/work/app/hardhat.config.js'), context)).toEqual({ kind: 'approve' });
    expect(validator.validate(bash('echo "PRIVATE_KEY=0xabc" > .env'), context).kind).toBe('require_prerequisites');
  });

  it("lets OpenCode create an env file: its write refuses to overwrite a file the session has not read", () => {
    // anomalyco/opencode packages/opencode/src/tool/write.ts: `if (exists) await FileTime.assert(ctx.sessionID, filepath)`.
    const openWrite = (path: string) => parseAction({ kind: 'tool_use', tool: 'write', input: { filePath: path, content: 'VITE_SERVICE_ID=your_service_id\n' } }, CWD);
    const context = sessionOf([read('/work/app/.gitignore')]);
    context.session.declare({ cwd: CWD }, { agentKind: 'opencode' });
    expect(validator.validate(openWrite('/work/app/.env.local'), context)).toEqual({ kind: 'approve' });
    // Another agent's whole-file write may overwrite values it never saw.
    context.session.declare({ cwd: CWD }, { agentKind: 'gemini' });
    expect(validator.validate(openWrite('/work/app/.env.local'), context).kind).toBe('require_prerequisites');
  });

  it("takes a Codex patch that only updates, quoting the lines it removes, for an edit made knowing them", () => {
    const patch = (text: string) => parseAction({ kind: 'tool_use', tool: 'apply_patch', input: { input: text } }, CWD);
    const context = sessionOf([bash('npx playwright test'), '1 failed: tests/login.spec.ts: expected heading "Welcome", received "Sign in"']);
    expect(validator.validate(patch('*** Begin Patch\n*** Update File: playwright.config.ts\n@@\n-  retries: 0,\n+  retries: 2,\n*** End Patch'), context)).toEqual({ kind: 'approve' });
    expect(validator.validate(patch('*** Begin Patch\n*** Add File: playwright.config.ts\n+export default {};\n*** End Patch'), context).kind).toBe('require_prerequisites');
  });

  it('does not take a tool refusing its own input for a failure to react to', () => {
    const refused = parseAction({ kind: 'tool_use', tool: 'EnterPlanMode', input: { reason: 'plan' } }, CWD);
    expect(validator.validate(edit('playwright.config.ts'), sessionOf([refused, 'InputValidationError: An unexpected parameter `reason` was provided']))).toEqual({ kind: 'approve' });
  });

  it('lets through files that are not configuration, and failures long past', () => {
    expect(validator.validate(write('/work/app/src/environment.ts'), sessionOf([bash('npm test'), FAILURE]))).toEqual({ kind: 'approve' });
    const longAgo: [ParsedAction, string?][] = [[bash('npm test'), FAILURE], ...Array.from({ length: 10 }, (): [ParsedAction] => [bash('npm run lint')])];
    expect(validator.validate(edit('playwright.config.ts'), sessionOf(...longAgo))).toEqual({ kind: 'approve' });
  });

  it('asks once per unread configuration file of the action', () => {
    const result = validator.validate(bash('cp .env.example .env && rm docker-compose.yml'), sessionOf([bash('docker compose up'), 'exit 1']));
    expect(result.kind === 'require_prerequisites' && result.checks.map((c) => c.method.type === 'user_confirmation' && c.method.question)).toEqual([
      'Should I modify /work/app/.env? Have you verified the current config?',
      'Should I modify /work/app/docker-compose.yml? Have you verified the current config?',
    ]);
  });
});
