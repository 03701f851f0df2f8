import { parseAction, type ParsedAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { REACTION_ACTIONS } from './connection-failure.js';
import { InstallationValidator } from './installation-validator.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import type { ValidationContext } from './tool-validator.js';

const CWD = '/work/app';
const PLAYWRIGHT_FAILURE = 'Failed to connect to Playwright server at localhost:3000 ECONNREFUSED';

const bash = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, CWD);

/** A session the test plays action by action, each with its outcome; its commands are judged against `knowledge`, as the reviewer records them. */
class Script {
  readonly session = new ReviewSession('agent-1', 's1', 1_000);
  private count = 0;

  constructor(private readonly knowledge?: ProjectKnowledge) {}

  run(action: ParsedAction, error?: { message: string; class?: string }, verdict: 'allow' | 'block' = 'allow'): this {
    const id = `a${++this.count}`;
    const at = 1_000 + this.count;
    this.session.recordAction(action, id, verdict, at, this.knowledge);
    this.session.recordOutcome(error ? { actionId: id, status: 'error', error } : { actionId: id, status: 'success' }, at);
    return this;
  }

  context(knowledge?: ProjectKnowledge): ValidationContext {
    return knowledge ? { session: this.session, knowledge, suspectEndpoints: ['localhost:3000'] } : { session: this.session, suspectEndpoints: ['localhost:3000'] };
  }
}

const KNOWLEDGE: ProjectKnowledge = {
  source: 'knowledge.toml',
  appliesTo: [],
  endpoints: [
    { name: 'Playwright Server', defaultUrl: 'http://localhost:9222', configKey: 'PLAYWRIGHT_SERVER_URL', healthCheck: '/json/version' },
    { name: 'Main API', defaultUrl: 'http://localhost:8080', configKey: 'API_BASE_URL' },
  ],
  configPatterns: [{ key: 'playwright.config.*' }],
  practices: [],
  knownIssues: [
    {
      symptom: 'Failed to connect to Playwright server',
      commonCause: 'Wrong endpoint configuration',
      simpleFix: 'Check PLAYWRIGHT_SERVER_URL environment variable',
      escalationTrap: 'install playwright browsers',
    },
  ],
};

