import { forcePush } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { basename, parseShellCommand } from '../parsing/shell-command.js';
import { builtInRule, type Finding } from './built-in-rule.js';
import { withCommand } from './command-input.js';
import { gitSubcommandIndex, gitCall, hookBypasses } from './git-command.js';
import { applyEdits, commandStart, removeWord, shellCommands, type ShellWord, type TextEdit } from './shell-words.js';

/** The git calls of a command line with their positioned words, from the subcommand on. */
function gitCallsIn(command: string): { words: ShellWord[]; sub: string; subAt: number }[] {
  const calls = [];
  for (const words of shellCommands(command)) {
    const start = commandStart(words);
    if (start < 0 || basename(words[start]!.value) !== 'git') continue;
    const argv = words.slice(start).map((w) => w.value);
    const subIndex = gitSubcommandIndex(argv);
    if (subIndex > 0) calls.push({ words: words.slice(start), sub: argv[subIndex]!, subAt: subIndex });
  }
  return calls;
}

/** `git push --force` → `git push --force-with-lease`, or null when the line cannot be rewritten safely (`+main`). */
export function leaseInsteadOfForce(command: string): string | null {
  const edits: TextEdit[] = [];
  for (const call of gitCallsIn(command)) {
    if (call.sub !== 'push') continue;
    for (const word of call.words.slice(call.subAt + 1)) {
      if (word.text !== word.value) continue;
      if (word.value === '--force' || word.value === '-f') edits.push({ start: word.start, end: word.end, text: '--force-with-lease' });
      else if (/^-[a-zA-Z]*f[a-zA-Z]*$/.test(word.value)) {
        const rest = word.value.replace(/f/g, '');
        edits.push({ start: word.start, end: word.end, text: rest === '-' ? '--force-with-lease' : `${rest} --force-with-lease` });
      }
    }
  }
  if (!edits.length) return null;
  const rewritten = applyEdits(command, edits);
  return parseShellCommand(rewritten).some((s) => forcePush(s) === 'force') ? null : rewritten;
}

/** The line without `--no-verify`, `-n` on commit, or a `core.hooksPath` override; null when that cannot be done safely. */
export function withHooks(command: string): string | null {
  const edits: TextEdit[] = [];
  for (const call of gitCallsIn(command)) {
    const argv = call.words.map((w) => w.value);
    const letters = new Set<number>();
    for (const bypass of hookBypasses(argv)) {
      const word = call.words[bypass.index]!;
      if (bypass.kind === 'flag') edits.push(removeWord(command, word));
      else if (bypass.kind === 'config') {
        const value = call.words[bypass.index + 1]!;
        edits.push({ ...removeWord(command, word), end: removeWord(command, value).end });
      } else if (word.text === word.value && !letters.has(bypass.index)) {
        letters.add(bypass.index);
        edits.push({ start: word.start, end: word.end, text: word.value.replace(/n/g, '') });
      }
    }
  }
  if (!edits.length) return null;
  const rewritten = applyEdits(command, edits);
  return parseShellCommand(rewritten).some((s) => hookBypasses(s.argv).length > 0) ? null : rewritten;
}

export const forcePushRule = builtInRule({
  name: 'force_push',
  description: 'git push --force becomes --force-with-lease, which refuses to overwrite commits it has not seen.',
  reads: 'action',
  check({ action }) {
    if (!action.segments.some((s) => forcePush(s) === 'force')) return null;
    const rewritten = action.command === undefined ? null : leaseInsteadOfForce(action.command);
    if (rewritten !== null) {
      return {
        verdict: 'modify',
        score: 0.7,
        factors: ['history_rewrite'],
        reason:
          'git push --force overwrites the remote branch and silently discards commits others pushed since you fetched. ' +
          'The command was changed to use --force-with-lease, which refuses if the remote moved. If it is refused, fetch and integrate the remote changes first.',
        modifiedInput: withCommand(action, rewritten),
      };
    }
    // Warden cannot make this push safe itself, so a person decides.
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['history_rewrite'],
      reason: 'This force push (a +refspec or --force) overwrites the remote branch and can discard commits others pushed. A person must approve it.',
      alternative: 'Use git push --force-with-lease <remote> <branch>, which refuses if the remote moved since you fetched.',
    };
  },
});

export const hookBypassRule = builtInRule({
  name: 'hook_bypass',
  description: 'git commit/push with --no-verify becomes the same command with the hooks running.',
  reads: 'action',
  check({ action }) {
    if (!action.segments.some((s) => hookBypasses(s.argv).length > 0)) return null;
    const reason =
      "This skips the project's git hooks (--no-verify, -n, or core.hooksPath). Hooks are the project's checks: bypassing them hides the failure instead of fixing it.";
    const rewritten = action.command === undefined ? null : withHooks(action.command);
    if (rewritten !== null) {
      return {
        verdict: 'modify',
        score: 0.7,
        factors: ['bypasses_checks'],
        reason: `${reason} The command was changed to run with the hooks; if a hook fails, read its output and fix the cause.`,
        modifiedInput: withCommand(action, rewritten),
      };
    }
    return {
      verdict: 'warn',
      score: 0.65,
      factors: ['bypasses_checks'],
      reason,
      alternative: 'Run the command without --no-verify and fix what the hooks report.',
    };
  },
});

