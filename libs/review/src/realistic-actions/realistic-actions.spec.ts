import type { PayloadOf, VerdictKind } from '@warden/contracts';
import { StepReviewer } from '../step-reviewer.js';
import { parseProjectKnowledge } from '@warden/project-knowledge';
import {
  acceptableVerdicts,
  REALISTIC_ACTIONS,
  sessionOf,
  type PriorAction,
  type ProposedActionSpec,
  type RealisticAction,
} from './realistic-actions.fixture.js';

type Verdict = PayloadOf<'review.verdict'>;
type Address = { agentId: string; sessionId: string };

/** What the reviewer said about one case, or what went wrong asking it. */
interface Observation {
  verdict?: Verdict;
  ruleErrors: { rule: string; message: string }[];
  error?: unknown;
}

/** Verdicts that let the action run. */
const LETS_THROUGH: readonly VerdictKind[] = ['allow', 'warn'];
const START = Date.parse('2025-01-18T09:00:00.000Z');

function proposal(action: ProposedActionSpec, actionId: string, phase: PayloadOf<'action.proposed'>['phase']): PayloadOf<'action.proposed'> {
  const payload: PayloadOf<'action.proposed'> = { action_id: actionId, kind: action.kind ?? 'tool_use', tool: action.tool, input: action.input };
  if (action.description !== undefined) payload.description = action.description;
  if (phase !== undefined) payload.phase = phase;
  return payload;
}

function outcome(prior: PriorAction, actionId: string): PayloadOf<'action.outcome'> {
  if (prior.outcome === 'success') return { action_id: actionId, tool: prior.tool, status: 'success' };
  const error: { message: string; class?: string } = { message: prior.outcome.error };
  if (prior.outcome.class !== undefined) error.class = prior.outcome.class;
  return { action_id: actionId, tool: prior.tool, status: 'error', error };
}

/** A fresh reviewer and session per case; earlier actions are reviewed and their outcomes recorded first. */
function run(c: RealisticAction, index: number): Observation {
  try {
    let now = START;
    const knowledge = c.knowledge ? [parseProjectKnowledge(c.knowledge, 'toml', 'knowledge.toml')] : [];
    const reviewer = new StepReviewer({ knowledge, clock: () => (now += 1_500) });
    const session = sessionOf(c);
    const address: Address = { agentId: 'claude-code', sessionId: `realistic-${index}` };
    const context: PayloadOf<'session.started'>['context'] = { goal: session.goal, expected_paths: session.expected_paths, cwd: session.cwd };
    if (session.constraints) context.constraints = session.constraints;
    reviewer.startSession(address, { context, phase: session.phase, agent_kind: 'claude-code', environment: session.environment });
    (c.before ?? []).forEach((prior, n) => {
      const actionId = `toolu_${index}_${n}`;
      reviewer.review(proposal(prior, actionId, session.phase), address);
      reviewer.recordOutcome(address, outcome(prior, actionId));
    });
    const result = reviewer.review(proposal(c.action, `toolu_${index}_proposed`, session.phase), address);
    return { verdict: result.verdict, ruleErrors: result.ruleErrors };
  } catch (error) {
    return { ruleErrors: [], error };
  }
}

const observations = new Map<RealisticAction, Observation>();
function observe(c: RealisticAction): Observation {
  let observation = observations.get(c);
  if (!observation) {
    observation = run(c, REALISTIC_ACTIONS.indexOf(c));
    observations.set(c, observation);
  }
  return observation;
}

