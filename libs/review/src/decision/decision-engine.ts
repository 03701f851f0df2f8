import type { VerdictKind } from '@warden/contracts';
import type { RiskAnalysis } from '../analysis/risk-calculator.js';
import type { RationalityAnalysis } from '../analysis/rationality-checker.js';
import type { SideEffectAnalysis } from '../analysis/side-effect-analyzer.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { RuleFinding } from '../rules/review-rule.js';
import type { ValidationFinding } from '../validation/tool-validator.js';
import { VERDICT_STRENGTH } from '../verdict-strength.js';
import { proposeModification } from './action-modifications.js';

export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';
export type RationalityLevel = 'low' | 'medium' | 'high';

/** Seed 001's decision matrix: {risk level, rationality level} → decision. */
export const DECISION_MATRIX: Record<RiskLevel, Record<RationalityLevel, VerdictKind>> = {
  low: { high: 'allow', medium: 'allow', low: 'warn' },
  medium: { high: 'allow', medium: 'warn', low: 'modify' },
  high: { high: 'warn', medium: 'modify', low: 'block' },
  critical: { high: 'block', medium: 'block', low: 'block' },
};


export interface DecisionThresholds {
  risk: { low_threshold: number; medium_threshold: number; high_threshold: number; critical_threshold: number };
  rationality: { high_threshold: number; medium_threshold: number };
}

/** Everything the engine weighs. Only the three scores are required; the rest comes from a full review. */
export interface DecisionInput {
  risk: Pick<RiskAnalysis, 'score'> & Partial<RiskAnalysis>;
  rationality: Pick<RationalityAnalysis, 'score'> & Partial<RationalityAnalysis>;
  sideEffects: Pick<SideEffectAnalysis, 'severity'> & Partial<SideEffectAnalysis>;
  action?: ParsedAction;
  findings?: readonly RuleFinding[];
  validations?: readonly ValidationFinding[];
  /** No similar action earlier in the session. */
  firstTime?: boolean;
  /** A pattern detector reported a high or critical pattern on the session. */
  dangerousPattern?: boolean;
  /** Open breakers of the session. */
  openBreakers?: readonly { breaker: string; reason?: string; suggestion?: string }[];
  /** The automation ladder's ruling, when the agent has a level. */
  ladder?: { level: number; levelName: string; action: string; allowed: boolean };
  /** The session declared a goal or expected paths, and how much history the review could use. */
  contextDeclared?: boolean;
  historyLength?: number;
}

export type DecisionSource = 'matrix' | 'rule' | 'validator' | 'breaker' | 'ladder';

export interface Decision {
  verdict: VerdictKind;
  source: DecisionSource;
  /** The rule or validator that decided, when one did: the first of the strongest, in the order findings are weighed. */
  decidedBy?: string;
  reasoning: { primary_reason: string; all_reasons: string[]; explanation: string };
  confidence: number;
  alternatives: string[];
  modifiedInput?: Record<string, unknown>;
  matrix: { risk: RiskLevel; rationality: RationalityLevel; base: VerdictKind; adjusted: VerdictKind };
}

/**
 * Seed 001's decision engine: the risk × rationality matrix, its decision rules (critical side effects
 * always block, a first-time warn relaxes to allow, a dangerous pattern escalates a warn to modify), and
 * then the findings of the rules, the tool validators, the breaker and the ladder — the strongest wins.
 */
export class DecisionEngine {
  constructor(private readonly thresholds: DecisionThresholds) {}

  riskLevel(score: number): RiskLevel {
    const t = this.thresholds.risk;
    if (score >= t.critical_threshold) return 'critical';
    if (score >= t.medium_threshold) return 'high';
    if (score >= t.low_threshold) return 'medium';
    return 'low';
  }

  rationalityLevel(score: number): RationalityLevel {
    const t = this.thresholds.rationality;
    if (score >= t.high_threshold) return 'high';
    if (score >= t.medium_threshold) return 'medium';
    return 'low';
  }

