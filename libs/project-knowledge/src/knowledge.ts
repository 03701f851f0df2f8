import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { addressOf } from './endpoint-address.js';
import { normaliseText } from './wording.js';

/** A service the project talks to, and where it really is. */
export interface ServiceEndpoint {
  name: string;
  defaultUrl: string;
  /** The setting that holds its URL (PLAYWRIGHT_SERVER_URL). */
  configKey?: string;
  /** Path (or URL) that answers when the service is up: /json/version. */
  healthCheck?: string;
}

/** A failure the project has seen before, its simple fix, and the invasive "fix" agents reach for instead. */
export interface KnownIssue {
  symptom: string;
  commonCause?: string;
  simpleFix: string;
  escalationTrap: string;
}

export interface Practice {
  name: string;
  rule: string;
  validation?: string;
}

/**
 * Where the project's configuration lives. A key with `/`, `*` or `.` is a path glob (`**\/playwright.config.ts`,
 * `*.env`; without `/` it matches the file name anywhere); otherwise it is a setting name (API_BASE_URL).
 */
export interface ConfigPattern {
  key: string;
  description?: string;
}

/** What a project knowledge file says (seed 004's `.patinox/knowledge.toml`). */
export interface ProjectKnowledge {
  /** The file it came from, for messages. */
  source: string;
  /** Path globs of the project directories it is for; empty: every session. */
  appliesTo: string[];
  endpoints: ServiceEndpoint[];
  configPatterns: ConfigPattern[];
  practices: Practice[];
  knownIssues: KnownIssue[];
}

export type KnowledgeFormat = 'toml' | 'yaml' | 'json';

export class KnowledgeFileError extends Error {
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
    this.name = 'KnowledgeFileError';
  }
}

type Table = Record<string, unknown>;

const TOP_LEVEL_FIELDS = ['applies_to', 'endpoints', 'config_patterns', 'practices', 'known_issues'];
const ENDPOINT_FIELDS = ['name', 'default_url', 'config_key', 'health_check'];
const ISSUE_FIELDS = ['symptom', 'common_cause', 'simple_fix', 'escalation_trap'];
const PRACTICE_FIELDS = ['name', 'rule', 'validation'];
const PATTERN_FIELDS = ['key', 'description'];

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Reads fields of the parsed document, naming the file and field in every complaint. */
class FieldReader {
  constructor(private readonly source: string) {}

  fail(message: string): never {
    throw new KnowledgeFileError(this.source, message);
  }

  /** Unknown fields are refused: a misspelt `known_issue` would otherwise silently do nothing. */
  only(table: Table, allowed: readonly string[], where: string): void {
    for (const key of Object.keys(table)) {
      if (!allowed.includes(key)) this.fail(`${where ? `${where}.` : ''}${key} is not a known field (expected ${allowed.join(', ')})`);
    }
  }

  text(table: Table, key: string, where: string, required: true): string;
  text(table: Table, key: string, where: string, required: false): string | undefined;
  text(table: Table, key: string, where: string, required: boolean): string | undefined {
    const value = table[key];
    if (value === undefined || value === null) {
      if (required) this.fail(`${where}.${key} is required`);
      return undefined;
    }
    if (typeof value !== 'string') this.fail(`${where}.${key} must be a string`);
    const trimmed = value.trim();
    if (!trimmed) this.fail(`${where}.${key} must not be empty`);
    return trimmed;
  }

