import { pathMatcher } from '@warden/actions';
import { Compile } from 'typebox/compile';
import { nameMatcher } from '../parsing/name-matcher.js';
import { VERDICT_STRENGTH } from '../verdict-strength.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import { DEFAULT_SCORES, readPolicyDocument } from './custom-rules.js';
import { compilePolicyCondition, readsSession } from './policy-expression.js';
import type { ReviewRule, RuleContext, RuleFinding } from './review-rule.js';
import { RuleOverrideDefinition, type OverrideVerdict } from './rule-override-definition.js';
import { RULE_PACKS } from './rule-packs.js';
import { severityOf } from './rule-severity.js';

/** An override that cannot be used, named by where it was written: `rules.yaml: overrides[1] (force_push) verdict: …`. */
export class RuleOverrideError extends Error {
  constructor(source: string, override: string, field: string | undefined, detail: string) {
    super(`${source}: ${override} ${field ? `${field}: ` : ''}${detail}`);
    this.name = 'RuleOverrideError';
  }
}

/**
 * Built-in rules no override may weaken: the self_protection pack, which keeps the agent from switching off
 * Warden's supervision of it (its hooks, settings and tokens). Every other rule, and every override, is only
 * enforced while that supervision stands; and an override's conditions can read what the agent itself
 * declares or chooses (its goal, phase, paths), so a scoped exception here would let the supervised agent
 * pick when it may unhook itself. Such an override may only keep the strongest verdict.
 */
export const UNWEAKENED_RULES: readonly string[] = RULE_PACKS.find((p) => p.name === 'self_protection')?.rules ?? [];

/** A factor every overridden finding carries, so that the audit and the metrics tell it from the rule's own verdict. */
const OVERRIDE_FACTOR = 'policy_override';

interface CompiledOverride {
  rule: string;
  verdict: OverrideVerdict;
  reason: string | undefined;
  reads: 'action' | 'session';
  applies: (context: RuleContext) => boolean;
}

const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Levenshtein distance, for "did you mean" on a misspelt rule name. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

function unknownRule(name: string, rules: readonly ReviewRule[]): string {
  const near = rules.map((r) => ({ name: r.name, d: distance(name, r.name) })).filter((r) => r.d <= Math.max(2, Math.floor(name.length / 4))).sort((a, b) => a.d - b.d);
  const hint = near.length ? ` (did you mean ${near.slice(0, 3).map((r) => `"${r.name}"`).join(' or ')}?)` : '';
  return `no built-in rule is named "${name}"${hint}; the built-in rules are listed in apps/reviewer/README.md "Built-in rules, in packs" (a custom rule is changed in its own definition)`;
}

/** One override, checked and compiled: its conditions, joined. Throws a RuleOverrideError naming the field. */
function compileOverride(definition: RuleOverrideDefinition, label: string, source: string, rules: readonly ReviewRule[]): CompiledOverride {
  const fail = (field: string | undefined, detail: string): never => {
    throw new RuleOverrideError(source, label, field, detail);
  };
  const { rule, verdict, reason } = definition;
  if (!rules.some((r) => r.name === rule)) fail('rule', unknownRule(rule, rules));
  if (UNWEAKENED_RULES.includes(rule) && verdict !== 'block') {
    fail('verdict', `${rule} keeps the agent from switching off Warden's supervision of it; an override cannot weaken it (only verdict block is accepted)`);
  }
  const conditions: ((context: RuleContext) => boolean)[] = [];
  let reads: CompiledOverride['reads'] = 'action';
  const paths = listOf(definition.paths);
  if (paths.length) {
    let matches: (path: string) => boolean = () => false;
    try {
      matches = pathMatcher(paths);
    } catch (error) {
      fail('paths', (error as Error).message);
    }
    // Every path: an action that also touches something else is not what the override was written for.
    conditions.push(({ action }) => action.paths.length > 0 && action.paths.every(matches));
  }
  const agents = listOf(definition.agents);
  if (agents.length) {
    const matches = nameMatcher(agents);
    conditions.push(({ session }) => matches(session.agentId));
    reads = 'session';
  }
  const environments = new Set(listOf(definition.environments).map((e) => e.toLowerCase()));
  if (environments.size) {
    conditions.push(({ session }) => session.context.environment !== undefined && environments.has(session.context.environment.toLowerCase()));
    reads = 'session';
  }
  if (definition.when !== undefined) {
    let compiled: ReturnType<typeof compilePolicyCondition> | undefined;
    try {
      compiled = compilePolicyCondition(definition.when);
    } catch (error) {
      fail('when', (error as Error).message);
    }
    if (compiled!.prefilter.test) conditions.push(compiled!.prefilter.test);
    conditions.push(compiled!.condition);
    if (readsSession(definition.when)) reads = 'session';
  }
  return { rule, verdict, reason, reads, applies: (context) => conditions.every((holds) => holds(context)) };
}