  decide(input: DecisionInput): Decision {
    const riskLevel = this.riskLevel(input.risk.score);
    const rationalityLevel = this.rationalityLevel(input.rationality.score);
    const base = DECISION_MATRIX[riskLevel][rationalityLevel];
    const adjusted = this.applyDecisionRules(base, input);

    let verdict = adjusted;
    let source: DecisionSource = 'matrix';
    let decidedBy: string | undefined;
    // A rule, validator, breaker or ladder that reaches the matrix's verdict is named as its source: it says more.
    const raise = (candidate: VerdictKind, from: DecisionSource, name?: string) => {
      const stronger = VERDICT_STRENGTH[candidate] - VERDICT_STRENGTH[verdict];
      if (stronger > 0 || (stronger === 0 && source === 'matrix' && candidate !== 'allow')) {
        verdict = candidate;
        source = from;
        decidedBy = name;
      }
    };
    const findings = input.findings ?? [];
    const validations = (input.validations ?? []).filter((v) => !v.shadow);
    for (const finding of findings) raise(finding.verdict, 'rule', finding.rule);
    for (const validation of validations) raise(validationVerdict(validation), 'validator', validation.validator);
    if (input.openBreakers?.length) raise('block', 'breaker');
    if (input.ladder && !input.ladder.allowed) raise('require_approval', 'ladder');

    let modifiedInput: Record<string, unknown> | undefined;
    const notes: string[] = [];
    if (verdict === 'modify') {
      const ruled = findings.find((f) => f.verdict === 'modify' && f.modifiedInput);
      const proposed = ruled ? undefined : input.action && proposeModification(input.action);
      modifiedInput = ruled?.modifiedInput ?? proposed?.input;
      if (proposed) notes.push(`Warden changed the action: ${proposed.description}`);
      if (!modifiedInput) {
        // The matrix asks for a change Warden cannot make itself. Holding an action for a person is the rules' call
        // (they name what would be destroyed); from the matrix alone the agent is told the concern, by name.
        verdict = 'warn';
        notes.push(matrixConcern(input, verdict));
      }
    }

    // A warning from the matrix alone says what it is about, never just "no concerns".
    if (verdict === 'warn' && source === 'matrix' && !notes.length) notes.push(matrixConcern(input, verdict));
    const reasons = this.reasons(input, findings, validations, notes);
    const decision: Decision = {
      verdict,
      source,
      reasoning: {
        primary_reason: reasons[0]!,
        all_reasons: reasons,
        explanation: `${verdict} (${source === 'matrix' ? `risk ${riskLevel}, rationality ${rationalityLevel}` : `decided by the ${source}`}): ${reasons[0]}`,
      },
      confidence: this.confidence(input, source),
      alternatives: this.alternatives(input, findings, validations, verdict),
      matrix: { risk: riskLevel, rationality: rationalityLevel, base, adjusted },
    };
    if (modifiedInput) decision.modifiedInput = modifiedInput;
    if (decidedBy !== undefined) decision.decidedBy = decidedBy;
    return decision;
  }

  private applyDecisionRules(base: VerdictKind, input: DecisionInput): VerdictKind {
    if (input.sideEffects.severity === 'critical') return 'block';
    if (input.firstTime && base === 'warn') return 'allow';
    if (input.dangerousPattern && base === 'warn') return 'modify';
    return base;
  }

  private reasons(input: DecisionInput, findings: readonly RuleFinding[], validations: readonly ValidationFinding[], notes: string[]): string[] {
    const reasons: string[] = [];
    for (const breaker of input.openBreakers ?? []) {
      const advice = breaker.suggestion ? ` ${breaker.suggestion}` : '';
      // A spent run or phase budget does not close by waiting: its suggestion says what an operator does.
      const wait = breaker.reason === 'RUN_BUDGET_EXCEEDED' || breaker.reason === 'PHASE_BUDGET_EXCEEDED' ? '' : ' Stop and wait for it to close or for an operator to reset it.';
      reasons.push(`The ${breaker.breaker} breaker of this session is open${breaker.reason ? `: ${breaker.reason}` : ''}.${advice}${wait}`);
    }
    for (const finding of findings) reasons.push(finding.reason);
    for (const validation of validations) reasons.push(validationReason(validation));
    if (input.ladder && !input.ladder.allowed) {
      reasons.push(`At automation level ${input.ladder.level} (${input.ladder.levelName}) ${input.ladder.action.replaceAll('_', ' ')} actions of this risk need a person's approval.`);
    }
    if (input.risk.score >= this.thresholds.risk.high_threshold) {
      const factors = input.risk.factors?.length ? input.risk.factors.join(', ') : `score ${input.risk.score}`;
      reasons.push(`High risk action: ${factors}.`);
    }
    if (input.rationality.score < this.thresholds.rationality.medium_threshold) {
      const issues = input.rationality.issues?.length ? input.rationality.issues.join(', ') : `score ${input.rationality.score}`;
      reasons.push(`Low rationality: ${issues}.`);
    }
    const effects = input.sideEffects.effects ?? [];
    if (effects.length) {
      const shown = effects.slice(0, 4).map((e) => `${e.type.replaceAll('_', ' ')} of ${e.target}${e.reversible ? '' : ' (irreversible)'}`);
      reasons.push(`Side effects: ${shown.join('; ')}${effects.length > 4 ? `; and ${effects.length - 4} more` : ''}.`);
    }
    reasons.push(...notes);
    if (!reasons.length) reasons.push(`No concerns: ${input.action?.intent.replaceAll('_', ' ') ?? 'the action'} with ${this.riskLevel(input.risk.score)} risk.`);
    return reasons.slice(0, 32);
  }

