import { ACTION_KINDS } from '@warden/contracts';
import { compileGlob, pathMatcher } from '@warden/actions';
import { BASE_RISK } from '../parsing/intent.js';
import { nameMatcher } from '../parsing/name-matcher.js';
import type { CustomRuleDefinition } from '../rules/custom-rule-definition.js';

type Match = NonNullable<CustomRuleDefinition['match']>;

/**
 * Texts of every shape a field meets: a pattern that matches all of them matches everything in practice
 * (an empty regex, `.*`, `^`, `$`, a glob `*` or `**`), whatever its spelling.
 */
const TEXTS = ['', 'x', 'ls -la', 'rm -rf /', 'terraform apply -auto-approve', 'first line\nsecond line', 'a/b/c d', '✓ é'];
// A simple command is one line; a path is tested in the one form paths have (Windows ones in theirs, which a POSIX glob does not match).
const COMMANDS = TEXTS.filter((t) => t !== '' && !t.includes('\n'));
const PATHS = ['/', '/etc/passwd', '/work/app/src/index.ts', '/home/dev/.ssh/id_rsa', '/tmp/.cache/x'];
const URLS = ['https://example.com/', 'http://localhost:3000/api', 'https://a.b.example.org/x?y=1', 'ftp://host/file'];
const NAMES = ['Bash', 'Write', 'mcp__github__create_issue', 'agent-7', 'left-pad', '@scope/pkg', 'x'];

const listOf = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function everyText(test: (text: string) => boolean, texts: readonly string[]): boolean {
  try {
    return texts.every(test);
  } catch {
    return false;
  }
}

/** Whether a regular expression matches every text (unanchored, as the rules test them). */
export function regexMatchesAll(pattern: string): boolean {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return false;
  }
  return everyText((t) => regex.test(t), TEXTS);
}

/** The one entry of a field, among those it lists, that matches everything it is tested on; undefined when none does. */
export function catchAllEntry(field: keyof Match, match: Match): string | undefined {
  switch (field) {
    case 'command':
      return listOf(match.command).find((g) => everyText(compileGlob(g, { bash: true, dot: true }).matches, COMMANDS));
    case 'command_regex':
      return listOf(match.command_regex).find(regexMatchesAll);
    case 'path':
    case 'written_path':
      return listOf(match[field]).find((g) => everyText(pathMatcher([g]), PATHS));
    case 'url':
      return listOf(match.url).find((g) => everyText(compileGlob(g, { dot: true, nocase: true }).matches, URLS));
    case 'tool':
    case 'agent':
    case 'package':
      return listOf(match[field]).find((g) => everyText(nameMatcher([g]), NAMES));
    case 'kind':
      return ACTION_KINDS.every((k) => listOf(match.kind).includes(k)) ? listOf(match.kind).join(', ') : undefined;
    case 'intent':
      return Object.keys(BASE_RISK).every((i) => listOf(match.intent).includes(i)) ? listOf(match.intent).join(', ') : undefined;
    case 'input': {
      const fields = Object.entries(match.input ?? {});
      return fields.length && fields.every(([, pattern]) => regexMatchesAll(pattern)) ? fields.map(([name, pattern]) => `${name}: ${pattern}`).join(', ') : undefined;
    }
    default:
      return undefined;
  }
}
