import { mcpTool, toolShape, type ToolKind } from '@warden/actions';
import type { CustomRuleDefinition } from '../rules/custom-rule-definition.js';
import { catchAllEntry } from './catch-all.js';
import { normalExpression } from './expression-analysis.js';

type Match = NonNullable<CustomRuleDefinition['match']>;
type Field = keyof Match;

const GLOB_CHARS = /[*?[\]{}!+@()]/;
const listOf = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Tools that never run a command line, and those that never write a file. */
const NO_COMMAND: ReadonlySet<ToolKind> = new Set(['read', 'search', 'write', 'edit', 'delete', 'fetch', 'delegate', 'message', 'poll', 'kill']);
const NO_WRITE: ReadonlySet<ToolKind> = new Set(['read', 'search', 'fetch', 'message', 'poll', 'kill']);

/** Tool names a rule spells out in full that no supervised agent has (MCP tools aside: any server may have any tool). */
export function unknownTools(names: readonly string[]): string[] {
  return names.filter((name) => !GLOB_CHARS.test(name) && !toolShape(name) && !mcpTool(name));
}

/** Why a rule's `match` can never hold: it asks a command line or a written path of tools that have none. */
export function matchContradiction(match: Match): string | undefined {
  const tools = listOf(match.tool);
  if (!tools.length || tools.some((t) => GLOB_CHARS.test(t))) return undefined;
  const kinds = tools.map((t) => toolShape(t)?.kind);
  if (kinds.some((k) => k === undefined)) return undefined;
  const named = tools.join(', ');
  if ((match.command !== undefined || match.command_regex !== undefined) && kinds.every((k) => NO_COMMAND.has(k!))) {
    return `match.${match.command !== undefined ? 'command' : 'command_regex'} needs a command line, and ${named} never runs one`;
  }
  if (match.written_path !== undefined && kinds.every((k) => NO_WRITE.has(k!))) return `match.written_path needs a written path, and ${named} never writes one`;
  return undefined;
}

/**
 * Whether glob `broad` matches whatever glob `narrow` matches, where that is plain to see: the same glob,
 * one that matches everything, a spelt-out start followed by `*` (or `**` for paths and URLs, where `*`
 * stops at `/`) that `narrow` begins with, or for paths a directory `narrow` lies in.
 */
function globCovers(field: Field, broad: string, narrow: string): boolean {
  if (broad === narrow || catchAllEntry(field, { [field]: broad } as Match) !== undefined) return true;
  const paths = field === 'path' || field === 'written_path' || field === 'url';
  const star = paths ? '**' : '*';
  if (broad.endsWith(star)) {
    const start = broad.slice(0, -star.length);
    if (!GLOB_CHARS.test(start) && narrow.startsWith(start)) return true;
  }
  return paths && field !== 'url' && !GLOB_CHARS.test(broad) && narrow.startsWith(`${broad.replace(/\/+$/, '')}/`);
}

function fieldCovers(field: Field, a: Match, b: Match): boolean {
  const broad = a[field];
  const narrow = b[field];
  if (broad === undefined) return true;
  if (narrow === undefined) return false;
  switch (field) {
    case 'privileged':
    case 'out_of_scope':
      return broad === narrow;
    case 'input': {
      const wide = broad as Record<string, string>;
      const tight = narrow as Record<string, string>;
      return Object.entries(wide).every(([name, pattern]) => tight[name] === pattern || (name in tight && catchAllEntry('command_regex', { command_regex: pattern }) !== undefined));
    }
    case 'command_regex':
      return listOf(narrow as string | string[]).every((n) => listOf(broad as string | string[]).some((w) => w === n || catchAllEntry('command_regex', { command_regex: w }) !== undefined));
    case 'kind':
    case 'intent':
    case 'phase':
    case 'environment': {
      const wide = new Set(listOf(broad as string | string[]).map((v) => v.toLowerCase()));
      return listOf(narrow as string | string[]).every((v) => wide.has(v.toLowerCase()));
    }
    default:
      return listOf(narrow as string | string[]).every((n) => listOf(broad as string | string[]).some((w) => globCovers(field, w, n)));
  }
}

const FIELDS: readonly Field[] = ['kind', 'tool', 'intent', 'command', 'command_regex', 'path', 'written_path', 'url', 'package', 'input', 'phase', 'environment', 'agent', 'privileged', 'out_of_scope'];

/**
 * Whether rule `earlier` fires, with the same verdict, on every action rule `later` fires on: each of its
 * conditions is one of `later`'s or broader, and its `when` (if any) is the same expression. Then `later`
 * never changes a verdict.
 */
export function covers(earlier: CustomRuleDefinition, later: CustomRuleDefinition): boolean {
  if (earlier.verdict !== later.verdict) return false;
  // A rewrite is part of what a modify rule does: another one's rewrite is not the same verdict.
  if (earlier.modify !== undefined || later.modify !== undefined) return false;
  if (earlier.when !== undefined && (later.when === undefined || normalExpression(earlier.when) !== normalExpression(later.when))) return false;
  const a = earlier.match ?? {};
  const b = later.match ?? {};
  return FIELDS.every((field) => fieldCovers(field, a, b));
}
