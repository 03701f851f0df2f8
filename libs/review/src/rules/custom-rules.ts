import { ACTION_KINDS, type VerdictKind } from '@warden/contracts';
import { Compile } from 'typebox/compile';
import { parse as parseYaml } from 'yaml';
import { BASE_RISK } from '../parsing/intent.js';
import { compileGlob, pathMatcher, type CompiledGlob, type GlobOptions } from '@warden/actions';
import { nameMatcher } from '../parsing/name-matcher.js';
import { fieldText, simpleCommands, simpleCommandsNamed } from './action-text.js';
import { CustomRuleDefinition } from './custom-rule-definition.js';
import { compilePolicyCondition, readsSession } from './policy-expression.js';
import { regexTester } from './pattern-text.js';
import { explainPolicyExpression } from './policy-expression-parts.js';
import type { ConditionValue, ReviewRule, RuleContext, RuleFinding, RuleNeeds } from './review-rule.js';
import { severityOf } from './rule-severity.js';

/** A custom rule that cannot be used, named by where it was written: `rules.yaml: rule "no_tf" match.command_regex: …`. */
export class CustomRuleError extends Error {
  constructor(
    readonly source: string,
    /** `rule "no_tf"`, or `rules[3]` before the rule's name is known. */
    readonly rule: string | undefined,
    readonly field: string | undefined,
    readonly detail: string,
  ) {
    super(`${source}: ${rule ? `${rule} ` : ''}${field ? `${field}: ` : ''}${detail}`);
    this.name = 'CustomRuleError';
  }
}

/** Score of a finding whose rule gives none. */
export const DEFAULT_SCORES: Record<VerdictKind, number> = { allow: 0.1, warn: 0.5, modify: 0.7, require_approval: 0.8, block: 0.9 };
const INTENTS = new Set(Object.keys(BASE_RISK));
const KINDS = new Set<string>(ACTION_KINDS);

type Condition = (context: RuleContext) => boolean;
type Match = NonNullable<CustomRuleDefinition['match']>;

const listOf = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Conditions in the order they are checked: the cheapest and most selective first. */
const CONDITION_ORDER: (keyof Match)[] = [
  'kind', 'privileged', 'intent', 'tool', 'agent', 'phase', 'environment', 'package', 'url', 'written_path', 'path', 'command', 'command_regex', 'input', 'out_of_scope',
];
const SESSION_CONDITIONS = new Set<keyof Match>(['phase', 'environment', 'agent', 'out_of_scope']);

class RuleCompiler {
  private readonly match: Match;

  constructor(
    private readonly source: string,
    private readonly definition: CustomRuleDefinition,
  ) {
    this.match = definition.match ?? {};
  }

  fail(field: string, detail: string): never {
    throw new CustomRuleError(this.source, `rule "${this.definition.name}"`, field, detail);
  }

