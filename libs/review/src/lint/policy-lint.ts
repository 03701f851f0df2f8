import { dirname, isAbsolute, resolve } from 'node:path';
import { isSettingsMapping, mergeSettings, settingsSection } from '@warden/settings';
import { Compile, type Validator } from 'typebox/compile';
import { BUILT_IN_RULES } from '../rules/built-in-rules.js';
import { CustomRuleDefinition } from '../rules/custom-rule-definition.js';
import { compileCustomRule, CustomRuleError } from '../rules/custom-rules.js';
import { compileRuleOverrides, RuleOverrideError } from '../rules/rule-overrides.js';
import type { ReadText } from '../settings/review-sources.js';
import { DEFAULT_REVIEWER_SETTINGS, resolveSettings, ReviewerSettingsSchema } from '../settings/reviewer-settings.js';
import { VALIDATOR_IDS } from '../validation/tool-supervisor.js';
import { catchAllEntry } from './catch-all.js';
import { analyseExpression } from './expression-analysis.js';
import { covers, matchContradiction, unknownTools } from './rule-coverage.js';
import { schemaProblems } from './schema-findings.js';
import { PlacedDocument, type DocumentPath } from './yaml-places.js';

export type LintCode = 'unknown_field' | 'invalid' | 'never_matches' | 'always_matches' | 'matches_everything' | 'shadowed' | 'unknown_tool' | 'unknown_rule_name';

/** What lint found: errors make a policy wrong; warnings make it weaker or surprising. */
export interface LintFinding {
  level: 'error' | 'warning';
  code: LintCode;
  file: string;
  line?: number;
  column?: number;
  /** The rule's name, or `rules[3]` when it has none. */
  rule?: string;
  /** The field, as a path: `match.command`, `step_reviewer.rules.disabled[1]`. */
  field?: string;
  message: string;
}

const LEVELS: Record<LintCode, LintFinding['level']> = {
  unknown_field: 'error',
  invalid: 'error',
  never_matches: 'error',
  always_matches: 'error',
  matches_everything: 'warning',
  shadowed: 'warning',
  unknown_tool: 'warning',
  unknown_rule_name: 'warning',
};

type Match = NonNullable<CustomRuleDefinition['match']>;
const MATCH_FIELDS: (keyof Match)[] = ['kind', 'tool', 'intent', 'command', 'command_regex', 'path', 'written_path', 'url', 'package', 'input', 'phase', 'environment', 'agent', 'privileged', 'out_of_scope'];

const ruleValidator = Compile(CustomRuleDefinition) as unknown as Validator;
const settingsValidator = Compile(ReviewerSettingsSchema) as unknown as Validator;

const fieldText = (path: DocumentPath) => path.reduce<string>((text, step) => (typeof step === 'number' ? `${text}[${step}]` : text ? `${text}.${step}` : step), '');

/** `match.command_regex[1]` (a CustomRuleError's field) as a path. */
const fieldPath = (field: string): (string | number)[] => field.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== '').map((s) => (/^\d+$/.test(s) ? Number(s) : s));

/** One file being linted: its findings carry its name and the places of its document. */
class FileLint {
  constructor(
    readonly file: string,
    readonly document: PlacedDocument,
    private readonly findings: LintFinding[],
  ) {}

  report(code: LintCode, path: DocumentPath, message: string, rule?: string): void {
    const place = this.document.at(path);
    this.findings.push({
      level: LEVELS[code],
      code,
      file: this.file,
      ...(place ? { line: place.line, column: place.column } : {}),
      ...(rule !== undefined ? { rule } : {}),
      ...(path.length ? { field: fieldText(path) } : {}),
      message,
    });
  }
}

/** A rule that passed its schema and compiled, where it was written. */
interface LintedRule {
  definition: CustomRuleDefinition;
  lint: FileLint;
  path: DocumentPath;
}