const validator = Compile(RuleOverrideDefinition);
const FIELDS = Object.keys(RuleOverrideDefinition.properties);

/**
 * Checks and compiles a policy's overrides against the built-in rules (`rules`, all of them by default):
 * a wrong field, an unknown rule, a self-protection rule weakened, a bad glob or `when` throws a
 * RuleOverrideError naming the source, the override and the field.
 */
export function compileRuleOverrides(definitions: readonly unknown[], source: string, rules: readonly ReviewRule[] = BUILT_IN_RULES): CompiledOverride[] {
  return definitions.map((definition, index) => {
    const named = typeof definition === 'object' && definition !== null && typeof (definition as { rule?: unknown }).rule === 'string' ? ` (${(definition as { rule: string }).rule})` : '';
    const label = `overrides[${index}]${named}`;
    const unexpected = typeof definition === 'object' && definition !== null ? Object.keys(definition).find((key) => !FIELDS.includes(key)) : undefined;
    if (unexpected !== undefined) throw new RuleOverrideError(source, label, unexpected, `unexpected key (an override has ${FIELDS.join(', ')})`);
    if (!validator.Check(definition)) {
      const errors = [...validator.Errors(definition)]
        .filter((e) => e.keyword !== 'boolean')
        .slice(0, 3)
        .map((e) => `${e.instancePath || '/'}: ${e.message}`);
      throw new RuleOverrideError(source, label, undefined, errors.join('; '));
    }
    return compileOverride(definition, label, source, rules);
  });
}

/** The overrides of a policy file (readPolicyDocument), checked as compileRuleOverrides checks them. */
export function loadRuleOverrides(text: string, format: 'yaml' | 'json', source: string): RuleOverrideDefinition[] {
  const { overrides } = readPolicyDocument(text, format, source);
  compileRuleOverrides(overrides, source);
  return overrides as RuleOverrideDefinition[];
}

/**
 * The finding an override makes of a rule's: its verdict, and a score that no longer says more than the
 * verdict (lowered to the verdict's default when the verdict is weaker, raised to it when stronger), so that
 * the risk the finding adds follows the override too.
 */
function overridden(finding: RuleFinding, override: CompiledOverride & { verdict: Exclude<OverrideVerdict, 'off'> }): RuleFinding {
  const { verdict } = override;
  const weaker = VERDICT_STRENGTH[verdict] < VERDICT_STRENGTH[finding.verdict];
  const score = weaker ? Math.min(finding.score, DEFAULT_SCORES[verdict]) : Math.max(finding.score, DEFAULT_SCORES[verdict]);
  const { modifiedInput: _dropped, ...rest } = finding;
  return {
    ...rest,
    verdict,
    score,
    severity: severityOf(score),
    factors: [...finding.factors, OVERRIDE_FACTOR],
    reason: override.reason ? `${finding.reason} Policy override: ${override.reason}` : finding.reason,
  };
}

/**
 * The rules with their overrides: a rule an override names finds what it found, then the first of its
 * overrides whose conditions hold gives the verdict (`off`: no finding). A rule whose overrides read the
 * session runs at every review, as session rules do. Rules no override names are returned as they are.
 */
export function withOverrides(rules: readonly ReviewRule[], overrides: readonly CompiledOverride[]): ReviewRule[] {
  if (!overrides.length) return [...rules];
  return rules.map((rule) => {
    const own = overrides.filter((o) => o.rule === rule.name);
    if (!own.length) return rule;
    const reads = own.some((o) => o.reads === 'session') ? 'session' : rule.reads;
    return {
      ...rule,
      reads,
      evaluate(context) {
        const finding = rule.evaluate(context);
        if (!finding) return null;
        const override = own.find((o) => o.applies(context));
        if (!override) return finding;
        return override.verdict === 'off' ? null : overridden(finding, { ...override, verdict: override.verdict });
      },
    };
  });
}
