import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { detectEscalationTrap, KnowledgeFileError, knowledgeFor, loadProjectKnowledge, parseProjectKnowledge, type ProjectKnowledge } from './project-knowledge.js';
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

const parseError = (text: string, format: 'toml' | 'yaml' | 'json' = 'toml') => {
  try {
    parseProjectKnowledge(text, format, 'knowledge.toml');
  } catch (error) {
    expect(error).toBeInstanceOf(KnowledgeFileError);
    return (error as Error).message;
  }
  throw new Error('expected a KnowledgeFileError');
};

describe('parseProjectKnowledge', () => {
  it("reads the seed's TOML example", () => {
    expect(parseProjectKnowledge(SEED_KNOWLEDGE_TOML, 'toml', 'knowledge.toml')).toEqual({ source: 'knowledge.toml', ...SEED_KNOWLEDGE });
  });

  it('reads the same structure from YAML and JSON, with applies_to and config_patterns', () => {
    const yaml = `
applies_to: ["/work/app/**"]
endpoints:
  api:
    default_url: http://localhost:8080
config_patterns:
  - key: "**/playwright.config.ts"
    description: Where the browser endpoint is set
  - key: API_BASE_URL
practices:
  - name: Connection Failures
    rule: Always verify configuration before installing software
known_issues:
  - symptom: Connection refused
    simple_fix: Verify service status and port configuration
    escalation_trap: install dependencies
`;
    const fromYaml = parseProjectKnowledge(yaml, 'yaml', 'k.yaml');
    expect(fromYaml).toEqual({
      source: 'k.yaml',
      appliesTo: ['/work/app/**'],
      endpoints: [{ name: 'api', defaultUrl: 'http://localhost:8080' }],
      configPatterns: [{ key: '**/playwright.config.ts', description: 'Where the browser endpoint is set' }, { key: 'API_BASE_URL' }],
      practices: [{ name: 'Connection Failures', rule: 'Always verify configuration before installing software' }],
      knownIssues: [{ symptom: 'Connection refused', simpleFix: 'Verify service status and port configuration', escalationTrap: 'install dependencies' }],
    });
    const json = JSON.stringify({
      applies_to: ['/work/app/**'],
      endpoints: { api: { default_url: 'http://localhost:8080' } },
      config_patterns: [{ key: '**/playwright.config.ts', description: 'Where the browser endpoint is set' }, { key: 'API_BASE_URL' }],
      practices: [{ name: 'Connection Failures', rule: 'Always verify configuration before installing software' }],
      known_issues: [{ symptom: 'Connection refused', simple_fix: 'Verify service status and port configuration', escalation_trap: 'install dependencies' }],
    });
    expect(parseProjectKnowledge(json, 'json', 'k.yaml')).toEqual(fromYaml);
  });

  it('accepts an empty file', () => {
    expect(parseProjectKnowledge('', 'toml', 'k.toml').knownIssues).toEqual([]);
    expect(parseProjectKnowledge('', 'yaml', 'k.yaml').endpoints).toEqual([]);
  });

  it('names the file and the field of what is wrong', () => {
    expect(parseError('[[known_issues]]\nsymptom = "a"\nsimple_fix = "b"\nescalation_trap = "c"\n[[known_issues]]\nsymptom = "x"\nescalation_trap = "y"\n')).toBe(
      'knowledge.toml: known_issues[1].simple_fix is required',
    );
    expect(parseError('[[known_issues]]\nsymptom = 3\nsimple_fix = "b"\nescalation_trap = "c"\n')).toBe('knowledge.toml: known_issues[0].symptom must be a string');
    expect(parseError('[[practices]]\nname = "n"\nrule = "  "\n')).toBe('knowledge.toml: practices[0].rule must not be empty');
    expect(parseError('[endpoints.api]\nname = "API"\n')).toBe('knowledge.toml: endpoints.api.default_url is required');
    expect(parseError('[endpoints.api]\ndefault_url = "not a url"\n')).toBe('knowledge.toml: endpoints.api.default_url is not a URL with a host: "not a url"');
    expect(parseError('[endpoints.api]\ndefault_url = "http://x:1"\nconfigkey = "X"\n')).toMatch(/^knowledge\.toml: endpoints\.api\.configkey is not a known field/);
    expect(parseError('[[known_issue]]\nsymptom = "a"\n')).toMatch(/^knowledge\.toml: known_issue is not a known field \(expected applies_to, endpoints/);
    expect(parseError('[known_issues]\nsymptom = "a"\n')).toBe('knowledge.toml: known_issues must be a list of tables ([[known_issues]])');
    expect(parseError('applies_to = [""]\n')).toBe('knowledge.toml: applies_to[0] must be a non-empty path glob');
    expect(parseError('endpoints = 3\n')).toMatch(/endpoints must be a table of named endpoints/);
    expect(parseError('[endpoints\n')).toMatch(/^knowledge\.toml: not valid TOML: /);
    expect(parseError('{', 'json')).toMatch(/^knowledge\.toml: not valid JSON: /);
    expect(parseError('- a\n- b\n', 'yaml')).toBe('knowledge.toml: must be a table of settings at the top level');
  });
});

describe('loadProjectKnowledge', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-knowledge-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the format from the extension', () => {
    writeFileSync(join(dir, 'knowledge.toml'), SEED_KNOWLEDGE_TOML);
    writeFileSync(join(dir, 'knowledge.yml'), 'known_issues:\n  - symptom: s\n    simple_fix: f\n    escalation_trap: t\n');
    expect(loadProjectKnowledge(join(dir, 'knowledge.toml'))).toEqual({ source: join(dir, 'knowledge.toml'), ...SEED_KNOWLEDGE });
    expect(loadProjectKnowledge(join(dir, 'knowledge.yml')).knownIssues).toEqual([{ symptom: 's', simpleFix: 'f', escalationTrap: 't' }]);
  });

  it('names the file it cannot use', () => {
    writeFileSync(join(dir, 'broken.toml'), '[[practices]]\nname = "n"\n');
    expect(() => loadProjectKnowledge(join(dir, 'broken.toml'))).toThrow(`${join(dir, 'broken.toml')}: practices[0].rule is required`);
    expect(() => loadProjectKnowledge(join(dir, 'knowledge.ini'))).toThrow(KnowledgeFileError);
    expect(() => loadProjectKnowledge(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot be read/);
  });
});

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