/** Checks one rule on its own: schema, compilation, and what makes it never, always or too broadly match. */
function lintRule(item: unknown, path: DocumentPath, index: number, lint: FileLint, names: Set<string>): LintedRule | undefined {
  const named = isSettingsMapping(item) && typeof item['name'] === 'string' ? item['name'] : undefined;
  const rule = named ?? `rules[${index}]`;
  const problems = schemaProblems(ruleValidator, CustomRuleDefinition, item);
  for (const p of problems) lint.report(p.kind, [...path, ...p.path], p.kind === 'invalid' ? `rule ${p.message}` : p.message, rule);
  if (named !== undefined) {
    if (names.has(named)) lint.report('invalid', [...path, 'name'], `the name "${named}" is used by an earlier rule: names must be unique`, rule);
    names.add(named);
  }
  if (problems.length) return undefined;
  const definition = item as CustomRuleDefinition;
  try {
    compileCustomRule(definition, lint.file);
  } catch (error) {
    if (!(error instanceof CustomRuleError)) throw error;
    lint.report('invalid', [...path, ...(error.field ? fieldPath(error.field) : [])], error.detail, rule);
    return undefined;
  }
  const match = definition.match ?? {};
  const expression = definition.when === undefined ? undefined : analyseExpression(definition.when);
  const contradiction = matchContradiction(match);
  if (expression?.never) lint.report('never_matches', [...path, 'when'], `never matches: ${expression.never}`, rule);
  if (contradiction) lint.report('never_matches', [...path, 'match', 'tool'], `never matches: ${contradiction}`, rule);
  for (const tool of unknownTools([...(Array.isArray(match.tool) ? match.tool : match.tool ? [match.tool] : []), ...(expression?.tools ?? [])])) {
    lint.report('unknown_tool', [...path, match.tool !== undefined ? 'match' : 'when'], `no supervised agent has a tool named "${tool}": the rule matches only a tool of that name (an SDK agent's own tool)`, rule);
  }
  const given = MATCH_FIELDS.filter((f) => match[f] !== undefined);
  const broad = new Map(given.map((f) => [f, catchAllEntry(f, match)] as const).filter((e): e is readonly [keyof Match, string] => e[1] !== undefined));
  const whenAlways = expression?.always;
  const everything = (given.length === 0 || broad.size === given.length) && (definition.when === undefined ? given.length > 0 : whenAlways !== undefined);
  if (everything && !expression?.never && !contradiction) {
    const said = [...[...broad].map(([f, entry]) => `match.${f} "${entry}" matches everything`), ...(whenAlways ? [`when: ${whenAlways}`] : [])];
    lint.report('always_matches', [...path, given.length ? 'match' : 'when'], `always matches (${said.join('; ')}): the rule gives ${definition.verdict} to every action${given.length ? ' it looks at' : ''}; say what it is about`, rule);
  } else if (!everything) {
    for (const [field, entry] of broad) lint.report('matches_everything', [...path, 'match', field], `match.${field} "${entry}" matches everything: it narrows nothing; remove it or say what it is about`, rule);
    if (whenAlways) lint.report('matches_everything', [...path, 'when'], `when: ${whenAlways}: it narrows nothing`, rule);
  }
  return { definition, lint, path };
}

/** Rules listed at `path` of a document (settings rules.custom, or a rules file). */
function lintRuleList(items: unknown[], path: DocumentPath, lint: FileLint, names: Set<string>): LintedRule[] {
  return items.map((item, i) => lintRule(item, [...path, i], i, lint, names)).filter((r): r is LintedRule => r !== undefined);
}

