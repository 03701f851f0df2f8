import type { VerdictKind } from '@warden/contracts';
import { validationVerdict } from '../decision/decision-engine.js';
import { BUILT_IN_RULES } from '../rules/built-in-rules.js';
import type { ConditionValue } from '../rules/review-rule.js';
import type { SessionAddress } from '../session/review-session-store.js';
import type { ProposedAction, ReviewResult, StepReviewer } from '../step-reviewer.js';
import { RecordingReviewer, type DecisionRecord, type RecordedRule } from './review-recorder.js';

const BUILT_IN = new Set(BUILT_IN_RULES.map((r) => r.name));

/** One rule as the review considered it. */
export interface RuleExplanation {
  rule: string;
  origin: 'built-in' | 'custom';
  /** matched: it found something; not_matched: it ran and found nothing; not_needed: it did not run, the action lacks what it needs (a program, a host); failed: it threw. */
  result: 'matched' | 'not_matched' | 'not_needed' | 'failed';
  /** Evaluated and reported, never enforced. */
  shadow: boolean;
  description: string;
  verdict?: VerdictKind;
  score?: number;
  reason?: string;
  /** What each condition gave (custom rules): `match.*` fields, and the `when` expression with its parts. */
  conditions?: ConditionValue[];
  error?: string;
}

/** A verdict the decision engine weighed against the matrix's: a rule's, a validator's, an open breaker's, the ladder's. */
export interface Candidate {
  source: 'rule' | 'validator' | 'breaker' | 'ladder';
  name: string;
  verdict: VerdictKind;
  score?: number;
}

/**
 * Why the reviewer gave an action its verdict: every rule it considered and what each gave, and how the
 * decision engine made a verdict of them. JSON, as `warden policy explain --json` prints it and the
 * reviewer's explain endpoint answers.
 */
export interface ReviewExplanation {
  action: { tool: string; kind: string; input: Record<string, unknown> };
  /** The verdict as enforced. */
  verdict: VerdictKind;
  /** What the reviewer found when the verdict was made advisory (async mode, or below the async threshold). */
  observed_verdict?: VerdictKind;
  /** matrix, rule, validator, breaker, ladder; disabled or error when the review stopped before the rules. */
  decided_by: string;
  /** The rule or validator that decided. */
  decided_by_name?: string;
  /** How the decision engine got there, in sentences. */
  why: string[];
  /** The verdict's reasons, as the agent is told them. */
  reasons: string[];
  pipeline?: string;
  risk: { score: number; level: string; factors: string[] };
  rationality?: { score: number; level: string; issues: string[] };
  matrix?: { base: VerdictKind; adjusted: VerdictKind };
  /** Strongest first, as the engine weighs them. */
  candidates: Candidate[];
  rules: RuleExplanation[];
  /** Rules not evaluated: switched off by name, by their pack, or `enabled: false`. */
  switched_off: string[];
  rule_errors: string[];
}

