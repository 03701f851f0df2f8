import { commandName, gitSubcommandIndex } from '../parsing/command-facts.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { ownEntry } from '../own-entry.js';

export interface GitCall {
  sub: string;
  /** Index of the subcommand in the segment's argv. */
  subIndex: number;
  /** The subcommand's arguments, long options written in full (`--h` → `--hard`, as git reads them). */
  args: string[];
  /** Configuration set for this call with `-c key=value` (keys in lower case). */
  config: ReadonlyMap<string, string>;
}

/**
 * The long options of the subcommands whose options decide what is lost. git accepts any unambiguous
 * prefix of a long option (`git reset --h`, `git gc --p=now`), so a prefix is read as the option it names.
 */
const LONG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  reset: ['--hard', '--soft', '--mixed', '--merge', '--keep', '--quiet', '--patch', '--intent-to-add', '--pathspec-from-file', '--pathspec-file-nul', '--recurse-submodules', '--no-recurse-submodules', '--refresh', '--no-refresh'],
  gc: ['--aggressive', '--auto', '--prune', '--no-prune', '--quiet', '--force', '--keep-largest-pack', '--cruft', '--no-cruft', '--max-cruft-size', '--detach', '--no-detach'],
  prune: ['--dry-run', '--verbose', '--progress', '--no-progress', '--expire'],
  clean: ['--force', '--dry-run', '--quiet', '--exclude', '--interactive'],
  push: ['--force', '--force-with-lease', '--no-force-with-lease', '--force-if-includes', '--mirror', '--delete', '--all', '--branches', '--tags', '--follow-tags', '--prune', '--dry-run', '--porcelain', '--set-upstream', '--verbose', '--quiet', '--progress', '--no-verify', '--verify', '--atomic', '--signed', '--push-option', '--repo', '--recurse-submodules', '--thin', '--no-thin', '--ipv4', '--ipv6', '--receive-pack', '--exec'],
  stash: ['--quiet'],
  branch: ['--delete', '--force', '--move', '--copy', '--list', '--all', '--remotes', '--verbose', '--quiet', '--track', '--no-track', '--set-upstream-to', '--unset-upstream', '--show-current', '--contains', '--merged', '--no-merged'],
  reflog: ['--expire', '--expire-unreachable', '--all', '--single-worktree', '--rewrite', '--updateref', '--stale-fix', '--dry-run', '--verbose'],
};

/** `--h` → `--hard` when exactly one of `known` starts with it; anything else as written. */
function fullOption(arg: string, known: readonly string[] | undefined): string {
  if (!known || !arg.startsWith('--') || arg === '--') return arg;
  const equals = arg.indexOf('=');
  const name = equals < 0 ? arg : arg.slice(0, equals);
  if (known.includes(name)) return arg;
  const candidates = known.filter((option) => option.startsWith(name));
  return candidates.length === 1 ? candidates[0]! + (equals < 0 ? '' : arg.slice(equals)) : arg;
}

/** `-c key=value` settings given before the subcommand. */
function callConfig(argv: readonly string[], subIndex: number): Map<string, string> {
  const config = new Map<string, string>();
  for (let i = 1; i < subIndex; i++) {
    if (argv[i] !== '-c') continue;
    const setting = argv[i + 1] ?? '';
    const equals = setting.indexOf('=');
    config.set((equals < 0 ? setting : setting.slice(0, equals)).toLowerCase(), equals < 0 ? 'true' : setting.slice(equals + 1));
  }
  return config;
}

export function gitCall(segment: ShellSegment): GitCall | null {
  if (commandName(segment) !== 'git') return null;
  const subIndex = gitSubcommandIndex(segment.argv);
  if (subIndex < 0) return null;
  const config = callConfig(segment.argv, subIndex);
  let sub = segment.argv[subIndex]!;
  let args = segment.argv.slice(subIndex + 1);
  // An alias defined on the line itself (`git -c alias.wipe='reset --hard' wipe`) runs what it names.
  const alias = config.get(`alias.${sub.toLowerCase()}`);
  if (alias && !alias.startsWith('!')) {
    const [aliasSub, ...aliasArgs] = alias.trim().split(/\s+/);
    if (aliasSub) {
      sub = aliasSub;
      args = [...aliasArgs, ...args];
    }
  }
  const known = ownEntry(LONG_OPTIONS, sub);
  return { sub, subIndex, args: args.map((a) => fullOption(a, known)), config };
}

/** Whether a git setting's value means false (`false`, `no`, `off`, `0`). */
export function gitFalse(value: string | undefined): boolean {
  return value !== undefined && /^(?:false|no|off|0)$/i.test(value.trim());
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

/**
 * The branches a line makes: `git checkout -b|-B name`, `git switch -c|-C name`, `git branch name` and the new
 * name of `git branch -m [old] new`. A remote branch of one of those is the session's own.
 */
export function branchesMadeBy(segments: readonly ShellSegment[]): string[] {
  const made: string[] = [];
  for (const segment of segments) {
    const call = gitCall(segment);
    if (!call) continue;
    const { sub, args } = call;
    if (sub === 'checkout' || sub === 'switch') {
      const i = args.findIndex((a) => (sub === 'checkout' ? /^-[bB]$/ : /^-[cC]$|^--create$|^--force-create$/).test(a));
      if (i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('-')) made.push(args[i + 1]!);
    } else if (sub === 'branch') {
      const operands = args.filter((a) => !a.startsWith('-'));
      if (args.some((a) => /^-[mM]$|^--move$/.test(a))) {
        if (operands.length) made.push(operands.at(-1)!);
      } else if (!args.some((a) => a.startsWith('-')) && operands.length >= 1) made.push(operands[0]!);
    }
  }
  return made;
}
