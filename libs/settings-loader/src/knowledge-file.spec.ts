import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnowledgeFileError } from '@warden/project-knowledge';
import { loadProjectKnowledge } from './knowledge-file.js';

const SEED_KNOWLEDGE_TOML = `[endpoints.api]
name = "Main API"
default_url = "http://localhost:8080"

[[known_issues]]
symptom = "Connection refused"
simple_fix = "Verify service status and port configuration"
escalation_trap = "install dependencies"
`;

describe('loadProjectKnowledge', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-knowledge-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the format from the extension', () => {
    writeFileSync(join(dir, 'knowledge.toml'), SEED_KNOWLEDGE_TOML);
    writeFileSync(join(dir, 'knowledge.yml'), 'known_issues:\n  - symptom: s\n    simple_fix: f\n    escalation_trap: t\n');
    expect(loadProjectKnowledge(join(dir, 'knowledge.toml'))).toEqual({
      source: join(dir, 'knowledge.toml'),
      appliesTo: [],
      endpoints: [{ name: 'Main API', defaultUrl: 'http://localhost:8080' }],
      configPatterns: [],
      practices: [],
      knownIssues: [{ symptom: 'Connection refused', simpleFix: 'Verify service status and port configuration', escalationTrap: 'install dependencies' }],
    });
    expect(loadProjectKnowledge(join(dir, 'knowledge.yml')).knownIssues).toEqual([{ symptom: 's', simpleFix: 'f', escalationTrap: 't' }]);
  });

  it('names the file it cannot use', () => {
    writeFileSync(join(dir, 'broken.toml'), '[[practices]]\nname = "n"\n');
    expect(() => loadProjectKnowledge(join(dir, 'broken.toml'))).toThrow(`${join(dir, 'broken.toml')}: practices[0].rule is required`);
    expect(() => loadProjectKnowledge(join(dir, 'knowledge.ini'))).toThrow(KnowledgeFileError);
    expect(() => loadProjectKnowledge(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot be read/);
  });
});