function ruleExplanation(record: RecordedRule): RuleExplanation {
  const { finding } = record;
  const result = !record.ran ? 'not_needed' : record.error !== undefined ? 'failed' : finding ? 'matched' : 'not_matched';
  return {
    rule: record.name,
    origin: BUILT_IN.has(record.name) ? 'built-in' : 'custom',
    result,
    shadow: record.shadow,
    description: record.description,
    ...(finding ? { verdict: finding.verdict, score: finding.score, reason: finding.reason } : {}),
    ...(record.conditions ? { conditions: record.conditions } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
  };
}

function candidatesOf({ input }: DecisionRecord): Candidate[] {
  const candidates: Candidate[] = [];
  for (const f of input.findings ?? []) candidates.push({ source: 'rule', name: f.rule, verdict: f.verdict, score: f.score });
  for (const v of (input.validations ?? []).filter((v) => !v.shadow)) candidates.push({ source: 'validator', name: v.validator, verdict: validationVerdict(v) });
  for (const b of input.openBreakers ?? []) candidates.push({ source: 'breaker', name: b.breaker, verdict: 'block' });
  if (input.ladder && !input.ladder.allowed) candidates.push({ source: 'ladder', name: `level ${input.ladder.level}`, verdict: 'require_approval' });
  return candidates;
}

const score = (n: number) => n.toFixed(2);

/** The decision engine's steps for this action, in words (decision/decision-engine.ts does them). */
function whySentences(record: DecisionRecord, candidates: readonly Candidate[]): string[] {
  const { decision, input } = record;
  const { matrix } = decision;
  const why = [`Risk ${score(input.risk.score)} (${matrix.risk}) and rationality ${score(input.rationality.score)} (${matrix.rationality}): the matrix gives ${matrix.base}.`];
  if (matrix.adjusted !== matrix.base) {
    const because =
      input.sideEffects.severity === 'critical'
        ? 'critical side effects always block'
        : input.firstTime && matrix.base === 'warn'
          ? "a first-time action's warn relaxes to allow"
          : 'a high or critical pattern on the session escalates a warn to modify';
    why.push(`Adjusted to ${matrix.adjusted}: ${because}.`);
  }
  if (candidates.length) {
    why.push(`Weighed against it, strongest first (block > require_approval > modify > warn > allow, then by score): ${candidates.map((c) => `${c.verdict} from ${c.source} ${c.name}${c.score !== undefined ? ` (${score(c.score)})` : ''}`).join('; ')}.`);
  }
  const winner = decision.source === 'matrix' ? undefined : candidates.find((c) => c.source === decision.source && (decision.decidedBy === undefined || c.name === decision.decidedBy));
  if (!winner) why.push(candidates.length ? 'None asks for more than the matrix: the matrix decides.' : 'No rule, validator, breaker or ladder objected: the matrix decides.');
  else {
    const tie = candidates.filter((c) => c.verdict === winner.verdict).length > 1;
    const against = winner.verdict === matrix.adjusted ? `the matrix gives the same, and a ${winner.source} that reaches it is named as the source` : `it is stronger than the matrix's ${matrix.adjusted}`;
    why.push(`${winner.source[0]!.toUpperCase()}${winner.source.slice(1)} ${winner.name} decides: ${winner.verdict} is the strongest verdict weighed${tie ? ', and it comes first among those that give it' : ''}; ${against}.`);
  }
  const weighed = winner?.verdict ?? matrix.adjusted;
  if (weighed === 'modify' && decision.verdict === 'warn') why.push('A modify needs a rewrite of the input and Warden has none for this action: it becomes a warning.');
  if (record.observed) {
    why.push(
      record.mode === 'async'
        ? `The review runs in async mode: the action proceeds, and ${record.observed} is advisory.`
        : `Decided by the matrix below the async threshold (risk ${score(input.risk.score)} < ${record.asyncThreshold}): the action proceeds, and ${record.observed} is advisory.`,
    );
  }
  return why;
}

/** An explanation of a review that stopped before the rules: review switched off, or an action kind Warden does not know. */
function bareExplanation(action: ProposedAction, result: ReviewResult): ReviewExplanation {
  const { verdict } = result;
  return {
    action: { tool: action.tool, kind: action.kind, input: action.input },
    verdict: verdict.verdict,
    decided_by: verdict.decided_by ?? 'error',
    why: [...verdict.reasons],
    reasons: verdict.reasons,
    risk: { score: verdict.risk.score, level: verdict.risk.severity, factors: verdict.risk.factors },
    candidates: [],
    rules: [],
    switched_off: [],
    rule_errors: [],
  };
}

/**
 * Reviews an action with a recorder and explains the verdict: the same review as any other (StepReviewer
 * .review), every rule evaluated afresh rather than read from the analysis cache. It is a review: the
 * session records the action, as it would.
 */
export function explainReview(reviewer: StepReviewer, action: ProposedAction, address: SessionAddress): ReviewExplanation {
  const recording = new RecordingReviewer();
  const result = reviewer.review(action, address, recording);
  const record = recording.decision;
  if (!record) return bareExplanation(action, result);
  const { verdict } = result;
  const order = new Map(reviewer.ruleNames.map((name, i) => [name, i]));
  const rules = recording.rules.map(ruleExplanation).sort((a, b) => (order.get(a.rule) ?? order.size) - (order.get(b.rule) ?? order.size));
  const candidates = candidatesOf(record);
  const { decision, input } = record;
  return {
    action: { tool: action.tool, kind: action.kind, input: action.input },
    verdict: verdict.verdict,
    ...(record.observed ? { observed_verdict: record.observed } : {}),
    decided_by: decision.source,
    ...(decision.decidedBy !== undefined ? { decided_by_name: decision.decidedBy } : {}),
    why: whySentences(record, candidates),
    reasons: verdict.reasons,
    ...(record.pipeline ? { pipeline: record.pipeline } : {}),
    risk: { score: input.risk.score, level: decision.matrix.risk, factors: input.risk.factors ?? [] },
    rationality: { score: input.rationality.score, level: decision.matrix.rationality, issues: input.rationality.issues ?? [] },
    matrix: { base: decision.matrix.base, adjusted: decision.matrix.adjusted },
    candidates,
    rules,
    switched_off: [...record.switchedOff],
    rule_errors: result.ruleErrors.map((e) => e.message),
  };
}
