import type { ProjectKnowledge } from '@warden/project-knowledge';
import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { pastCommandOf } from './past-command.js';

const CWD = '/work/app';
const bash = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, CWD);

const KNOWLEDGE: ProjectKnowledge = {
  source: 'knowledge.toml',
  appliesTo: [],
  endpoints: [{ name: 'Main API', defaultUrl: 'http://localhost:8080', configKey: 'API_BASE_URL' }],
  configPatterns: [],
  practices: [],
  knownIssues: [],
};

describe('what a session remembers of a shell command', () => {
  it('keeps the facts later reviews ask, not the text', () => {
    const session = new ReviewSession('agent-1', 's1', 0);
    const command = Array.from({ length: 50 }, (_, i) => `curl -s http://localhost:8080/health?i=${i} || echo down`).join('\n');
    session.recordAction(bash(command), 'a1', 'allow', 1);
    const record = session.history[0]!;
    expect(Object.values(record)).not.toContain(command);
    expect(record.urls).toEqual([]);
    // Fifty requests to one endpoint: one target, with the first URL that named it.
    expect(record.shell).toEqual({
      targets: [{ url: 'http://localhost:8080/health?i=0', address: expect.objectContaining({ hostPort: 'localhost:8080', local: true }) }],
      probes: true,
      startsService: false,
      runsTests: false,
      inspects: true,
      searches: false,
    });
  });

  it('tells probes, started services and test runs apart', () => {
    expect(pastCommandOf(bash('curl -X POST -d @body.json http://localhost:8080/items')).probes).toBe(false);
    expect(pastCommandOf(bash('ls -la')).probes).toBe(false);
    expect(pastCommandOf(bash('nc -z localhost 5432')).probes).toBe(true);
    expect(pastCommandOf(bash('npm run dev &')).startsService).toBe(true);
    expect(pastCommandOf(bash('docker compose up -d db')).startsService).toBe(true);
    expect(pastCommandOf(bash('npm run build')).startsService).toBe(false);
    expect(pastCommandOf(bash('cd app && npx jest --watch=false')).runsTests).toBe(true);
    expect(pastCommandOf(bash('npm run lint')).runsTests).toBe(false);
  });

  it('judges diagnostics by the project knowledge of its session', () => {
    expect(pastCommandOf(bash('printenv | grep -i url')).inspects).toBe(true);
    expect(pastCommandOf(bash('cat playwright.config.ts')).inspects).toBe(true);
    expect(pastCommandOf(bash('grep -rn API_BASE_URL src')).inspects).toBe(false);
    expect(pastCommandOf(bash('grep -rn API_BASE_URL src'), KNOWLEDGE).inspects).toBe(true);
    expect(pastCommandOf(bash('npm run build'), KNOWLEDGE).inspects).toBe(false);
  });
});