  /** `[[name]]` in TOML, a list of mappings in YAML/JSON. */
  tables(root: Table, key: string): { table: Table; where: string }[] {
    const value = root[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.fail(`${key} must be a list of tables ([[${key}]])`);
    return value.map((item, index) => {
      const where = `${key}[${index}]`;
      if (!isTable(item)) this.fail(`${where} must be a table`);
      return { table: item, where };
    });
  }
}

function parseDocument(text: string, format: KnowledgeFormat, reader: FieldReader): Table {
  let document: unknown;
  try {
    document = format === 'toml' ? parseToml(text) : format === 'yaml' ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    reader.fail(`not valid ${format.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (document === undefined || document === null) return {};
  if (!isTable(document)) reader.fail('must be a table of settings at the top level');
  return document;
}

function withOptional<T extends object, K extends string>(target: T, key: K, value: string | undefined): T & Partial<Record<K, string>> {
  if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  return target;
}

/**
 * Parses a project knowledge file: `applies_to` (path globs), `[endpoints.<id>]` tables (name,
 * default_url, config_key, health_check; name defaults to the id), `[[config_patterns]]` (key, description), `[[practices]]`
 * (name, rule, validation) and `[[known_issues]]` (symptom, common_cause, simple_fix, escalation_trap).
 * YAML and JSON files have the same structure. Throws KnowledgeFileError naming the file and the field.
 */
export function parseProjectKnowledge(text: string, format: KnowledgeFormat, source: string): ProjectKnowledge {
  const reader = new FieldReader(source);
  const root = parseDocument(text, format, reader);
  reader.only(root, TOP_LEVEL_FIELDS, '');

  let appliesTo: string[] = [];
  const rawAppliesTo = root['applies_to'];
  if (typeof rawAppliesTo === 'string') appliesTo = [rawAppliesTo];
  else if (Array.isArray(rawAppliesTo)) appliesTo = rawAppliesTo as string[];
  else if (rawAppliesTo !== undefined) reader.fail('applies_to must be a list of path globs');
  appliesTo = appliesTo.map((glob, index) => {
    if (typeof glob !== 'string' || !glob.trim()) reader.fail(`applies_to[${index}] must be a non-empty path glob`);
    return glob.trim();
  });

  const endpoints: ServiceEndpoint[] = [];
  const rawEndpoints = root['endpoints'];
  if (rawEndpoints !== undefined && !isTable(rawEndpoints)) reader.fail('endpoints must be a table of named endpoints ([endpoints.<name>])');
  for (const [id, value] of Object.entries(rawEndpoints ?? {})) {
    const where = `endpoints.${id}`;
    if (!isTable(value)) reader.fail(`${where} must be a table`);
    reader.only(value, ENDPOINT_FIELDS, where);
    const defaultUrl = reader.text(value, 'default_url', where, true);
    if (!addressOf(defaultUrl)) reader.fail(`${where}.default_url is not a URL with a host: "${defaultUrl}"`);
    const endpoint: ServiceEndpoint = { name: reader.text(value, 'name', where, false) ?? id, defaultUrl };
    withOptional(endpoint, 'configKey', reader.text(value, 'config_key', where, false));
    withOptional(endpoint, 'healthCheck', reader.text(value, 'health_check', where, false));
    endpoints.push(endpoint);
  }

  const configPatterns = reader.tables(root, 'config_patterns').map(({ table, where }) => {
    reader.only(table, PATTERN_FIELDS, where);
    return withOptional({ key: reader.text(table, 'key', where, true) }, 'description', reader.text(table, 'description', where, false));
  });

  const practices = reader.tables(root, 'practices').map(({ table, where }) => {
    reader.only(table, PRACTICE_FIELDS, where);
    const practice = { name: reader.text(table, 'name', where, true), rule: reader.text(table, 'rule', where, true) };
    return withOptional(practice, 'validation', reader.text(table, 'validation', where, false));
  });

  const knownIssues = reader.tables(root, 'known_issues').map(({ table, where }) => {
    reader.only(table, ISSUE_FIELDS, where);
    const issue: KnownIssue = {
      symptom: reader.text(table, 'symptom', where, true),
      simpleFix: reader.text(table, 'simple_fix', where, true),
      escalationTrap: reader.text(table, 'escalation_trap', where, true),
    };
    return withOptional(issue, 'commonCause', reader.text(table, 'common_cause', where, false));
  });

  return { source, appliesTo, endpoints, configPatterns, practices, knownIssues };
}

const FORMATS: Record<string, KnowledgeFormat> = { '.toml': 'toml', '.yaml': 'yaml', '.yml': 'yaml', '.json': 'json' };

/** The format of a knowledge file, from its extension (.toml, .yaml, .yml, .json); throws KnowledgeFileError on any other. */
export function knowledgeFormatOf(path: string): KnowledgeFormat {
  const dot = path.lastIndexOf('.');
  const format = dot > path.lastIndexOf('/') ? FORMATS[path.slice(dot).toLowerCase()] : undefined;
  if (!format) throw new KnowledgeFileError(path, 'unsupported format: expected a .toml, .yaml, .yml or .json file');
  return format;
}

/** Compiles `applies_to` globs into a test of a directory, in the caller's form of paths. */
export type AppliesToMatcher = (globs: readonly string[]) => (directory: string) => boolean;

const compiledAppliesTo = new WeakMap<ProjectKnowledge, WeakMap<AppliesToMatcher, (directory: string) => boolean>>();

/**
 * The first file meant for a session working in `directory`: its applies_to matches, or it has none.
 * `directory` and the globs are compared by `matcher` (each service resolves paths its own way); the
 * compiled globs are kept per file and matcher.
 */
export function knowledgeFor(files: readonly ProjectKnowledge[], directory: string | undefined, matcher: AppliesToMatcher): ProjectKnowledge | undefined {
  return files.find((file) => {
    if (!file.appliesTo.length) return true;
    if (!directory) return false;
    let byMatcher = compiledAppliesTo.get(file);
    if (!byMatcher) compiledAppliesTo.set(file, (byMatcher = new WeakMap()));
    let matches = byMatcher.get(matcher);
    if (!matches) byMatcher.set(matcher, (matches = matcher(file.appliesTo)));
    return matches(directory);
  });
}

const symptoms = new WeakMap<KnownIssue, string>();

/** Whether a failure's text (already through normaliseText) shows the issue's symptom; case and whitespace do not matter. */
export function showsSymptom(failureText: string, issue: KnownIssue): boolean {
  let symptom = symptoms.get(issue);
  if (symptom === undefined) symptoms.set(issue, (symptom = normaliseText(issue.symptom)));
  return failureText.includes(symptom);
}
