import type { ReviewRule, RuleContext, RuleFinding } from './review-rule.js';
import { severityOf } from './rule-severity.js';

/** What a built-in rule's check returns; the rule adds its name and the severity its score implies. */
export type Finding = Omit<RuleFinding, 'rule' | 'severity'>;

export interface BuiltInRuleSpec {
  name: string;
  description: string;
  essential?: boolean;
  reads: 'action' | 'session';
  check(context: RuleContext): Finding | null;
}

export function builtInRule({ name, description, essential = false, reads, check }: BuiltInRuleSpec): ReviewRule {
  return {
    name,
    description,
    essential,
    reads,
    evaluate(context) {
      const finding = check(context);
      return finding && { rule: name, severity: severityOf(finding.score), ...finding };
    },
  };
}
