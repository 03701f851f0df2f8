import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StepReviewer } from '../step-reviewer.js';

/**
 * The project's own labelled commands (libs/review/corpus/<pack>.jsonl, written for Warden): every vector
 * is proposed as the first action of a fresh session in /home/dev/shop, and must get a verdict its label
 * allows: `block` → blocked or held for approval, `allow` → not stopped (exactly `allow` unless the
 * vector lists the verdicts that are right for it, e.g. a named warning).
 */
interface Vector {
  tool: string;
  input: Record<string, unknown>;
  expected: 'block' | 'allow';
  verdicts?: string[];
  family: string;
}

const DIRECTORY = fileURLToPath(new URL('../../corpus/', import.meta.url));
const PROJECT = '/home/dev/shop';

const vectors: (Vector & { origin: string })[] = readdirSync(DIRECTORY)
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((file) =>
    readFileSync(`${DIRECTORY}${file}`, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line, i) => ({ ...(JSON.parse(line) as Vector), origin: `${file}:${i + 1}` })),
  );

function verdictOf(reviewer: StepReviewer, vector: Vector, i: number): string {
  const address = { agentId: 'corpus', sessionId: `corpus-${i}` };
  reviewer.startSession(address, { context: { cwd: PROJECT, expected_paths: [`${PROJECT}/**`] } });
  return reviewer.review({ action_id: `v${i}`, kind: 'tool_use', tool: vector.tool, input: vector.input }, address).verdict.verdict;
}

function agrees(vector: Vector, verdict: string): boolean {
  if (vector.verdicts) return vector.verdicts.includes(verdict);
  return vector.expected === 'block' ? verdict === 'block' || verdict === 'require_approval' : verdict === 'allow';
}

describe("the project's labelled command corpus", () => {
  it('has at least 600 vectors grouped by pack, at least a third of them harmless', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(600);
    expect(vectors.filter((v) => v.expected === 'allow').length * 3).toBeGreaterThanOrEqual(vectors.length);
    for (const v of vectors) expect(v.origin.startsWith(`${v.family}.jsonl`)).toBe(true);
  });

  it('is judged per its labels, every vector', () => {
    const reviewer = new StepReviewer();
    const mismatches = vectors
      .map((v, i) => ({ v, verdict: verdictOf(reviewer, v, i) }))
      .filter(({ v, verdict }) => !agrees(v, verdict))
      .map(({ v, verdict }) => `${v.origin}: ${v.expected} → ${verdict}: ${JSON.stringify(v.input).slice(0, 160)}`);
    expect(mismatches).toEqual([]);
  });
});