  regex(pattern: string, field: string, flags = ''): RegExp {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      return this.fail(field, (error as Error).message);
    }
  }

  /** One regular expression per list entry, named `match.command_regex[1]` when the field is a list. */
  regexes(value: string | string[], field: string): RegExp[] {
    return Array.isArray(value) ? value.map((p, i) => this.regex(p, `${field}[${i}]`)) : [this.regex(value, field)];
  }

  /** The `command` globs, each with the program it names when it spells one out (`terraform` of `terraform apply*`). */
  commandChecks(): { name: string | undefined; matches: (text: string) => boolean }[] {
    // bash: a `*` also crosses `/`, as a user means in "terraform apply*".
    const compiled = this.globs(listOf(this.match.command), 'match.command', { bash: true, dot: true });
    return compiled.map((c) => ({ name: c.prefix.includes(' ') ? c.prefix.slice(0, c.prefix.indexOf(' ')) : undefined, matches: c.matches }));
  }

  urlGlobs(): CompiledGlob[] {
    return this.globs(listOf(this.match.url), 'match.url', { dot: true, nocase: true });
  }

  /**
   * What an action needs for the rule to match, when its conditions say: the programs every `command` glob
   * names, or the origins every `url` glob spells out in full (`https://svc.example.com/**`). None otherwise.
   */
  needs(): RuleNeeds | undefined {
    const { match } = this;
    if (match.command !== undefined) {
      const names = this.commandChecks().map((c) => c.name);
      if (names.length && names.every((n) => n !== undefined)) return { programs: [...new Set(names as string[])] };
    }
    if (match.url !== undefined) {
      const origins = this.urlGlobs().map((c) => originSpelledOut(c));
      if (origins.length && origins.every((o) => o !== undefined)) return { origins: [...new Set(origins as string[])] };
    }
    return undefined;
  }

  globs(globs: string[], field: string, options: GlobOptions): CompiledGlob[] {
    try {
      return globs.map((glob) => compileGlob(glob, options));
    } catch (error) {
      return this.fail(field, (error as Error).message);
    }
  }

  condition(key: keyof Match): Condition | null {
    const { match } = this;
    const field = `match.${key}`;
    switch (key) {
      case 'kind': {
        const kinds = new Set(listOf(match.kind));
        for (const kind of kinds) if (!KINDS.has(kind)) this.fail(field, `unknown action kind "${kind}" (expected ${ACTION_KINDS.join(', ')})`);
        return kinds.size ? ({ action }) => kinds.has(action.kind) : null;
      }
      case 'privileged': {
        const privileged = match.privileged;
        return privileged === undefined ? null : ({ action }) => action.privileged === privileged;
      }
      case 'intent': {
        const intents = new Set(listOf(match.intent));
        for (const intent of intents) if (!INTENTS.has(intent)) this.fail(field, `unknown intent "${intent}" (expected ${[...INTENTS].join(', ')})`);
        return intents.size ? ({ action }) => action.intents.some((i) => intents.has(i)) : null;
      }
      case 'tool': {
        const tools = listOf(match.tool);
        if (!tools.length) return null;
        const matches = nameMatcher(tools);
        return ({ action }) => matches(action.tool);
      }
      case 'agent': {
        const agents = listOf(match.agent);
        if (!agents.length) return null;
        const matches = nameMatcher(agents);
        return ({ session }) => matches(session.agentId);
      }
      case 'phase': {
        const phases = new Set<string>(listOf(match.phase));
        return phases.size ? ({ session }) => session.context.phase !== undefined && phases.has(session.context.phase) : null;
      }
      case 'environment': {
        const environments = new Set(listOf(match.environment).map((e) => e.toLowerCase()));
        return environments.size ? ({ session }) => session.context.environment !== undefined && environments.has(session.context.environment.toLowerCase()) : null;
      }
      case 'package': {
        const packages = listOf(match.package);
        if (!packages.length) return null;
        const matches = nameMatcher(packages);
        return ({ action }) => action.packages.some(matches);
      }
      case 'url': {
        if (!listOf(match.url).length) return null;
        const compiled = this.urlGlobs();
        return ({ action }) => {
          for (const url of action.urls) for (const c of compiled) if (c.matches(url)) return true;
          return false;
        };
      }
      case 'written_path':
      case 'path': {
        const globs = listOf(match[key]);
        if (!globs.length) return null;
        const matches = pathMatcher(globs);
        return key === 'path' ? ({ action }) => action.paths.some(matches) : ({ action }) => action.writtenPaths.some(matches);
      }
      case 'command': {
        if (!listOf(match.command).length) return null;
        // A glob that spells out its command's name (`terraform apply*`) is only tried on the commands of that name.
        const checks = this.commandChecks();
        return ({ action }) =>
          action.command !== undefined && checks.some(({ name, matches }) => (name === undefined ? simpleCommands(action) : simpleCommandsNamed(action, name)).some(matches));
      }
      case 'command_regex': {
        if (match.command_regex === undefined) return null;
        const tests = this.regexes(match.command_regex, field).map((p) => regexTester(p));
        return ({ action }) => action.command !== undefined && tests.some((test) => test(action.command!));
      }
      case 'input': {
        const fields = Object.entries(match.input ?? {}).map(([name, pattern]) => ({ name, test: regexTester(this.regex(pattern, `${field}.${name}`)) }));
        if (!fields.length) return null;
        return ({ action }) =>
          fields.every(({ name, test }) => {
            const text = fieldText(action, name);
            return text !== undefined && test(text);
          });
      }
      case 'out_of_scope': {
        const outside = match.out_of_scope;
        if (outside === undefined) return null;
        return ({ action, inScope }) => action.paths.some((p) => !inScope(p)) === outside;
      }
    }
    return null;
  }

  /** The `when` expression, compiled once; null without one. */
  when(): ReturnType<typeof compilePolicyCondition> | null {
    const { when } = this.definition;
    if (when === undefined) return null;
    try {
      return compilePolicyCondition(when);
    } catch (error) {
      return this.fail('when', (error as Error).message);
    }
  }

  /** The modified input of a `modify` rule, or null when its changes change nothing. */
  modification(): ((input: Record<string, unknown>) => Record<string, unknown> | null) | null {
    const { verdict, modify } = this.definition;
    const empty = !modify || (!modify.set && !modify.replace?.length);
    if (verdict === 'modify' && empty) this.fail('modify', 'a rule with verdict modify needs modify.set or modify.replace');
    if (verdict !== 'modify' && modify) this.fail('modify', `only a rule with verdict modify can modify the input (verdict is ${verdict})`);
    if (!modify || empty) return null;
    const set = Object.entries(modify.set ?? {}).map(([name, value]) => ({ name, value, json: JSON.stringify(value) }));
    const replacements = (modify.replace ?? []).map((r, i) => ({ field: r.field, pattern: this.regex(r.pattern, `modify.replace[${i}].pattern`, 'g'), with: r.with }));
    return (input) => {
      const next = { ...input };
      let changed = false;
      for (const { name, value, json } of set) {
        if (JSON.stringify(next[name]) === json) continue;
        next[name] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
        changed = true;
      }
      for (const r of replacements) {
        const current = next[r.field];
        if (typeof current !== 'string') continue;
        const replaced = current.replace(r.pattern, r.with);
        if (replaced !== current) {
          next[r.field] = replaced;
          changed = true;
        }
      }
      return changed ? next : null;
    };
  }
}

