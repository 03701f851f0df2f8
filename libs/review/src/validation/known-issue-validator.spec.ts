import { parseAction, type ParsedAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { KnownIssueValidator } from './known-issue-validator.js';
import { parseProjectKnowledge } from '@warden/project-knowledge';
import type { ValidationContext } from './tool-validator.js';
import { SEED_KNOWLEDGE_TOML } from './seed-knowledge.fixture.js';

const CWD = '/work/app';
const knowledge = parseProjectKnowledge(SEED_KNOWLEDGE_TOML, 'toml', '.patinox/knowledge.toml');
const bash = (command: string, description?: string) =>
  parseAction({ kind: 'tool_use', tool: 'Bash', input: description ? { command, description } : { command } }, CWD);

function context(steps: [ParsedAction, string?][], withKnowledge = true): ValidationContext {
  const session = new ReviewSession('agent-1', 's1', 1_000);
  steps.forEach(([action, error], i) => {
    session.recordAction(action, `a${i}`, 'allow', 1_000 + i);
    session.recordOutcome(error ? { actionId: `a${i}`, status: 'error', error: { message: error } } : { actionId: `a${i}`, status: 'success' }, 1_000 + i);
  });
  return withKnowledge ? { session, knowledge, suspectEndpoints: [] } : { session, suspectEndpoints: [] };
}

describe('KnownIssueValidator', () => {
  const validator = new KnownIssueValidator();
  const failedTest: [ParsedAction, string] = [bash('npx playwright test'), 'Error: Failed to connect to Playwright server at localhost:3000 ECONNREFUSED'];
  const installBrowsers = bash('npx playwright install chromium', 'Install Playwright browsers');

  it('applies to every action that changes something', () => {
    expect(validator.appliesTo(installBrowsers)).toBe(true);
    expect(validator.appliesTo(bash('cat .env', 'Install playwright browsers?'))).toBe(false);
  });

  it("blocks the seed's escalation trap with the known simple fix", () => {
    const ctx = context([failedTest]);
    expect(validator.validate(installBrowsers, ctx)).toEqual({
      kind: 'block',
      reason:
        'This looks like the escalation trap of a known issue: Failed to connect to Playwright server. ' +
        'Known simple fix: Check PLAYWRIGHT_SERVER_URL environment variable. Common cause: Wrong endpoint configuration.',
    });
    expect(validator.alternatives(installBrowsers, ctx)).toEqual([
      'Check PLAYWRIGHT_SERVER_URL environment variable',
      'Always verify configuration before installing software: Check config and test connectivity first',
    ]);
  });

  it('blocks the second known issue of the seed too', () => {
    const ctx = context([[bash('node scripts/migrate.mjs'), 'connect ECONNREFUSED 127.0.0.1:5432 (Connection refused)']]);
    const result = validator.validate(bash('npm install', 'Install dependencies again'), ctx);
    expect(result.kind === 'block' && result.reason).toContain('Known simple fix: Verify service status and port configuration.');
    expect(validator.alternatives(bash('npm install', 'Install dependencies again'), ctx)).toEqual([
      'Verify service status and port configuration',
      'Always verify configuration before installing software: Check config and test connectivity first',
    ]);
  });

  it('only cautions once the agent checked the configuration after the failure', () => {
    const result = validator.validate(installBrowsers, context([failedTest, [bash('cat .env')]]));
    expect(result.kind).toBe('caution');
    expect(result.kind === 'caution' && result.warning).toMatch(/^This looks like the escalation trap of a known issue: Failed to connect to Playwright server\. .* A check ran since the failure/);
  });

  it('approves without knowledge, without the symptom, or without the trap', () => {
    expect(validator.validate(installBrowsers, context([failedTest], false))).toEqual({ kind: 'approve' });
    expect(validator.validate(installBrowsers, context([[bash('npx playwright test'), 'Timeout 30000ms exceeded']]))).toEqual({ kind: 'approve' });
    expect(validator.validate(bash('npx playwright test --debug', 'Run the browser tests again'), context([failedTest]))).toEqual({ kind: 'approve' });
    expect(validator.alternatives(bash('npm test'), context([failedTest]))).toEqual([]);
  });
});
