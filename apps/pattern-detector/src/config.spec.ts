import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '@warden/service-bootstrap';
import { loadPatternDetectorConfig } from './config.js';

const reviewerKnowledge = fileURLToPath(new URL('../../../deploy/reviewer/knowledge.toml', import.meta.url));

describe('pattern detector configuration', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'warden-patterns-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs on the defaults without a file, with no knowledge', () => {
    const config = loadPatternDetectorConfig({});
    expect(config.configPath).toBeUndefined();
    expect(config.knowledge).toEqual([]);
    expect(config.settings.polling_loop.mode).toBe('enforce');
  });

  it('reads the file, its knowledge files (relative to it) and PATTERN_KNOWLEDGE', () => {
    writeFileSync(join(dir, 'extra.yaml'), 'known_issues:\n  - symptom: ECONNRESET\n    simple_fix: retry once\n    escalation_trap: rewrite the client\n');
    writeFileSync(join(dir, 'patterns.yaml'), 'patterns:\n  goal_drift: { mode: shadow }\n  knowledge_files: [extra.yaml]\n');
    const config = loadPatternDetectorConfig({ PATTERN_DETECTOR_CONFIG: join(dir, 'patterns.yaml'), PATTERN_KNOWLEDGE: reviewerKnowledge });
    expect(config.settings.goal_drift.mode).toBe('shadow');
    expect(config.knowledge.map((k) => k.knownIssues[0]!.symptom)).toEqual(['ECONNRESET', 'Failed to connect to Playwright server']);
    expect(config.knowledge[1]!.appliesTo).toEqual(['/work/**']);
  });

  it('stops on a bad setting or an unreadable knowledge file, naming it', () => {
    writeFileSync(join(dir, 'bad.yaml'), 'patterns:\n  polling_loop: { severity: { medium: 0 } }\n');
    expect(() => loadPatternDetectorConfig({ PATTERN_DETECTOR_CONFIG: join(dir, 'bad.yaml') })).toThrow(ConfigurationError);
    expect(() => loadPatternDetectorConfig({ PATTERN_DETECTOR_CONFIG: join(dir, 'bad.yaml') })).toThrow('polling_loop.severity.medium must be a whole number >= 1');
    expect(() => loadPatternDetectorConfig({ PATTERN_KNOWLEDGE: join(dir, 'missing.toml') })).toThrow(/missing\.toml: cannot be read/);
    writeFileSync(join(dir, 'broken.toml'), '[[known_issues]]\nsymptom = "x"\n');
    expect(() => loadPatternDetectorConfig({ PATTERN_KNOWLEDGE: join(dir, 'broken.toml') })).toThrow('known_issues[0].simple_fix is required');
  });
});
