import { VERDICT_STRENGTH } from '../verdict-strength.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import type { ReviewRule, RuleContext, RuleFinding } from './review-rule.js';

export interface RuleEvaluation {
  /** Enforced findings, strongest first: block > require_approval > modify > warn > allow, then by score. */
  findings: RuleFinding[];
  /** Findings of shadow rules: counted and reported, never enforced. */
  shadow: RuleFinding[];
  /** Rules that threw; the others still ran. */
  errors: { rule: string; message: string }[];
}

export interface RulesEngineOptions {
  /** Rule names not evaluated. Names of no rule here are ignored: the lists also name validators. */
  disabled?: readonly string[];
  /** Rule names evaluated and reported in `shadow`, never enforced. */
  shadow?: readonly string[];
}

export class DuplicateRuleError extends Error {
  constructor(readonly rule: string) {
    super(`Rule "${rule}" is defined twice: rule names must be unique (a custom rule cannot reuse a built-in name).`);
    this.name = 'DuplicateRuleError';
  }
}


/** Strongest first: by verdict, then by score. */
export function byStrength(a: RuleFinding, b: RuleFinding): number {
  return VERDICT_STRENGTH[b.verdict] - VERDICT_STRENGTH[a.verdict] || b.score - a.score;
}

interface RuleSet {
  all: ReviewRule[];
  action: ReviewRule[];
  session: ReviewRule[];
}

function ruleSet(rules: ReviewRule[]): RuleSet {
  return { all: rules, action: rules.filter((r) => r.reads === 'action'), session: rules.filter((r) => r.reads === 'session') };
}

function run(rules: readonly ReviewRule[], context: RuleContext, findings: RuleFinding[], errors: RuleEvaluation['errors']): void {
  for (const rule of rules) {
    try {
      const finding = rule.evaluate(context);
      if (finding) findings.push(finding);
    } catch (error) {
      // One broken rule must not take the review down: the others still decide.
      errors.push({ rule: rule.name, message: `Rule ${rule.name} failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
}

/**
 * Runs the review rules on an action (seed 001's rule engine). Rules are split once by what they read,
 * so that the action-only findings can be computed once per action and cached, and the session rules
 * run on every review.
 */
export class RulesEngine {
  private readonly enforced: RuleSet;
  private readonly shadowed: RuleSet;

  constructor(rules: ReviewRule[], options: RulesEngineOptions = {}) {
    const seen = new Set<string>();
    for (const rule of rules) {
      if (seen.has(rule.name)) throw new DuplicateRuleError(rule.name);
      seen.add(rule.name);
    }
    const disabled = new Set(options.disabled ?? []);
    const shadow = new Set(options.shadow ?? []);
    const active = rules.filter((r) => !disabled.has(r.name));
    this.enforced = ruleSet(active.filter((r) => !shadow.has(r.name)));
    this.shadowed = ruleSet(active.filter((r) => shadow.has(r.name)));
  }

  /** The built-in rules `rules.builtin` keeps (all, the essential ones, or none), then the custom ones. */
  static select(builtin: 'all' | 'essential' | 'none', custom: ReviewRule[]): ReviewRule[] {
    const own = builtin === 'all' ? BUILT_IN_RULES : builtin === 'essential' ? BUILT_IN_RULES.filter((r) => r.essential) : [];
    return [...own, ...custom];
  }

  /** Names of the rules evaluated: enforced ones, then shadow ones (disabled rules are left out). */
  get names(): string[] {
    return [...this.enforced.all, ...this.shadowed.all].map((r) => r.name);
  }

  /** Evaluates every rule, or only those that read the action alone (`action`) or the session (`session`). */
  evaluate(context: RuleContext, only?: 'action' | 'session'): RuleEvaluation {
    const evaluation: RuleEvaluation = { findings: [], shadow: [], errors: [] };
    run(only ? this.enforced[only] : this.enforced.all, context, evaluation.findings, evaluation.errors);
    const shadowRules = only ? this.shadowed[only] : this.shadowed.all;
    if (shadowRules.length) run(shadowRules, context, evaluation.shadow, evaluation.errors);
    if (evaluation.findings.length > 1) evaluation.findings.sort(byStrength);
    if (evaluation.shadow.length > 1) evaluation.shadow.sort(byStrength);
    return evaluation;
  }
}
