import { ACTION_KINDS, type PayloadOf, type VerdictKind } from '@warden/contracts';
import { BASE_RISK, parseAction } from './action-intent.js';
import { BUILT_IN_RULES, type ReviewRule, type RuleFinding } from './review-rules.js';
import { severityOf } from './risk-severity.js';

export type ProposedAction = PayloadOf<'action.proposed'>;
export type Verdict = PayloadOf<'review.verdict'>;

const VERDICT_STRENGTH: Record<VerdictKind, number> = { allow: 0, warn: 1, modify: 2, require_approval: 3, block: 4 };


/**
 * Reviews one proposed action: works out its intent, runs the rules, and lets the strongest finding
 * decide (block > require_approval > modify > warn > allow). Without findings an action is allowed with
 * its intent's base risk. Rule-based and stateless; session context, rationality and side effects come
 * with the full step reviewer.
 */
export class ActionReviewer {
  constructor(private readonly rules: ReviewRule[] = BUILT_IN_RULES) {}

  review(action: ProposedAction): Verdict {
    const started = performance.now();
    const copy = { kind: action.kind, tool: action.tool, input: action.input };
    if (!(ACTION_KINDS as readonly string[]).includes(action.kind)) {
      return {
        action_id: action.action_id,
        verdict: 'block',
        reasons: [`Unknown action kind "${action.kind}": expected one of ${ACTION_KINDS.join(', ')}.`],
        risk: { score: 1, severity: 'critical', factors: ['unknown_action_kind'] },
        confidence: 1,
        rule_hits: ['unknown_action_kind'],
        action: copy,
        review_ms: performance.now() - started,
      };
    }
    const parsed = parseAction(action.kind, action.tool, action.input);
    const findings = this.rules.map((r) => r.evaluate(parsed)).filter((f): f is RuleFinding => f !== null);
    findings.sort((a, b) => VERDICT_STRENGTH[b.verdict] - VERDICT_STRENGTH[a.verdict] || b.score - a.score);
    const strongest = findings[0];
    const score = Math.max(BASE_RISK[parsed.intent], ...findings.map((f) => f.score));
    const factors = [...new Set([parsed.intent, ...findings.flatMap((f) => f.factors)])];
    const verdict: Verdict = {
      action_id: action.action_id,
      verdict: strongest?.verdict ?? 'allow',
      reasons: findings.length ? findings.map((f) => f.reason) : [`${action.tool}: no rule objects (${parsed.intent}).`],
      risk: { score, severity: severityOf(score), factors },
      confidence: strongest ? 0.9 : 0.6,
      rule_hits: findings.map((f) => f.rule),
      action: copy,
      review_ms: performance.now() - started,
    };
    const alternatives = findings.map((f) => f.alternative).filter((a): a is string => !!a);
    if (alternatives.length) verdict.alternatives = alternatives;
    return verdict;
  }
}