/**
 * Compiles a rule written in configuration into a ReviewRule. Globs and regular expressions are
 * compiled here, once; an invalid one, an unknown kind or intent, a rule without conditions or a
 * modify rule without changes throws a CustomRuleError naming `source`, the rule and the field.
 * `enabled` and `shadow` are the engine's business: see customRuleSwitches.
 */
export function compileCustomRule(definition: CustomRuleDefinition, source: string): ReviewRule {
  const compiler = new RuleCompiler(source, definition);
  const match = definition.match ?? {};
  const given = CONDITION_ORDER.filter((key) => match[key] !== undefined && !(key === 'input' && !Object.keys(match.input ?? {}).length));
  // A rule without conditions would match every action or none; either is a mistake.
  if (!given.length && definition.when === undefined) compiler.fail('match', 'a rule needs at least one condition under match, or a when expression');
  const named = given.map((key) => ({ key, test: compiler.condition(key) })).filter((c): c is { key: keyof Match; test: Condition } => c.test !== null);
  const conditions = named.map((c) => c.test);
  // The expression after the match conditions: they are cheaper, and most actions fail one of them; its
  // prefilter before it, for the same reason.
  const when = compiler.when();
  if (when?.prefilter.test) conditions.push(when.prefilter.test);
  if (when) conditions.push(when.condition);
  const modification = compiler.modification();
  // The match's needs when it has them, else those the expression spells out.
  const needs = compiler.needs() ?? when?.prefilter.needs;
  const { name, verdict, reason, alternative, factors } = definition;
  const score = definition.score ?? DEFAULT_SCORES[verdict];
  const base: RuleFinding = { rule: name, verdict, score, severity: severityOf(score), factors: factors ?? ['custom_rule'], reason };
  if (alternative !== undefined) base.alternative = alternative;
  return {
    name,
    description: definition.description ?? reason,
    essential: false,
    reads: given.some((key) => SESSION_CONDITIONS.has(key)) || (definition.when !== undefined && readsSession(definition.when)) ? 'session' : 'action',
    ...(needs ? { needs } : {}),
    evaluate(context) {
      for (const condition of conditions) if (!condition(context)) return null;
      if (!modification) return { ...base, factors: [...base.factors] };
      const modifiedInput = modification(context.action.input);
      return modifiedInput && { ...base, factors: [...base.factors], modifiedInput };
    },
    explain(context) {
      const values: ConditionValue[] = named.map(({ key, test }) => ({ condition: `match.${key}: ${JSON.stringify(match[key])}`, value: test(context) }));
      if (definition.when !== undefined) values.push(explainPolicyExpression(definition.when, context));
      return values;
    },
  };
}

