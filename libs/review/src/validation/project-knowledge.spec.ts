import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { parseProjectKnowledge, type ProjectKnowledge } from '@warden/project-knowledge';
import { detectEscalationTrap, knowledgeFor } from './project-knowledge.js';
import { SEED_KNOWLEDGE_TOML } from './seed-knowledge.fixture.js';

const SEED_KNOWLEDGE: Omit<ProjectKnowledge, 'source'> = {
  appliesTo: [],
  endpoints: [
    { name: 'Playwright Server', defaultUrl: 'http://localhost:9222', configKey: 'PLAYWRIGHT_SERVER_URL', healthCheck: '/json/version' },
    { name: 'Main API', defaultUrl: 'http://localhost:8080', configKey: 'API_BASE_URL' },
  ],
  configPatterns: [],
  practices: [{ name: 'Connection Failures', rule: 'Always verify configuration before installing software', validation: 'Check config and test connectivity first' }],
  knownIssues: [
    {
      symptom: 'Failed to connect to Playwright server',
      commonCause: 'Wrong endpoint configuration',
      simpleFix: 'Check PLAYWRIGHT_SERVER_URL environment variable',
      escalationTrap: 'install playwright browsers',
    },
    {
      symptom: 'Connection refused',
      commonCause: 'Service not running or wrong port',
      simpleFix: 'Verify service status and port configuration',
      escalationTrap: 'install dependencies',
    },
  ],
};

describe('knowledgeFor', () => {
  const file = (source: string, appliesTo: string[]): ProjectKnowledge => ({ ...SEED_KNOWLEDGE, source, appliesTo });
  const app = file('app.toml', ['/work/app/**']);
  const api = file('api.toml', ['/work/api']);
  const general = file('general.toml', []);

  it('picks the first file whose applies_to matches the working directory', () => {
    expect(knowledgeFor([app, api, general], '/work/app')?.source).toBe('app.toml');
    expect(knowledgeFor([app, api, general], '/work/app/packages/web/')?.source).toBe('app.toml');
    expect(knowledgeFor([app, api, general], '/work/api/src')?.source).toBe('api.toml');
  });

  it('falls back to a file without applies_to, and to none', () => {
    expect(knowledgeFor([app, api, general], '/work/other')?.source).toBe('general.toml');
    expect(knowledgeFor([app, api, general], undefined)?.source).toBe('general.toml');
    expect(knowledgeFor([app, api], '/work/apple')).toBeUndefined();
    expect(knowledgeFor([app], undefined)).toBeUndefined();
    expect(knowledgeFor([], '/work/app')).toBeUndefined();
  });
});

describe('detectEscalationTrap', () => {
  const knowledge = parseProjectKnowledge(SEED_KNOWLEDGE_TOML, 'toml', 'knowledge.toml');
  const now = Date.now();
  const bash = (command: string, description?: string) =>
    parseAction({ kind: 'tool_use', tool: 'Bash', input: description ? { command, description } : { command } }, '/work/app');
  const failedWith = (message: string) => {
    const session = new ReviewSession('agent-1', 's1', now);
    session.recordAction(bash('npx playwright test'), 'a1', 'allow', now);
    session.recordOutcome({ actionId: 'a1', status: 'error', error: { message, class: 'ECONNREFUSED' } }, now);
    return session;
  };

  it('matches a recent failure showing the symptom and an action walking into the trap', () => {
    const session = failedWith('Error:   failed to connect to PLAYWRIGHT server at localhost:3000');
    expect(detectEscalationTrap(knowledge, bash('npx playwright install chromium', 'Install Playwright browsers'), session)).toBe(knowledge.knownIssues[0]);
    expect(detectEscalationTrap(knowledge, bash('npx playwright install --with-deps', 'Installing the playwright browser'), session)).toBe(knowledge.knownIssues[0]);
  });

  it('needs both the symptom and the trap', () => {
    expect(detectEscalationTrap(knowledge, bash('npx playwright install', 'Install playwright browsers'), failedWith('Timeout 30000ms exceeded'))).toBeUndefined();
    const session = failedWith('Failed to connect to Playwright server at localhost:3000');
    expect(detectEscalationTrap(knowledge, bash('npx playwright install chromium'), session)).toBeUndefined();
    expect(detectEscalationTrap(knowledge, bash('cat playwright.config.ts', 'Show how browsers are set up'), session)).toBeUndefined();
    expect(detectEscalationTrap(knowledge, bash('npm test'), new ReviewSession('a', 's', now))).toBeUndefined();
  });

  it('matches the words of the trap in order, a few words apart at most', () => {
    const session = failedWith('connect ECONNREFUSED 127.0.0.1:8080 (Connection refused)');
    expect(detectEscalationTrap(knowledge, bash('npm install', 'Install the missing project dependencies'), session)).toBe(knowledge.knownIssues[1]);
    expect(detectEscalationTrap(knowledge, bash('npm ci', 'Dependencies install'), session)).toBeUndefined();
    expect(detectEscalationTrap(knowledge, bash('npm ci', 'Install it, then later on, much later, look at the dependencies'), session)).toBeUndefined();
  });

  it('reads the trap "playwright install" in the command itself', () => {
    const custom: ProjectKnowledge = { ...knowledge, knownIssues: [{ ...knowledge.knownIssues[0]!, escalationTrap: 'playwright install' }] };
    const session = failedWith('Failed to connect to Playwright server at localhost:3000');
    expect(detectEscalationTrap(custom, bash('npx   playwright install chromium'), session)).toBe(custom.knownIssues[0]);
  });
});
