import type { Severity, VerdictKind } from '@warden/contracts';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ReviewSession } from '../session/review-session.js';

/** What a rule sees: the parsed action, the session it belongs to, and the limits in force. */
export interface RuleContext {
  action: ParsedAction;
  session: ReviewSession;
  limits: { maxFileOperations: number };
  /** Whether a path lies inside the session's expected scope. */
  inScope(path: string): boolean;
  /** The agent's automation level as the reviewer last read it (undefined: none, or the ladder is off). */
  agentLevel?: number;
  /** USD the session's run has cost, as the breaker last published it (undefined: nothing yet). */
  spendUsd?: number;
  /** The deployment's labels (the reviewer's `deployment` settings). */
  deployment?: { environment: string; cluster: string; labels: Record<string, string> };
}

/** What a rule found; the strongest finding decides (block > require_approval > modify > warn > allow). */
export interface RuleFinding {
  rule: string;
  verdict: VerdictKind;
  /** Risk this finding implies, 0-1. */
  score: number;
  severity: Severity;
  factors: string[];
  /** Written for the agent (a model) and for people: what is wrong and what to do. */
  reason: string;
  alternative?: string;
  /** For verdict `modify`: the input to run instead. */
  modifiedInput?: Record<string, unknown>;
}

export interface ReviewRule {
  readonly name: string;
  readonly description: string;
  /** Essential rules block what is never allowed; `rules.builtin: essential` keeps only these. */
  readonly essential?: boolean;
  /**
   * `action`: the finding depends on the action alone, so it is cached with the action's analysis;
   * `session`: it reads the session (history, phase, scope) and runs on every review.
   */
  readonly reads: 'action' | 'session';
  /** What the action must have for the rule to find anything; the engine runs it only then (see RuleNeeds). */
  readonly needs?: RuleNeeds;
  evaluate(context: RuleContext): RuleFinding | null;
  /** For an explaining review: what each of the rule's conditions gave on this action (custom rules say; built-in ones do not). */
  explain?(context: RuleContext): ConditionValue[];
}

/** One condition of a rule, or one part of a CEL expression, and what it gave on an action. */
export interface ConditionValue {
  /** As written: `match.command: terraform apply*`, or the CEL (sub)expression. */
  condition: string;
  /** What it gave (JSON: a CEL int is a number); absent when it failed. */
  value?: unknown;
  /** Why it could not be worked out. */
  error?: string;
  /** Its operands: each side of && and ||, what a comparison or a call compared. */
  parts?: ConditionValue[];
}

/**
 * Without one of these the rule finds nothing: the engine keeps such rules in an index and runs them only
 * for an action that has one, so hundreds of custom rules about programs and hosts a line does not name
 * cost a look-up each of the line's programs and origins, not a test each.
 */
export interface RuleNeeds {
  /** Programs as written: the first word of a simple command of the shell line (`programsWritten`). */
  programs?: readonly string[];
  /** `scheme://host[:port]` in lower case, of a URL the action names (`originsNamed`). */
  origins?: readonly string[];
  /** Names of the programs a simple command runs (ShellSegment.name: `rm` of `/bin/rm`). */
  commands?: readonly string[];
}
