import { commandName } from '../parsing/command-facts.js';
import type { ShellSegment } from '../parsing/shell-command.js';

/** git's global options that take the next word as their value (`git -C dir push`). */
const GLOBAL_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** Index of git's subcommand in an argv that starts with git, or -1. */
export function gitSubcommandIndex(argv: readonly string[]): number {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return i;
  }
  return -1;
}

export interface GitCall {
  sub: string;
  /** Index of the subcommand in the segment's argv. */
  subIndex: number;
  /** The subcommand's arguments. */
  args: string[];
}

export function gitCall(segment: ShellSegment): GitCall | null {
  if (commandName(segment) !== 'git') return null;
  const subIndex = gitSubcommandIndex(segment.argv);
  if (subIndex < 0) return null;
  return { sub: segment.argv[subIndex]!, subIndex, args: segment.argv.slice(subIndex + 1) };
}

/** Where a commit or push skips the project's hooks, as indexes into the full argv. */
export interface HookBypass {
  index: number;
  /** `flag`: the whole word (--no-verify, -n); `letter`: an `n` inside `-an`; `config`: `-c core.hooksPath=…` (two words). */
  kind: 'flag' | 'letter' | 'config';
}

const NO_BYPASSES: readonly HookBypass[] = Object.freeze([]);

/** commit's options whose value follows (the next word, or the rest of a short-option cluster). */
const COMMIT_VALUE_LETTERS = new Set(['m', 'F', 'c', 'C', 't']);
const COMMIT_VALUE_OPTIONS = new Set([
  '--message', '--file', '--reuse-message', '--reedit-message', '--fixup', '--squash', '--author', '--date', '--template', '--trailer', '--cleanup',
  '--pathspec-from-file',
]);

/** `git commit --no-verify`/`-n`, `git push --no-verify`, or hooks pointed elsewhere with `-c core.hooksPath=…`. */
export function hookBypasses(argv: readonly string[]): readonly HookBypass[] {
  const subIndex = gitSubcommandIndex(argv);
  const sub = argv[subIndex];
  // Asked of every command of a line: most have no list of their own.
  if (sub !== 'commit' && sub !== 'push') return NO_BYPASSES;
  const found: HookBypass[] = [];
  for (let i = 1; i < subIndex; i++) {
    if (argv[i] === '-c' && /^core\.hookspath=/i.test(argv[i + 1] ?? '')) found.push({ index: i, kind: 'config' });
  }
  for (let i = subIndex + 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '--no-verify') found.push({ index: i, kind: 'flag' });
    else if (sub !== 'commit') continue;
    else if (arg === '-n') found.push({ index: i, kind: 'flag' });
    else if (COMMIT_VALUE_OPTIONS.has(arg)) i++;
    else if (/^-[a-zA-Z]{2,}$/.test(arg)) {
      for (let j = 1; j < arg.length; j++) {
        if (arg[j] === 'n') found.push({ index: i, kind: 'letter' });
        if (COMMIT_VALUE_LETTERS.has(arg[j]!)) {
          if (j === arg.length - 1) i++;
          break;
        }
      }
    }
  }
  return found;
}