/** A later rule that an earlier one covers with the same verdict never changes a verdict. */
function lintShadowing(rules: readonly LintedRule[]): void {
  rules.forEach((later, j) => {
    const { definition } = later;
    if (definition.enabled === false || definition.shadow === true) return;
    const earlier = rules.slice(0, j).find((r) => r.definition.enabled !== false && r.definition.shadow !== true && covers(r.definition, definition));
    if (!earlier) return;
    const place = earlier.lint.document.at(earlier.path);
    const where = earlier.lint === later.lint ? (place ? ` (line ${place.line})` : '') : ` (${earlier.lint.file}${place ? `:${place.line}` : ''})`;
    later.lint.report(
      'shadowed',
      later.path,
      `shadowed by rule "${earlier.definition.name}"${where}: it gives ${definition.verdict} to every action this rule matches, earlier, so this rule never changes a verdict; remove it, or make it narrower or stronger`,
      definition.name,
    );
  });
}

const RULES_FILE_KEYS = ['rules', 'overrides'];

/** Each override of built-in rules, checked as the reviewer checks it when it loads the file. */
function lintOverrides(overrides: unknown, lint: FileLint): void {
  if (overrides === undefined) return;
  if (!Array.isArray(overrides)) {
    lint.report('invalid', ['overrides'], 'overrides must be a list');
    return;
  }
  overrides.forEach((override, i) => {
    try {
      compileRuleOverrides([override], lint.file);
    } catch (error) {
      if (!(error instanceof RuleOverrideError)) throw error;
      lint.report('invalid', ['overrides', i], error.message.replace('overrides[0]', `overrides[${i}]`));
    }
  });
}

/** Reads a rules document (a list, or `{rules: [...], overrides: [...]}`) and lints its rules; a document of another shape is an error. */
function rulesOf(lint: FileLint): { items: unknown[]; path: DocumentPath } | undefined {
  const { value } = lint.document;
  if (value === null || value === undefined) return { items: [], path: [] };
  if (Array.isArray(value)) return { items: value, path: [] };
  if (isSettingsMapping(value) && Array.isArray(value['rules'])) {
    for (const key of Object.keys(value)) {
      if (!RULES_FILE_KEYS.includes(key)) lint.report('unknown_field', [key], `unknown field "${key}": a rules file holds only "rules" and "overrides"`);
    }
    lintOverrides(value['overrides'], lint);
    return { items: value['rules'], path: ['rules'] };
  }
  lint.report('invalid', [], 'expected a list of rules, or an object with a "rules" list');
  return undefined;
}

function parsed(file: string, text: string, findings: LintFinding[]): FileLint | undefined {
  const document = new PlacedDocument(text);
  if (!document.error) return new FileLint(file, document, findings);
  const { place } = document.error;
  findings.push({ level: 'error', code: 'invalid', file, ...(place ? { line: place.line, column: place.column } : {}), message: `not valid YAML: ${document.error.message}` });
  return undefined;
}

/** Whether a document is a rules file rather than a reviewer configuration. */
export function isRulesDocument(text: string): boolean {
  const { value } = new PlacedDocument(text);
  return Array.isArray(value) || (isSettingsMapping(value) && Array.isArray(value['rules']) && Object.keys(value).every((key) => RULES_FILE_KEYS.includes(key)));
}

/** Findings in the order of the files, then of their lines. */
function inOrder(findings: LintFinding[]): LintFinding[] {
  const files = [...new Set(findings.map((f) => f.file))];
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => files.indexOf(a.f.file) - files.indexOf(b.f.file) || (a.f.line ?? 0) - (b.f.line ?? 0) || (a.f.column ?? 0) - (b.f.column ?? 0) || a.i - b.i)
    .map(({ f }) => f);
}

/** Lints a rules file on its own. */
export function lintRulesFile(path: string, read: ReadText): LintFinding[] {
  const findings: LintFinding[] = [];
  const lint = parsed(path, read(path), findings);
  const rules = lint && rulesOf(lint);
  if (lint && rules) lintShadowing(lintRuleList(rules.items, rules.path, lint, new Set()));
  return inOrder(findings);
}

const KNOWN_NAMES = new Set<string>([...BUILT_IN_RULES.map((r) => r.name), ...VALIDATOR_IDS]);

