import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StepReviewer } from '../step-reviewer.js';
import { readReviewSources } from './review-sources.js';

const read = (path: string) => readFileSync(path, 'utf8');
const WORKSPACE_ROOT = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');

describe('readReviewSources', () => {
  it('loads the example configuration in deploy/reviewer, with its rules and knowledge file', () => {
    const sources = readReviewSources(join(WORKSPACE_ROOT, 'deploy/reviewer/reviewer.yaml'), read);
    expect(sources.files.map((f) => f.slice(WORKSPACE_ROOT.length))).toEqual(['/deploy/reviewer/reviewer.yaml', '/deploy/reviewer/rules.yaml', '/deploy/reviewer/knowledge.toml']);
    const reviewer = new StepReviewer(sources);
    expect(reviewer.ruleNames).toEqual(expect.arrayContaining(['terraform_apply_needs_approval', 'npm_install_without_scripts', 'trial_block_docker_privileged']));
    const address = { agentId: 'agent-1', sessionId: 's1' };
    reviewer.startSession(address, { context: { cwd: '/work/app', expected_paths: ['/work/app/**'] } });
    const install = reviewer.review({ action_id: 'a1', kind: 'tool_use', tool: 'Bash', input: { command: 'npm install left-pad' } }, address);
    expect(install.verdict).toMatchObject({ verdict: 'modify', modified_input: { command: 'npm install --ignore-scripts left-pad' } });
    expect(sources.ruleOverrides.map((o) => o.rule)).toEqual(['secret_file_read', 'secret_file_write', 'database_destruction']);
  });

  it('uses the defaults without a configuration file', () => {
    expect(readReviewSources(undefined, read)).toEqual({ settings: {}, extraRules: [], ruleOverrides: [], knowledge: [], files: [] });
  });

  it('names the file and the problem when a file does not load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-review-sources-'));
    try {
      writeFileSync(join(dir, 'bad.yaml'), 'step_reviewer: [unclosed');
      expect(() => readReviewSources(join(dir, 'bad.yaml'), read)).toThrow(/bad\.yaml is not valid YAML/);
      writeFileSync(join(dir, 'missing-rules.yaml'), 'rules:\n  custom_rules_path: nowhere.yaml\n');
      expect(() => readReviewSources(join(dir, 'missing-rules.yaml'), read)).toThrow(/nowhere\.yaml/);
      writeFileSync(join(dir, 'knowledge.yaml'), 'knowledge:\n  files: [k.ini]\n');
      expect(() => readReviewSources(join(dir, 'knowledge.yaml'), read)).toThrow(/k\.ini: unsupported format/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
