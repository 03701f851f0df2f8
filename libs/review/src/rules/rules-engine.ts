import { VERDICT_STRENGTH } from '../verdict-strength.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { originsNamed, programsWritten } from './action-text.js';
import type { ReviewRule, RuleContext, RuleFinding } from './review-rule.js';

export interface RuleEvaluation {
  /** Enforced findings, strongest first: block > require_approval > modify > warn > allow, then by score. */
  findings: RuleFinding[];
  /** Findings of shadow rules: counted and reported, never enforced. */
  shadow: RuleFinding[];
  /** Rules that threw; the others still ran. */
  errors: { rule: string; message: string }[];
}

/**
 * What the engine did with one rule, told to an explaining review: whether it ran (a rule whose needs the
 * action lacks does not), what it found, and whether it is a shadow rule.
 */
export interface RuleRecord {
  rule: ReviewRule;
  ran: boolean;
  finding: RuleFinding | null;
  error?: string;
  shadow: boolean;
}

/** Told each rule the engine considered, with the context it was evaluated in. */
export type RuleRecorder = (record: RuleRecord, context: RuleContext) => void;

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

/**
 * Rules in the order they run, with an index of those that need a program or an origin (`RuleNeeds`):
 * such a rule runs only for an action that has one.
 */
interface RuleList {
  rules: readonly ReviewRule[];
  /** Positions of the rules that need each program or origin. */
  byProgram: ReadonlyMap<string, readonly number[]>;
  byOrigin: ReadonlyMap<string, readonly number[]>;
  byCommand: ReadonlyMap<string, readonly number[]>;
  /** Whether the rule at each position runs only when the index names it. */
  indexed: readonly boolean[];
  anyIndexed: boolean;
}

interface RuleSet {
  all: RuleList;
  action: RuleList;
  session: RuleList;
}

function ruleList(rules: readonly ReviewRule[]): RuleList {
  const byProgram = new Map<string, number[]>();
  const byOrigin = new Map<string, number[]>();
  const byCommand = new Map<string, number[]>();
  const add = (index: Map<string, number[]>, key: string, position: number) => {
    const positions = index.get(key);
    if (!positions) index.set(key, [position]);
    else if (positions[positions.length - 1] !== position) positions.push(position);
  };
  const indexed = rules.map((rule, position) => {
    const { programs = [], origins = [], commands = [] } = rule.needs ?? {};
    for (const program of programs) add(byProgram, program, position);
    for (const origin of origins) add(byOrigin, origin, position);
    for (const command of commands) add(byCommand, command, position);
    return programs.length + origins.length + commands.length > 0;
  });
  return { rules, byProgram, byOrigin, byCommand, indexed, anyIndexed: indexed.includes(true) };
}

function ruleSet(rules: ReviewRule[]): RuleSet {
  return { all: ruleList(rules), action: ruleList(rules.filter((r) => r.reads === 'action')), session: ruleList(rules.filter((r) => r.reads === 'session')) };
}

const NO_POSITIONS: readonly number[] = [];

/** Which indexed rules the action has what they need for: one look-up per program and origin it has. */
function neededBy(list: RuleList, action: ParsedAction): Uint8Array {
  const wanted = new Uint8Array(list.rules.length);
  if (list.byProgram.size) {
    for (const program of programsWritten(action)) for (const position of list.byProgram.get(program) ?? NO_POSITIONS) wanted[position] = 1;
  }
  if (list.byOrigin.size) {
    for (const origin of originsNamed(action)) for (const position of list.byOrigin.get(origin) ?? NO_POSITIONS) wanted[position] = 1;
  }
  if (list.byCommand.size) {
    for (const segment of action.segments) for (const position of list.byCommand.get(segment.name) ?? NO_POSITIONS) wanted[position] = 1;
  }
  return wanted;
}

function run(list: RuleList, context: RuleContext, findings: RuleFinding[], errors: RuleEvaluation['errors'], record?: RuleRecorder, shadow = false): void {
  const { rules, indexed } = list;
  const wanted = list.anyIndexed ? neededBy(list, context.action) : undefined;
  for (let position = 0; position < rules.length; position++) {
    if (wanted && indexed[position] && !wanted[position]) {
      record?.({ rule: rules[position]!, ran: false, finding: null, shadow }, context);
      continue;
    }
    const rule = rules[position]!;
    try {
      const finding = rule.evaluate(context);
      if (finding) findings.push(finding);
      record?.({ rule, ran: true, finding, shadow }, context);
    } catch (error) {
      // One broken rule must not take the review down: the others still decide.
      const message = `Rule ${rule.name} failed: ${error instanceof Error ? error.message : String(error)}`;
      errors.push({ rule: rule.name, message });
      record?.({ rule, ran: true, finding: null, error: message, shadow }, context);
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
  /** Names of the rules switched off (rules.disabled, a pack off, `enabled: false`), for an explanation. */
  readonly switchedOff: readonly string[];

  constructor(rules: ReviewRule[], options: RulesEngineOptions = {}) {
    const seen = new Set<string>();
    for (const rule of rules) {
      if (seen.has(rule.name)) throw new DuplicateRuleError(rule.name);
      seen.add(rule.name);
    }
    const disabled = new Set(options.disabled ?? []);
    const shadow = new Set(options.shadow ?? []);
    const active = rules.filter((r) => !disabled.has(r.name));
    this.switchedOff = rules.filter((r) => disabled.has(r.name)).map((r) => r.name);
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
    return [...this.enforced.all.rules, ...this.shadowed.all.rules].map((r) => r.name);
  }

  /**
   * Evaluates every rule, or only those that read the action alone (`action`) or the session (`session`).
   * An explaining review passes `record`, told every rule considered.
   */
  evaluate(context: RuleContext, only?: 'action' | 'session', record?: RuleRecorder): RuleEvaluation {
    const evaluation: RuleEvaluation = { findings: [], shadow: [], errors: [] };
    run(only ? this.enforced[only] : this.enforced.all, context, evaluation.findings, evaluation.errors, record);
    const shadowRules = only ? this.shadowed[only] : this.shadowed.all;
    if (shadowRules.rules.length) run(shadowRules, context, evaluation.shadow, evaluation.errors, record, true);
    if (evaluation.findings.length > 1) evaluation.findings.sort(byStrength);
    if (evaluation.shadow.length > 1) evaluation.shadow.sort(byStrength);
    return evaluation;
  }
}