/**
 * Lints a reviewer configuration and the rules it names: unknown fields anywhere (with the field meant),
 * broken rules, rules that never match or always match, patterns that match everything, rules an earlier
 * one shadows with the same verdict, names in `rules.disabled` / `rules.shadow` no rule has. Each finding
 * names the file, the rule and the line. `read` reads a file (the library touches no disk).
 */
export function lintPolicy(configPath: string, read: ReadText): LintFinding[] {
  const findings: LintFinding[] = [];
  const lint = parsed(configPath, read(configPath), findings);
  if (!lint) return findings;
  const document = lint.document.value ?? {};
  const sectioned = isSettingsMapping(document) && isSettingsMapping(document['step_reviewer']);
  const prefix: DocumentPath = sectioned ? ['step_reviewer'] : [];
  const root = settingsSection(document, 'step_reviewer');
  if (!isSettingsMapping(root)) {
    lint.report('invalid', prefix, 'the reviewer configuration must be a mapping');
    return findings;
  }
  const isCustomRule = (path: (string | number)[]) => path[0] === 'rules' && path[1] === 'custom' && path.length > 2;
  const problems = schemaProblems(settingsValidator, ReviewerSettingsSchema, mergeSettings(DEFAULT_REVIEWER_SETTINGS, root), isCustomRule);
  for (const p of problems) lint.report(p.kind, [...prefix, ...p.path], p.message);
  if (!problems.length) {
    try {
      resolveSettings(document);
    } catch (error) {
      if (!/custom rule/.test((error as Error).message)) lint.report('invalid', prefix, (error as Error).message);
    }
  }
  const names = new Set<string>();
  const rules = isSettingsMapping(root['rules']) ? root['rules'] : {};
  const linted = Array.isArray(rules['custom']) ? lintRuleList(rules['custom'], [...prefix, 'rules', 'custom'], lint, names) : [];
  const rulesPath = rules['custom_rules_path'];
  if (typeof rulesPath === 'string') {
    const path = isAbsolute(rulesPath) ? rulesPath : resolve(dirname(configPath), rulesPath);
    let text: string | undefined;
    try {
      text = read(path);
    } catch (error) {
      lint.report('invalid', [...prefix, 'rules', 'custom_rules_path'], `cannot read the rules file ${path}: ${(error as Error).message}`);
    }
    const fileLint = text === undefined ? undefined : parsed(path, text, findings);
    const list = fileLint && rulesOf(fileLint);
    if (fileLint && list) linted.push(...lintRuleList(list.items, list.path, fileLint, names));
  }
  lintShadowing(linted);
  lintRuleNames(lint, root, prefix, new Set([...KNOWN_NAMES, ...names]));
  return inOrder(findings);
}

/** Names in rules.disabled / rules.shadow (and each pipeline's) that no rule or validator has: a typo switches nothing off. */
function lintRuleNames(lint: FileLint, root: Record<string, unknown>, prefix: DocumentPath, known: ReadonlySet<string>): void {
  const lists: { rules: unknown; path: DocumentPath }[] = [{ rules: root['rules'], path: [...prefix, 'rules'] }];
  if (isSettingsMapping(root['pipelines'])) {
    for (const [name, pipeline] of Object.entries(root['pipelines'])) if (isSettingsMapping(pipeline)) lists.push({ rules: pipeline['rules'], path: [...prefix, 'pipelines', name, 'rules'] });
  }
  for (const { rules, path } of lists) {
    if (!isSettingsMapping(rules)) continue;
    for (const key of ['disabled', 'shadow'] as const) {
      const list = rules[key];
      if (!Array.isArray(list)) continue;
      list.forEach((name, i) => {
        if (typeof name === 'string' && !known.has(name)) lint.report('unknown_rule_name', [...path, key, i], `no rule or validator is named "${name}": it ${key === 'disabled' ? 'switches nothing off' : 'puts nothing in shadow'}`);
      });
    }
  }
}