/**
 * The origin (`scheme://host[:port]`, lower case) every URL a glob matches has, when the glob spells it out
 * and goes on with a path or nothing: `https://svc.example.com/**`, `https://svc.example.com/api*`, not
 * `https://*.example.com/**` or `https://svc*`.
 */
function originSpelledOut(glob: CompiledGlob): string | undefined {
  const { prefix } = glob;
  const scheme = prefix.indexOf('://');
  if (scheme <= 0 || prefix.length <= scheme + 3) return undefined;
  // A path after the host (`https://svc/api*`): the origin ends there.
  const path = prefix.indexOf('/', scheme + 3);
  if (path > scheme + 3) return prefix.slice(0, path).toLowerCase();
  if (path >= 0) return undefined;
  const next = glob.glob[prefix.length];
  return next === undefined || next === '/' ? prefix.toLowerCase() : undefined;
}

/** Names of the rules a list turns off (`enabled: false`) or only observes (`shadow: true`), for the engine's options. */
export function customRuleSwitches(definitions: readonly CustomRuleDefinition[]): { disabled: string[]; shadow: string[] } {
  return {
    disabled: definitions.filter((d) => d.enabled === false).map((d) => d.name),
    shadow: definitions.filter((d) => d.shadow === true).map((d) => d.name),
  };
}

const validator = Compile(CustomRuleDefinition);
const MAX_REPORTED_ERRORS = 3;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The two lists of a policy file (YAML or JSON), not yet checked: its custom rules, and its overrides of
 * built-in rules (rule-overrides.ts). The document is a list of rules, or `{ rules: [...], overrides: [...] }`
 * with either list.
 */
export function readPolicyDocument(text: string, format: 'yaml' | 'json', source: string): { rules: unknown[]; overrides: unknown[] } {
  let document: unknown;
  try {
    document = format === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new CustomRuleError(source, undefined, undefined, `not valid ${format.toUpperCase()}: ${(error as Error).message}`);
  }
  if (document === null || document === undefined) return { rules: [], overrides: [] };
  if (Array.isArray(document)) return { rules: document, overrides: [] };
  if (!isPlainObject(document) || (!Array.isArray(document['rules']) && !Array.isArray(document['overrides']))) {
    throw new CustomRuleError(source, undefined, undefined, 'expected a list of rules, or an object with a "rules" list and/or an "overrides" list');
  }
  const extra = Object.keys(document).find((key) => key !== 'rules' && key !== 'overrides');
  if (extra !== undefined) throw new CustomRuleError(source, undefined, extra, 'unexpected key (the document holds only "rules" and "overrides")');
  const listAt = (key: string): unknown[] => {
    const value = document[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw new CustomRuleError(source, undefined, key, 'expected a list');
    return value;
  };
  return { rules: listAt('rules'), overrides: listAt('overrides') };
}

/**
 * Reads custom rules from a YAML or JSON document (readPolicyDocument). Each rule is checked against the
 * schema and compiled once, so that a mistake is reported here, with the source, the rule's index and the
 * field, and not when the first action arrives.
 */
export function loadCustomRules(text: string, format: 'yaml' | 'json', source: string): CustomRuleDefinition[] {
  const items = readPolicyDocument(text, format, source).rules;
  const names = new Map<string, number>();
  return items.map((item, index) => {
    const named = isPlainObject(item) && typeof item['name'] === 'string' ? ` (${item['name']})` : '';
    if (!validator.Check(item)) {
      // `boolean` errors ("schema is false") repeat an additional-property error in other words.
      const errors = [...validator.Errors(item)]
        .filter((e) => e.keyword !== 'boolean')
        .slice(0, MAX_REPORTED_ERRORS)
        .map((e) => `${e.instancePath || '/'}: ${e.message}`);
      throw new CustomRuleError(source, `rules[${index}]${named}`, undefined, errors.join('; '));
    }
    const definition = item as CustomRuleDefinition;
    const earlier = names.get(definition.name);
    if (earlier !== undefined) throw new CustomRuleError(source, `rules[${index}]${named}`, 'name', `"${definition.name}" is already used by rules[${earlier}]`);
    names.set(definition.name, index);
    try {
      compileCustomRule(definition, source);
    } catch (error) {
      if (error instanceof CustomRuleError) throw new CustomRuleError(source, `rules[${index}]${named}`, error.field, error.detail);
      throw error;
    }
    return definition;
  });
}