function hasShortFlag(args: readonly string[], letter: string, long: string): boolean {
  return args.some((a) => a === long || (/^-[a-zA-Z]+$/.test(a) && a.includes(letter)));
}

const WHOLE_TREE = new Set(['.', './', ':/', '*']);

/** `git checkout .`, `git checkout -f`, `git restore .` (not `--staged` alone): the working tree's changes go. */
function discardsWorkingTree(sub: string, args: readonly string[]): boolean {
  const wholeTree = args.some((a) => WHOLE_TREE.has(a));
  if (sub === 'checkout') return wholeTree || args.includes('-f') || args.includes('--force');
  if (sub !== 'restore' || !wholeTree) return false;
  return !(args.includes('--staged') || args.includes('-S')) || args.includes('--worktree') || args.includes('-W');
}

/** The branch a push deletes on the remote (`--delete`/`-d`, `:branch`), or null. */
function deletedRemoteBranch(args: readonly string[]): string | null {
  const colon = args.find((a) => a.startsWith(':') && a.length > 1);
  if (colon) return colon.slice(1);
  if (!args.includes('--delete') && !args.includes('-d')) return null;
  // The first non-option is the remote.
  return args.filter((a) => !a.startsWith('-')).slice(1).join(', ') || 'a branch';
}

const DISCARDS: Omit<Finding, 'reason' | 'alternative'> = { verdict: 'warn', score: 0.65, factors: ['discards_work'] };

function historyFinding(action: ParsedAction): Finding | null {
  let warning: Finding | null = null;
  for (const segment of action.segments) {
    const call = gitCall(segment);
    if (!call) continue;
    const { sub, args } = call;
    const deleted = sub === 'push' ? deletedRemoteBranch(args) : null;
    if (deleted !== null) {
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['remote_branch_deletion', 'irreversible'],
        reason: `This deletes ${deleted} on the remote, for everyone who uses it. A person must approve deleting a remote branch.`,
        alternative: 'Leave the remote branch in place and say in your report that it can be deleted.',
      };
    }
    if (warning) continue;
    if (sub === 'reset' && args.includes('--hard')) {
      // Resetting to another commit also drops commits, not only the uncommitted work.
      const target = args.find((a) => !a.startsWith('-') && a !== 'HEAD');
      if (target !== undefined) {
        return {
          verdict: 'require_approval',
          score: 0.8,
          factors: ['discards_work', 'history_rewrite'],
          reason: `git reset --hard ${target} drops the commits after ${target} and every uncommitted change; a person must approve throwing work away.`,
          alternative: 'Create a branch at the current commit first (git branch backup), or use git revert to undo a commit.',
        };
      }
      warning = {
        ...DISCARDS,
        reason: 'git reset --hard discards every uncommitted change in the working tree; they cannot be recovered.',
        alternative: 'Run git stash first (or commit), then reset.',
      };
    } else if (sub === 'clean' && hasShortFlag(args, 'f', '--force') && !hasShortFlag(args, 'n', '--dry-run')) {
      const ignored = args.some((a) => /^-[a-zA-Z]*[xX]/.test(a));
      warning = {
        ...DISCARDS,
        reason: `git clean -f deletes untracked files${ignored ? ', and with -x also ignored ones such as .env files and local configuration' : ''}; they are not in git and cannot be recovered.`,
        alternative: 'Run git clean -n first to see what would be deleted, and delete only what you created.',
      };
    } else if (discardsWorkingTree(sub, args)) {
      warning = {
        ...DISCARDS,
        reason: `This git ${sub} discards every uncommitted change in the working tree; they cannot be recovered.`,
        alternative: 'Restore only the files you mean to, or run git stash first.',
      };
    } else if (sub === 'branch' && (args.includes('-D') || (args.includes('--delete') && args.includes('--force')))) {
      warning = {
        ...DISCARDS,
        reason: 'git branch -D deletes the branch even if its commits are merged nowhere else.',
        alternative: 'Use git branch -d, which refuses to delete unmerged work.',
      };
    }
  }
  return warning;
}

export const historyDestructionRule = builtInRule({
  name: 'history_destruction',
  description: 'Discarding uncommitted work (reset --hard, clean -f, checkout/restore of the whole tree) warns; deleting a remote branch needs approval.',
  reads: 'action',
  check: ({ action }) => historyFinding(action),
});
