import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { pathMatcher, type PathMatcher } from './paths.js';

/** A failure the project has seen before, its simple fix, and the invasive "fix" agents reach for instead (seed 004). */
export interface KnownIssue {
  symptom: string;
  common_cause?: string;
  simple_fix: string;
  escalation_trap: string;
}

/**
 * The parts of a project knowledge file (the reviewer's format, deploy/reviewer/knowledge.toml) the
 * pattern detector uses: which sessions it is for, the endpoints, and the known issues.
 */
export interface ProjectKnowledge {
  source: string;
  applies_to: string[];
  endpoints: { name: string; default_url: string; config_key?: string }[];
  known_issues: KnownIssue[];
}

export class KnowledgeFileError extends Error {}

const isTable = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function text(table: Record<string, unknown>, key: string, where: string, required: boolean): string | undefined {
  const value = table[key];
  if (value === undefined || value === null) {
    if (required) throw new KnowledgeFileError(`${where}.${key} is required`);
    return undefined;
  }
  if (typeof value !== 'string' || !value.trim()) throw new KnowledgeFileError(`${where}.${key} must be a non-empty string`);
  return value.trim();
}

/** Parses a knowledge document (TOML, YAML or JSON, same structure); other sections of the file are left to the reviewer. */
export function parseProjectKnowledge(source: string, content: string, format: 'toml' | 'yaml' | 'json'): ProjectKnowledge {
  let document: unknown;
  try {
    document = format === 'toml' ? parseToml(content) : format === 'yaml' ? parseYaml(content) : JSON.parse(content);
  } catch (error) {
    throw new KnowledgeFileError(`${source}: not valid ${format.toUpperCase()}: ${(error as Error).message}`);
  }
  const root = isTable(document) ? document : {};
  try {
    const appliesRaw = root['applies_to'];
    const applies_to = appliesRaw === undefined ? [] : typeof appliesRaw === 'string' ? [appliesRaw] : Array.isArray(appliesRaw) ? appliesRaw.map(String) : [];
    const endpoints = Object.entries(isTable(root['endpoints']) ? root['endpoints'] : {}).flatMap(([id, value]) => {
      if (!isTable(value)) return [];
      const endpoint: ProjectKnowledge['endpoints'][number] = { name: text(value, 'name', `endpoints.${id}`, false) ?? id, default_url: text(value, 'default_url', `endpoints.${id}`, true)! };
      const key = text(value, 'config_key', `endpoints.${id}`, false);
      if (key) endpoint.config_key = key;
      return [endpoint];
    });
    const issues = root['known_issues'] ?? [];
    if (!Array.isArray(issues)) throw new KnowledgeFileError('known_issues must be a list of tables ([[known_issues]])');
    const known_issues = issues.map((issue, index) => {
      const where = `known_issues[${index}]`;
      if (!isTable(issue)) throw new KnowledgeFileError(`${where} must be a table`);
      const known: KnownIssue = {
        symptom: text(issue, 'symptom', where, true)!,
        simple_fix: text(issue, 'simple_fix', where, true)!,
        escalation_trap: text(issue, 'escalation_trap', where, true)!,
      };
      const cause = text(issue, 'common_cause', where, false);
      if (cause) known.common_cause = cause;
      return known;
    });
    return { source, applies_to, endpoints, known_issues };
  } catch (error) {
    throw new KnowledgeFileError(`${source}: ${(error as Error).message}`);
  }
}

const FORMATS: Record<string, 'toml' | 'yaml' | 'json'> = { '.toml': 'toml', '.yaml': 'yaml', '.yml': 'yaml', '.json': 'json' };

export function loadProjectKnowledge(path: string): ProjectKnowledge {
  const format = FORMATS[extname(path).toLowerCase()];
  if (!format) throw new KnowledgeFileError(`${path}: unsupported format: expected .toml, .yaml, .yml or .json`);
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    throw new KnowledgeFileError(`${path}: cannot be read: ${(error as Error).message}`);
  }
  return parseProjectKnowledge(path, content, format);
}

const matchers = new WeakMap<ProjectKnowledge, PathMatcher>();

/** The first knowledge file meant for a session in `cwd`: its applies_to matches, or it has none. */
export function knowledgeFor(files: readonly ProjectKnowledge[], cwd: string | undefined): ProjectKnowledge | undefined {
  return files.find((file) => {
    if (!file.applies_to.length) return true;
    if (!cwd) return false;
    let match = matchers.get(file);
    if (!match) matchers.set(file, (match = pathMatcher(file.applies_to)));
    return match(cwd);
  });
}

/** Lower case words with simple endings stripped (browsers/browser, installing/install). */
export function wordsOf(value: string): string[] {
  return value
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.length > 4 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.length > 5 && w.endsWith('ing') ? w.slice(0, -3) : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

const sameWord = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 5 && (a.startsWith(b) || b.startsWith(a)));

/** Whether all words of `phrase` appear in `words` in order, at most three other words apart. */
export function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  if (!phrase.length) return false;
  const from = (position: number, index: number): boolean => {
    if (index === phrase.length) return true;
    for (let i = position; i <= Math.min(words.length - 1, position + 3); i++) if (sameWord(words[i]!, phrase[index]!) && from(i + 1, index + 1)) return true;
    return false;
  };
  return words.some((w, i) => sameWord(w, phrase[0]!) && from(i + 1, 1));
}

/** Whether a failure's text shows the issue's symptom (case and whitespace do not matter). */
export function showsSymptom(errorText: string, issue: KnownIssue): boolean {
  return errorText.includes(issue.symptom.toLowerCase().replace(/\s+/g, ' '));
}