function shorten(text: string | undefined, max = 160): string {
  if (!text) return '(no reason)';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function modifiedText(verdict: Verdict): string {
  const input = verdict.modified_input;
  if (!input) return '';
  return typeof input['command'] === 'string' ? input['command'] : JSON.stringify(input);
}

/** Safe actions the reviewer stopped. */
function isFalsePositive(c: RealisticAction, o: Observation): boolean {
  return c.category === 'safe' && (!o.verdict || !LETS_THROUGH.includes(o.verdict.verdict));
}

/** Dangerous actions the reviewer let run: allowed, or only warned where a warning is not enough. */
function isMiss(c: RealisticAction, o: Observation): boolean {
  if (c.category !== 'dangerous' || !o.verdict) return false;
  return LETS_THROUGH.includes(o.verdict.verdict) && !acceptableVerdicts(c).includes(o.verdict.verdict);
}

function line(c: RealisticAction, o: Observation): string {
  if (!o.verdict) return `  - ${c.name}: error ${shorten(o.error instanceof Error ? o.error.message : String(o.error))}`;
  return `  - ${c.name}: ${o.verdict.verdict} (expected ${acceptableVerdicts(c).join('|')}) — ${shorten(o.verdict.reasons[0])}`;
}

function report(): { text: string; falsePositives: string[]; misses: string[] } {
  const all = REALISTIC_ACTIONS.map((c) => [c, observe(c)] as const);
  const falsePositives = all.filter(([c, o]) => isFalsePositive(c, o));
  const misses = all.filter(([c, o]) => isMiss(c, o));
  const others = all.filter(
    ([c, o]) => !isFalsePositive(c, o) && !isMiss(c, o) && (!o.verdict || !acceptableVerdicts(c).includes(o.verdict.verdict)),
  );
  const ruleErrors = all.filter(([, o]) => o.ruleErrors.length);
  const safe = all.filter(([c]) => c.category === 'safe').length;
  const section = (title: string, rows: typeof all) => [`${title}: ${rows.length}`, ...rows.map(([c, o]) => line(c, o))];
  const text = [
    `Realistic actions: ${all.length} cases (${safe} safe, ${all.length - safe} dangerous), ${all.length - falsePositives.length - misses.length - others.length} as expected.`,
    ...section('False positives (safe actions not allowed)', falsePositives),
    ...section('Misses (dangerous actions let through)', misses),
    ...section('Other mismatches (neither of the above, but not a listed verdict)', others),
    `Cases with rule errors: ${ruleErrors.length}`,
    ...ruleErrors.map(([c, o]) => `  - ${c.name}: ${o.ruleErrors.map((e) => `${e.rule}: ${shorten(e.message, 100)}`).join('; ')}`),
  ].join('\n');
  return { text, falsePositives: falsePositives.map(([c]) => c.name), misses: misses.map(([c]) => c.name) };
}

describe('realistic agent actions', () => {
  describe('the suite', () => {
    const safe = REALISTIC_ACTIONS.filter((c) => c.category === 'safe');
    const dangerous = REALISTIC_ACTIONS.filter((c) => c.category === 'dangerous');

    it('has at least 35 safe and 35 dangerous cases with unique names', () => {
      expect(safe.length).toBeGreaterThanOrEqual(35);
      expect(dangerous.length).toBeGreaterThanOrEqual(35);
      expect(new Set(REALISTIC_ACTIONS.map((c) => c.name)).size).toBe(REALISTIC_ACTIONS.length);
    });

    it('expects only allow or warn for safe cases, and never allow for dangerous ones', () => {
      expect(safe.filter((c) => acceptableVerdicts(c).some((v) => !LETS_THROUGH.includes(v))).map((c) => c.name)).toEqual([]);
      expect(dangerous.filter((c) => acceptableVerdicts(c).includes('allow')).map((c) => c.name)).toEqual([]);
      expect(dangerous.filter((c) => acceptableVerdicts(c).every((v) => LETS_THROUGH.includes(v))).map((c) => c.name)).toEqual([]);
    });
  });

  it.each(REALISTIC_ACTIONS.map((c) => [`${c.category}: ${c.name}`, c] as const))('%s', (_title, c) => {
    const o = observe(c);
    if (o.error) throw o.error;
    const verdict = o.verdict!;
    const acceptable = acceptableVerdicts(c);
    if (!acceptable.includes(verdict.verdict)) {
      throw new Error(
        `Expected ${acceptable.join(' | ')}, got ${verdict.verdict}.\n` +
          `Why ${acceptable.join(' | ')}: ${c.why}\n` +
          `Reviewer's reasons:\n${verdict.reasons.map((r) => `  - ${r}`).join('\n')}` +
          (verdict.rule_hits?.length ? `\nRule hits: ${verdict.rule_hits.join(', ')}` : '') +
          `\nRisk: ${verdict.risk.score.toFixed(2)} ${verdict.risk.severity} [${verdict.risk.factors.join(', ')}]`,
      );
    }
    expect(verdict.action_id).toBe(`toolu_${REALISTIC_ACTIONS.indexOf(c)}_proposed`);
    if (verdict.verdict !== 'allow') expect(verdict.reasons[0]).toBeTruthy();
    if (c.mentions) expect([...verdict.reasons, ...(verdict.alternatives ?? [])].join('\n')).toMatch(c.mentions);
    if (verdict.verdict === 'modify') {
      expect(verdict.modified_input).toBeDefined();
      expect(verdict.modified_input).not.toEqual(c.action.input);
      if (c.modified) expect(modifiedText(verdict)).toMatch(c.modified);
    }
  });

  it('reports no false positives and no misses', () => {
    const { text, falsePositives, misses } = report();
    console.log(text);
    expect({ falsePositives, misses }).toEqual({ falsePositives: [], misses: [] });
  });
});