describe('InstallationValidator', () => {
  const validator = new InstallationValidator();
  const install = bash('npx playwright install chromium');
  const failed = (knowledge?: ProjectKnowledge) => new Script(knowledge).run(bash('npx playwright test'), { message: PLAYWRIGHT_FAILURE, class: 'ECONNREFUSED' });

  it('applies to package and browser installs only', () => {
    expect(validator.appliesTo(install)).toBe(true);
    expect(validator.appliesTo(bash('npm install left-pad'))).toBe(true);
    expect(validator.appliesTo(bash('npx playwright test'))).toBe(false);
  });

  it('leaves alone an install told to fetch nothing: working without the network is no trap', () => {
    // A Codex session whose registry fetch timed out retried from pnpm's store (madinah, eighth set's DEV half).
    expect(validator.appliesTo(bash('pnpm install --offline'))).toBe(false);
    expect(validator.appliesTo(bash('pip install --no-index --find-links ./wheels -r requirements.txt'))).toBe(false);
    expect(validator.appliesTo(bash('pnpm install --offline && npm install left-pad'))).toBe(true);
    expect(validator.appliesTo(bash('pnpm install --prefer-offline'))).toBe(true);
  });

  it("requires the seed's two checks before installing after a connection failure", () => {
    const script = failed();
    expect(validator.validate(install, script.context())).toEqual({
      kind: 'require_prerequisites',
      reason: expect.stringContaining(`A connection failed ("${PLAYWRIGHT_FAILURE}")`),
      checks: [
        {
          description: 'Verify connection endpoint configuration',
          method: { type: 'config_check', key: 'connection_url' },
          success_criteria: 'Endpoint is correctly configured',
          priority: 10,
        },
        {
          description: 'Test connectivity to configured endpoint',
          method: { type: 'endpoint_test', url: 'http://localhost:3000' },
          success_criteria: 'Endpoint responds successfully',
          priority: 9,
        },
      ],
    });
    expect(validator.alternatives(install, script.context())).toEqual([
      'Verify existing installation is accessible: check the installed version and test the existing connection',
      'Check connection configuration: review the config and test connectivity',
    ]);
  });

  it("names the project's setting, its endpoint and the known simple fix when knowledge applies", () => {
    const script = failed();
    const result = validator.validate(install, script.context(KNOWLEDGE));
    expect(result.kind).toBe('require_prerequisites');
    if (result.kind !== 'require_prerequisites') return;
    expect(result.checks.map((c) => c.method)).toEqual([
      { type: 'config_check', key: 'PLAYWRIGHT_SERVER_URL', expected: 'http://localhost:9222' },
      { type: 'endpoint_test', url: 'http://localhost:3000' },
    ]);
    expect(result.reason).toContain("The project's Playwright Server is at http://localhost:9222 (PLAYWRIGHT_SERVER_URL), not localhost:3000.");
    expect(validator.alternatives(install, script.context(KNOWLEDGE))).toEqual([
      'Verify existing installation is accessible: check the installed version and test the existing connection',
      "Check connection configuration: review PLAYWRIGHT_SERVER_URL (the project's Playwright Server is http://localhost:9222) and test connectivity with curl -sS http://localhost:9222/json/version",
      'Check PLAYWRIGHT_SERVER_URL environment variable',
    ]);
  });

  it('tests the URL the failed action requested', () => {
    const script = new Script().run(bash('node scripts/seed.mjs --api http://127.0.0.1:8080/api/health'), { message: 'connect ECONNREFUSED', class: 'ECONNREFUSED' });
    const result = validator.validate(bash('npm install axios'), script.context(KNOWLEDGE));
    expect(result.kind === 'require_prerequisites' && result.checks.map((c) => c.method)).toEqual([
      { type: 'config_check', key: 'API_BASE_URL', expected: 'http://localhost:8080' },
      { type: 'endpoint_test', url: 'http://127.0.0.1:8080/api/health' },
    ]);
  });

  it('takes a failed probe as the check itself', () => {
    const script = new Script().run(bash('curl -sS http://localhost:3000/json/version'), { message: 'curl: (7) Failed to connect to localhost port 3000', class: 'ECONNREFUSED' });
    expect(validator.validate(install, script.context())).toEqual({ kind: 'approve' });
  });

  it('falls back to the knowledge endpoint and to the setting when the failure names no address', () => {
    const script = new Script().run(bash('npx playwright test'), { message: 'Failed to connect to Playwright server: browserType.connect timed out' });
    const withKnowledge = validator.validate(install, script.context(KNOWLEDGE));
    expect(withKnowledge.kind === 'require_prerequisites' && withKnowledge.checks[1]!.method).toEqual({ type: 'endpoint_test', url: 'http://localhost:9222/json/version' });
    const without = validator.validate(install, script.context());
    expect(without.kind === 'require_prerequisites' && without.checks[1]!.method).toEqual({ type: 'endpoint_test', url: '${connection_url}' });
  });

  it.each([
    ['cat .env', bash('cat .env')],
    ['curl -sS http://localhost:9222/json/version', bash('curl -sS http://localhost:9222/json/version')],
    ['env | grep PLAYWRIGHT', bash('env | grep PLAYWRIGHT')],
    ['printenv', bash('printenv PLAYWRIGHT_SERVER_URL')],
    ['echo $VAR', bash('echo "$PLAYWRIGHT_SERVER_URL"')],
    ['grep on an env file', bash('grep -n URL .env.local')],
    ['lsof -i', bash('lsof -i :3000')],
    ['ss', bash('ss -ltnp')],
    ['docker ps', bash('docker ps --format "{{.Ports}}"')],
    ['systemctl status', bash('systemctl status playwright')],
    ['ps', bash('ps aux | grep playwright')],
    ['Read of a config file', parseAction({ kind: 'tool_use', tool: 'Read', input: { file_path: '/work/app/playwright.config.ts' } }, CWD)],
    ['WebFetch', parseAction({ kind: 'tool_use', tool: 'WebFetch', input: { url: 'http://localhost:9222/json/version', prompt: 'is it up?' } }, CWD)],
  ])('approves the install once the agent checked first (%s)', (_name, diagnostic) => {
    const script = failed().run(diagnostic);
    expect(validator.validate(install, script.context())).toEqual({ kind: 'approve' });
  });

  it('counts reads of the files and settings the knowledge names as checks', () => {
    const read = failed().run(parseAction({ kind: 'tool_use', tool: 'Read', input: { file_path: '/work/app/tests/playwright.setup.json' } }, CWD));
    expect(validator.validate(install, read.context()).kind).toBe('require_prerequisites');
    const knowledge = { ...KNOWLEDGE, configPatterns: [{ key: 'tests/*.json' }] };
    expect(validator.validate(install, read.context(knowledge)).kind).toBe('approve');
    const grep = failed(KNOWLEDGE).run(bash('grep -rn PLAYWRIGHT_SERVER_URL src'));
    expect(validator.validate(install, grep.context(KNOWLEDGE)).kind).toBe('approve');
    // Without the knowledge, naming the setting is no check.
    const unknown = failed().run(bash('grep -rn PLAYWRIGHT_SERVER_URL src'));
    expect(validator.validate(install, unknown.context()).kind).toBe('require_prerequisites');
  });

  it('does not count actions that change things, blocked checks, or checks before the failure', () => {
    expect(validator.validate(install, failed().run(bash('npm run build')).context()).kind).toBe('require_prerequisites');
    expect(validator.validate(install, failed().run(bash('cat .env'), undefined, 'block').context()).kind).toBe('require_prerequisites');
    const checkedBefore = new Script().run(bash('cat .env')).run(bash('npx playwright test'), { message: PLAYWRIGHT_FAILURE, class: 'ECONNREFUSED' });
    expect(validator.validate(install, checkedBefore.context()).kind).toBe('require_prerequisites');
  });

  it('reads an install as a reaction to the failure only while it is one: not once the failing action succeeded, nor long after', () => {
    // Still within reach: the seventh action after the failure, none of them a check.
    const within = failed();
    for (let i = 0; i < REACTION_ACTIONS - 1; i++) within.run(bash(`git log -${i + 1}`));
    expect(validator.validate(install, within.context()).kind).toBe('require_prerequisites');
    // The failing test run passed since: the failure was dealt with.
    expect(validator.validate(install, failed().run(bash('npx playwright test')).context())).toEqual({ kind: 'approve' });
    // The agent moved on: a dependency added many actions later is work of its own (a real session's `pnpm add` 35 actions after a test run failed with ECONNREFUSED).
    const later = failed();
    for (let i = 0; i < REACTION_ACTIONS; i++) later.run(bash(`git log -${i + 1}`));
    expect(validator.validate(bash('pnpm add node-html-parser'), later.context())).toEqual({ kind: 'approve' });
  });

  it('approves installs in a session without connection failures', () => {
    expect(validator.validate(install, new Script().context())).toEqual({ kind: 'approve' });
    const otherFailure = new Script().run(bash('npm test'), { message: 'Expected 2 to be 3' });
    expect(validator.validate(install, otherFailure.context())).toEqual({ kind: 'approve' });
  });
});
