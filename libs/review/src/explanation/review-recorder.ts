import type { VerdictKind } from '@warden/contracts';
import type { Decision, DecisionInput } from '../decision/decision-engine.js';
import type { RuleRecord, RuleRecorder } from '../rules/rules-engine.js';
import type { ConditionValue, RuleContext } from '../rules/review-rule.js';

/** What the reviewer decided, and from what, as an explaining review is told it. */
export interface DecisionRecord {
  decision: Decision;
  /** What the decision engine weighed (with the ladder's ruling when it decided a second time). */
  input: DecisionInput;
  enforced: VerdictKind;
  /** The verdict before it was made advisory (async mode, or below the async threshold). */
  observed?: VerdictKind;
  mode: 'blocking' | 'async';
  pipeline: string | undefined;
  switchedOff: readonly string[];
  asyncThreshold: number;
}

/**
 * An explaining review's ears: StepReviewer.review tells it every rule the engine considered (with the
 * context it ran in) and the decision; it keeps them, and the parts of each custom rule's conditions.
 */
export interface ReviewRecorder {
  rule: RuleRecorder;
  decided(record: DecisionRecord): void;
}

/** One rule as the engine considered it, with what its conditions gave. */
export interface RecordedRule extends Omit<RuleRecord, 'rule'> {
  name: string;
  description: string;
  conditions?: ConditionValue[];
}

/** Keeps what a review tells it. */
export class RecordingReviewer implements ReviewRecorder {
  readonly rules: RecordedRule[] = [];
  decision: DecisionRecord | undefined;

  readonly rule: RuleRecorder = (record: RuleRecord, context: RuleContext) => {
    const { rule, ...rest } = record;
    const recorded: RecordedRule = { ...rest, name: rule.name, description: rule.description };
    // A rule that did not run is not asked about its conditions: the engine never evaluated them.
    if (record.ran && rule.explain) {
      try {
        recorded.conditions = rule.explain(context);
      } catch (error) {
        recorded.conditions = [{ condition: 'conditions', error: (error as Error).message }];
      }
    }
    this.rules.push(recorded);
  };

  decided(record: DecisionRecord): void {
    this.decision = record;
  }
}
