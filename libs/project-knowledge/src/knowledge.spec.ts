import { KnowledgeFileError, knowledgeFor, knowledgeFormatOf, parseProjectKnowledge, showsSymptom, type ProjectKnowledge } from './knowledge.js';
import { normaliseText } from './wording.js';
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

describe('knowledgeFormatOf', () => {
  it('reads the format from the extension, in any case', () => {
    expect(knowledgeFormatOf('/etc/warden/knowledge.toml')).toBe('toml');
    expect(knowledgeFormatOf('k.YML')).toBe('yaml');
    expect(knowledgeFormatOf('k.yaml')).toBe('yaml');
    expect(knowledgeFormatOf('k.json')).toBe('json');
    expect(() => knowledgeFormatOf('knowledge.ini')).toThrow('knowledge.ini: unsupported format: expected a .toml, .yaml, .yml or .json file');
    expect(() => knowledgeFormatOf('/etc/warden.d/knowledge')).toThrow(KnowledgeFileError);
  });
});

describe('knowledgeFor', () => {
  const file = (source: string, appliesTo: string[]): ProjectKnowledge => ({ ...SEED_KNOWLEDGE, source, appliesTo });
  const app = file('app.toml', ['/work/app']);
  const general = file('general.toml', []);
  const compiled: string[][] = [];
  const underOrSame = (globs: readonly string[]) => {
    compiled.push([...globs]);
    return (directory: string) => globs.some((glob) => directory === glob || directory.startsWith(`${glob}/`));
  };

  it('picks the first file whose applies_to matches the directory, by the matcher it is given, else one without applies_to', () => {
    expect(knowledgeFor([app, general], '/work/app/src', underOrSame)?.source).toBe('app.toml');
    expect(knowledgeFor([app, general], '/work/apple', underOrSame)?.source).toBe('general.toml');
    expect(knowledgeFor([app, general], undefined, underOrSame)?.source).toBe('general.toml');
    expect(knowledgeFor([app], undefined, underOrSame)).toBeUndefined();
    expect(knowledgeFor([app], '/srv', underOrSame)).toBeUndefined();
  });

  it('compiles the globs of a file once per matcher', () => {
    expect(compiled).toEqual([['/work/app']]);
  });
});

describe('showsSymptom', () => {
  const [issue] = parseProjectKnowledge(SEED_KNOWLEDGE_TOML, 'toml', 'knowledge.toml').knownIssues;

  it('finds the symptom in a failure text whatever its case and spacing', () => {
    expect(showsSymptom(normaliseText('Error:   FAILED to connect to Playwright\n server at localhost:3000'), issue!)).toBe(true);
    expect(showsSymptom(normaliseText('Timeout 30000ms exceeded'), issue!)).toBe(false);
  });
});