  private confidence(input: DecisionInput, source: DecisionSource): number {
    if (source === 'breaker') return 1;
    if (source === 'rule' || source === 'validator') {
      const strongest = Math.max(0, ...(input.findings ?? []).map((f) => f.score));
      return strongest >= 0.95 ? 0.95 : 0.85;
    }
    if (source === 'ladder') return 0.9;
    // The matrix is surer when it knows the task and has seen the session for a while.
    let confidence = 0.6;
    if (input.contextDeclared) confidence += 0.15;
    if ((input.historyLength ?? 0) >= 3) confidence += 0.1;
    return Math.min(confidence, 0.85);
  }

  private alternatives(input: DecisionInput, findings: readonly RuleFinding[], validations: readonly ValidationFinding[], verdict: VerdictKind): string[] {
    if (verdict === 'allow') return [];
    const alternatives: string[] = [];
    for (const finding of findings) if (finding.alternative) alternatives.push(finding.alternative);
    for (const validation of validations) {
      if (validation.result.kind === 'require_prerequisites') for (const check of validation.result.checks) alternatives.push(`First: ${check.description} (${check.success_criteria}).`);
      alternatives.push(...validation.alternatives);
    }
    if (input.rationality.score < this.thresholds.rationality.high_threshold) alternatives.push(...(input.rationality.suggestions ?? []));
    if (verdict !== 'warn') alternatives.push(...(input.sideEffects.mitigations ?? []));
    return [...new Set(alternatives)].slice(0, 16);
  }
}

/** What made the matrix object, in words: the risk factors and the rationality issues it saw. */
function matrixConcern(input: DecisionInput, verdict: VerdictKind): string {
  const factors = (input.risk.factors ?? []).filter((f) => f !== 'file_read' && f !== 'message').map((f) => f.replaceAll('_', ' '));
  const issues = (input.rationality.issues ?? []).map((i) => i.replaceAll('_', ' '));
  const parts = [factors.length ? `risk ${input.risk.score} from ${factors.join(', ')}` : `risk ${input.risk.score}`, ...(issues.length ? [`rationality issues: ${issues.join(', ')}`] : [])];
  return verdict === 'require_approval'
    ? `Warden has no safer form of this action to offer (${parts.join('; ')}): a person must approve it.`
    : `Warden has no safer form of this action to offer (${parts.join('; ')}): go ahead only if that is what the task needs.`;
}

/** Seed 004's validation results as verdicts: prerequisites first means "not yet" (block until checked). */
export function validationVerdict(validation: ValidationFinding): VerdictKind {
  switch (validation.result.kind) {
    case 'caution':
      return 'warn';
    case 'require_confirmation':
      return 'require_approval';
    case 'block':
    case 'require_prerequisites':
      return 'block';
  }
}

function validationReason(validation: ValidationFinding): string {
  const result = validation.result;
  switch (result.kind) {
    case 'caution':
      return result.warning;
    case 'require_confirmation':
      return `${result.reason}${result.risks.length ? ` Risks: ${result.risks.map((r) => r.description).join('; ')}.` : ''}`;
    case 'block':
      return result.reason;
    case 'require_prerequisites':
      return `${result.reason} Check first: ${[...result.checks].sort((a, b) => b.priority - a.priority).map((c) => c.description).join('; ')}.`;
  }
}
