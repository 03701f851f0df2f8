import { forcePush, forcePushToSharedBranch, gitSubcommandIndex, isSharedBranch, pushedBranches } from '../parsing/command-facts.js';
import { shellDeletions } from '../parsing/deletions.js';
import { gitCleanDryRun, type ParsedAction } from '../parsing/parsed-action.js';
import { segmentsRunning } from '../parsing/segment-index.js';
import { basename, parseShellCommand, type ShellSegment } from '../parsing/shell-command.js';
import { builtInRule, type Finding } from './built-in-rule.js';
import { withCommand } from './command-input.js';
import { branchesMadeBy, gitCall, gitFalse, hookBypasses } from './git-command.js';
import type { ReviewSession } from '../session/review-session.js';
import { applyEdits, commandStart, removeWord, shellCommands, type ShellWord, type TextEdit } from './shell-words.js';
import { credentialIn } from './credential-variables.js';
import { applyGitStep, gitStepsOf, secretsIn, stagedSecret, type RepositorySecrets } from './staged-secrets.js';
import { ownEntry } from '../own-entry.js';

const GIT = new Set(['git']);

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
    const forced = segmentsRunning(action.segments, GIT).filter((s) => forcePush(s) === 'force');
    if (!forced.length) return null;
    // Only a push written at the top of the line can be rewritten in place; a shared branch needs a person either way.
    const shared = forced.find(forcePushToSharedBranch);
    const rewritten = action.command === undefined || shared || forced.some((s) => s.nested) ? null : leaseInsteadOfForce(action.command);
    if (shared) {
      const branch = pushedBranches(shared.argv).find((b) => !/^[\w.-]+\/[\w.-]+$/.test(b)) ?? 'the current branch';
      return {
        verdict: 'require_approval',
        score: 0.85,
        factors: ['history_rewrite', 'shared_branch'],
        reason: `This force push overwrites ${branch === 'the current branch' ? 'the current branch (its name is not given, so it may be main)' : branch} on the remote and discards commits others pushed there. A person must approve it.`,
        alternative: `Push to a branch of your own, or use git push --force-with-lease <remote> <branch>, which refuses if the remote moved since you fetched.`,
      };
    }
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

/** Variables that make the hook managers skip the hooks: husky's `HUSKY=0`, lefthook's `LEFTHOOK=0`, pre-commit's `SKIP=…`. */
const HOOK_SKIPS: ReadonlyMap<string, RegExp> = new Map([
  ['HUSKY', /^(?:0|false)$/i],
  ['HUSKY_SKIP_HOOKS', /^(?:1|true)$/i],
  ['LEFTHOOK', /^(?:0|false)$/i],
  ['SKIP', /\S/],
]);

/** `HUSKY=0 git commit …`: the assignment that skips the hooks, or null. */
function hooksSkippedByVariable(segment: ShellSegment): string | null {
  if (segment.program !== 'git') return null;
  const sub = segment.argv[gitSubcommandIndex(segment.argv)];
  if (sub !== 'commit' && sub !== 'push') return null;
  const skip = Object.entries(segment.assignments).find(([name, value]) => HOOK_SKIPS.get(name)?.test(value));
  return skip ? `${skip[0]}=${skip[1]}` : null;
}

export const hookBypassRule = builtInRule({
  name: 'hook_bypass',
  description: 'git commit/push with --no-verify becomes the same command with the hooks running; HUSKY=0 or SKIP=… before it is warned.',
  reads: 'action',
  check({ action }) {
    const skipped = action.segments.map(hooksSkippedByVariable).find((s) => s !== null);
    if (skipped && !action.segments.some((s) => hookBypasses(s.argv).length > 0)) {
      return {
        verdict: 'warn',
        score: 0.65,
        factors: ['bypasses_checks'],
        reason: `This skips the project's git hooks (${skipped}). Hooks are the project's checks: bypassing them hides the failure instead of fixing it.`,
        alternative: `Run the command without ${skipped} and fix what the hooks report.`,
      };
    }
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

/** The branch a push deletes on the remote (`--delete`/`-d`, `:branch`), or null. */
function deletedRemoteBranch(args: readonly string[]): string | null {
  const names = deletedRemoteBranches(args);
  return names === null ? null : names.join(', ') || 'a branch';
}

/** The branches a push deletes on the remote, by name (empty when it names none), or null when it deletes none. */
function deletedRemoteBranches(args: readonly string[]): string[] | null {
  const colons = args.filter((a) => a.startsWith(':') && a.length > 1);
  if (colons.length) return colons.map((a) => a.slice(1));
  if (!args.includes('--delete') && !args.includes('-d')) return null;
  // The first non-option is the remote.
  return args.filter((a) => !a.startsWith('-')).slice(1);
}

/**
 * A line whose only loss is deleting, on the remote, branches this session made (in an earlier command or before
 * it on the line): renaming one's own branch, or cleaning up after itself. Shared branches are never its own.
 */
function deletesOnlyItsOwnBranches(action: ParsedAction, session: ReviewSession): string[] | null {
  const deleted: string[] = [];
  for (const segment of segmentsRunning(action.segments, GIT)) {
    const call = gitCall(segment);
    if (call?.sub !== 'push') continue;
    const names = deletedRemoteBranches(call.args);
    if (names === null) continue;
    if (!names.length || call.args.includes('--mirror')) return null;
    deleted.push(...names);
  }
  if (!deleted.length) return null;
  const made = new Set([...branchesMadeBy(action.segments), ...session.history.flatMap((r) => r.shell?.branchesMade ?? [])]);
  return deleted.every((b) => made.has(b) && !isSharedBranch(b)) ? deleted : null;
}

/** Expiry values that mean "now": nothing unreachable is kept. */
const PRUNE_NOW = /^(?:now|all|0|0\.\w+\.ago)$/i;

const DISCARDS: Omit<Finding, 'reason' | 'alternative'> = { verdict: 'require_approval', score: 0.8, factors: ['discards_work', 'irreversible'] };
const NOTE: Omit<Finding, 'reason' | 'alternative'> = { verdict: 'warn', score: 0.6, factors: ['discards_work'] };

/** git's own store of a repository: its objects, refs, reflogs and worktrees (`.git/objects`, `backup.git/refs`). */
const GIT_STORE = /(?:^|\/)[^/]*\.git\/(?:objects|refs|logs|packed-refs|worktrees|shallow)(?:\/|$)|(?:^|\/)\.git\/?$/;

/** A deletion or an overwrite inside git's store: commits and branches lost with no git command to undo it. */
function storeDamage(action: ParsedAction): Finding | null {
  const deleted = shellDeletions(action).find((d) => GIT_STORE.test(d.target));
  let path = deleted?.target;
  for (const segment of deleted ? [] : action.segments) {
    const written = segment.redirects.find((r) => /^>{1,2}$|^>\|$/.test(r.operator) && GIT_STORE.test(r.target));
    if (written) {
      path = written.target;
      break;
    }
  }
  if (path === undefined) return null;
  return {
    ...DISCARDS,
    factors: ['history_rewrite', 'irreversible'],
    reason: `This ${deleted ? 'deletes' : 'overwrites'} ${path}, part of git's own store of commits, branches and their history; what is lost there cannot be recovered with git. A person must approve it.`,
    alternative: 'Use git commands to change the repository (git branch -d, git gc); to start over, clone the repository again into a new folder.',
  };
}

/** Whether the session wrote a file, or ran anything that may (a build, a formatter, a script), before this action. */
function changedAnything(session: ReviewSession): boolean {
  return session.history.some((r) => r.writtenPaths.length > 0 || r.intents.some((i) => i !== 'file_read' && i !== 'message' && i !== 'network_request'));
}

/**
 * A worktree the session added, deleted whole (`rm -rf ../app-fix`): its uncommitted changes go with it, as with
 * `git worktree remove --force`, and git keeps a record of a worktree that is gone.
 */
function worktreeDeletion(action: ParsedAction, session: ReviewSession): Finding | null {
  if (!session.worktrees.length) return null;
  const deleted = shellDeletions(action).find((d) => d.recursive && session.worktrees.includes(d.target.replace(/\/+$/, '')));
  if (!deleted) return null;
  return {
    ...DISCARDS,
    reason: `This deletes the worktree ${deleted.target} whole, with any uncommitted changes in it; they cannot be recovered. A person must approve it.`,
    alternative: 'Run git worktree remove on it: git refuses while the worktree holds changes, and forgets it cleanly.',
  };
}

function historyFinding(action: ParsedAction): Finding | null {
  let strongest: Finding | null = storeDamage(action);
  if (strongest) return strongest;
  for (const segment of segmentsRunning(action.segments, GIT)) {
    const call = gitCall(segment);
    if (!call) continue;
    const finding = gitDestruction(call.sub, call.args, call.config);
    if (finding && (!strongest || (finding.verdict === 'require_approval' && strongest.verdict === 'warn'))) strongest = finding;
  }
  return strongest;
}

/** Subcommands' verdicts: losing work nobody can get back needs a person; dropping one stash or branch is a warning. */
/** checkout/switch options whose value follows (the next word, or the rest of a short cluster). */
const VALUE_LETTERS = new Set(['b', 'B', 'c', 'C', 'U']);
const VALUE_OPTIONS = new Set(['--orphan', '--conflict', '--unified', '--inter-hunk-context', '--pathspec-from-file', '--message', '--author']);
/** Options whose value may follow as the next word when it is one of these. */
const OPTIONAL_VALUES: Record<string, RegExp> = { '--track': /^(?:direct|inherit)$/, '--recurse-submodules': /^(?:checkout|on-demand|yes|no)$/ };

/** Flags (letters of short clusters up to one that takes a value, long options) and operands of a git subcommand. */
function readOptions(args: readonly string[]): { letters: Set<string>; long: Set<string>; operands: string[]; dashes: number } {
  const letters = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let dashes = -1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      dashes = operands.length;
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const name = a.split('=')[0]!;
      long.add(name);
      if (!a.includes('=') && (VALUE_OPTIONS.has(name) || ownEntry(OPTIONAL_VALUES, name)?.test(args[i + 1] ?? ''))) i++;
    } else if (/^-[a-zA-Z]/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        letters.add(a[j]!);
        if (VALUE_LETTERS.has(a[j]!) || a[j] === 'm') {
          if (j === a.length - 1) i++;
          break;
        }
      }
    } else operands.push(a);
  }
  return { letters, long, operands, dashes };
}

function gitDestruction(sub: string, args: readonly string[], config: ReadonlyMap<string, string>): Finding | null {
  const options = readOptions(args);
  const short = (letter: string, longName?: string) => options.letters.has(letter) || (longName !== undefined && options.long.has(longName));
  const operands = options.operands;
  switch (sub) {
    case 'push': {
      if (options.long.has('--mirror') && !options.long.has('--dry-run') && !short('n')) {
        return { verdict: 'require_approval', score: 0.8, factors: ['remote_branch_deletion', 'history_rewrite', 'irreversible'], reason: 'git push --mirror makes the remote an exact copy of this clone: every branch and tag the remote has and this clone lacks is deleted there, and every other one is overwritten, for everyone who uses it. A person must approve it.', alternative: 'Push the branches you mean to, by name.' };
      }
      const deleted = deletedRemoteBranch(args);
      return deleted === null
        ? null
        : { verdict: 'require_approval', score: 0.8, factors: ['remote_branch_deletion', 'irreversible'], reason: `This deletes ${deleted} on the remote, for everyone who uses it. A person must approve deleting a remote branch.`, alternative: 'Leave the remote branch in place and say in your report that it can be deleted.' };
    }
    case 'reset': {
      const mode = args.find((a) => a === '--hard' || a === '--merge' || a === '--keep');
      if (!mode) return null;
      const target = operands.find((a) => a !== 'HEAD');
      return {
        ...DISCARDS,
        factors: target ? ['discards_work', 'history_rewrite', 'irreversible'] : DISCARDS.factors,
        reason: target
          ? `git reset ${mode} ${target} drops the commits after ${target} and every uncommitted change; they cannot be recovered. A person must approve throwing work away.`
          : `git reset ${mode} discards every uncommitted change in the working tree; they cannot be recovered. A person must approve throwing work away.`,
        alternative: target ? 'Create a branch at the current commit first (git branch backup), or undo a commit with git revert.' : 'Run git stash (keeps the changes, recoverable with git stash pop), or commit them first.',
      };
    }
    case 'clean':
      // With clean.requireForce off, git clean deletes without -f.
      if ((!short('f', '--force') && !gitFalse(config.get('clean.requireforce'))) || gitCleanDryRun(args)) return null;
      return {
        ...DISCARDS,
        reason: `git clean -f deletes untracked files${short('x') || short('X') ? ', and with -x also ignored ones such as .env files and local configuration' : ''}; they are not in git and cannot be recovered. A person must approve it.`,
        alternative: 'Run git clean -n to list what would be deleted, then delete only what you created.',
      };
    case 'checkout':
    case 'restore':
    case 'switch': {
      const staged = sub === 'restore' && (args.includes('--staged') || args.includes('-S')) && !(args.includes('--worktree') || args.includes('-W'));
      if (staged || args.includes('--help')) return null;
      const whole = (p: string) => p === '.' || p === './' || p === ':/' || p === '*' || p === ':(top)';
      // `git checkout .`: a pathspec, not a branch.
      const paths = sub === 'switch' ? [] : options.dashes >= 0 ? operands.slice(options.dashes) : sub === 'restore' || whole(operands[0] ?? '') ? operands : operands.slice(1);
      const fromFile = options.long.has('--pathspec-from-file');
      if (paths.some(whole)) {
        return { ...DISCARDS, reason: `git ${sub} ${paths.join(' ')} discards every uncommitted change in the working tree; they cannot be recovered. A person must approve it.`, alternative: 'Run git stash first (recoverable with git stash pop), or restore only the files you mean to.' };
      }
      const force = sub !== 'restore' && (short('f', '--force') || args.includes('--discard-changes'));
      if (paths.length || fromFile || force) {
        const what = paths.length ? paths.join(' ') : fromFile ? 'the files listed in the pathspec file' : 'every file with uncommitted changes';
        return { ...NOTE, factors: [...NOTE.factors, 'restores_named_files'], reason: `git ${sub} ${force ? 'with --force ' : ''}discards the uncommitted changes to ${what}; they cannot be recovered.`, alternative: 'Run git stash first, or git diff the file to keep what you need.' };
      }
      return null;
    }
    case 'stash':
      if (operands[0] === 'clear') return { ...DISCARDS, reason: 'git stash clear deletes every stash at once; stashed work cannot be recovered. A person must approve it.', alternative: 'Drop only the stash you no longer need (git stash drop stash@{n}) after checking it with git stash show -p.' };
      if (operands[0] === 'drop') return { ...NOTE, reason: `git stash drop deletes ${operands[1] ?? 'the latest stash'}; its changes cannot be recovered easily.`, alternative: 'Check it first with git stash show -p, or apply it with git stash pop.' };
      return null;
    case 'branch':
      if (args.includes('-D') || args.some((a) => /^-[a-zA-Z]*D/.test(a)) || (short('d', '--delete') && short('f', '--force'))) {
        // The branch others build on, deleted whether or not its commits are anywhere else, is the project's history.
        const shared = operands.find((b) => isSharedBranch(b) && b !== 'HEAD');
        if (shared) return { ...DISCARDS, reason: `git branch -D ${shared} deletes the project's main line even if its commits are merged nowhere else. A person must approve it.`, alternative: `Keep ${shared}; work on a new branch, or rename with git branch -m only after the user agrees.` };
        return { ...NOTE, reason: `git branch -D deletes ${operands.join(', ') || 'the branch'} even if its commits are merged nowhere else.`, alternative: 'Use git branch -d, which refuses to delete unmerged work.' };
      }
      return null;
    case 'worktree':
      if (operands[0] === 'remove' && short('f', '--force')) return { ...DISCARDS, reason: `git worktree remove --force deletes the worktree ${operands[1] ?? ''} with its uncommitted changes. A person must approve it.`.replace('  ', ' '), alternative: 'Remove it without --force: git refuses while it holds changes.' };
      return null;
    case 'filter-branch':
    case 'filter-repo':
      return { ...DISCARDS, factors: ['history_rewrite', 'irreversible'], reason: `git ${sub} rewrites the whole history of the repository; every clone and open branch diverges. A person must approve it.`, alternative: 'Fix the problem with a new commit (git revert, or a commit that removes the file) instead of rewriting history.' };
    case 'reflog':
      if (operands[0] === 'expire' || operands[0] === 'delete') return { ...DISCARDS, factors: ['history_rewrite', 'irreversible'], reason: `git reflog ${operands[0]} deletes the record that lets lost commits be recovered. A person must approve it.` };
      return null;
    case 'prune':
      if (short('n', '--dry-run')) return null;
      {
        const expire = args.find((a) => a.startsWith('--expire'));
        const value = expire?.includes('=') ? expire.slice(expire.indexOf('=') + 1) : expire ? args[args.indexOf(expire) + 1] : undefined;
        // Without --expire, git prune deletes every unreachable object whatever its age.
        if (value !== undefined && !PRUNE_NOW.test(value)) return null;
      }
      return { ...DISCARDS, factors: ['history_rewrite', 'irreversible'], reason: 'git prune deletes unreachable objects at once, including commits only the reflog or a lost branch still remembers. A person must approve it.', alternative: 'Leave pruning to git gc, which keeps unreachable objects for two weeks.' };
    case 'gc':
      if (args.some((a) => a.startsWith('--prune=') && PRUNE_NOW.test(a.slice('--prune='.length))) || PRUNE_NOW.test(config.get('gc.pruneexpire') ?? '-')) return { ...DISCARDS, factors: ['history_rewrite', 'irreversible'], reason: 'git gc --prune=now deletes unreachable commits at once, including work only the reflog still remembers. A person must approve it.', alternative: 'Run git gc without --prune=now: unreachable commits are kept for two weeks.' };
      return null;
    case 'update-ref':
      return args.includes('-d') ? { ...NOTE, reason: `git update-ref -d deletes the ref ${operands[0] ?? ''} without any check.`.replace('  ', ' ') } : null;
    default:
      return null;
  }
}

export const historyDestructionRule = builtInRule({
  name: 'history_destruction',
  description: 'Discarding work git cannot give back (reset --hard/--merge, clean -f, checkout/restore of the whole tree, stash clear, worktree remove --force or a worktree the session added deleted whole, filter-branch, reflog expire, prune, gc --prune=now, deleting a remote branch, push --mirror) needs approval; dropping one stash, branch -D, restoring named files (held while the session has changed nothing: then they are not its own) and deleting a remote branch the session made warn.',
  reads: 'session',
  check: ({ action, session }) => {
    const finding = historyFinding(action) ?? worktreeDeletion(action, session);
    // Named files restored by a session that has changed nothing yet: the changes discarded can only be someone else's.
    if (finding?.factors.includes('restores_named_files') && !changedAnything(session)) {
      return { ...DISCARDS, reason: `${finding.reason.replace(/; they cannot be recovered\.$/, '')}, and this session has changed nothing yet: they are someone else's work and cannot be recovered. A person must approve it.`, alternative: finding.alternative };
    }
    if (!finding?.factors.includes('remote_branch_deletion') || finding.factors.includes('history_rewrite')) return finding;
    const own = deletesOnlyItsOwnBranches(action, session);
    return own ? { ...NOTE, reason: `This deletes ${own.join(', ')} on the remote, a branch this session made; anyone who fetched it keeps a copy.`, alternative: 'Say in your report that the old branch is gone.' } : finding;
  },
});

/** Options of commit and tag that take the message. */
const MESSAGE_OPTIONS = new Set(['-m', '--message']);

/**
 * A credential variable the shell expands into a commit's or tag's message (`git commit -m "Key: $GITHUB_TOKEN"`).
 * A message read from a here-document (`"$(cat <<'EOF' …)"`) is left alone: a quoted delimiter expands nothing.
 */
function credentialInMessage(action: ParsedAction): string | undefined {
  for (const segment of action.segments) {
    const call = gitCall(segment);
    if (call?.sub !== 'commit' && call?.sub !== 'tag') continue;
    for (let i = call.subIndex + 1; i < segment.argv.length - 1; i++) {
      const option = segment.argv[i]!;
      if (!MESSAGE_OPTIONS.has(option) && !/^-[a-zA-Z]*m$/.test(option)) continue;
      const message = segment.argv[i + 1]!;
      if (segment.dynamic[i + 1] && !message.includes('$(') && !message.includes('`')) {
        const found = credentialIn(message);
        if (found) return found;
      }
    }
  }
  return undefined;
}

export const secretCommitRule = builtInRule({
  name: 'secret_commit',
  description: "Putting a credential file in the repository (git add/stage/commit of .env.local, keys, credentials.json, ~/.ssh, a home's login directory such as ~/.codex, or the whole home), or a credential variable's value in a commit message, needs approval; a plain .env is warned.",
  reads: 'action',
  check({ action }) {
    const expanded = credentialInMessage(action);
    if (expanded) {
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['secrets', 'exfiltration'],
        reason: `The shell puts the value of ${expanded} into this commit's message (a variable in double quotes is expanded): the history keeps it, and a push gives it to everyone with the repository. A person must approve it.`,
        alternative: `Name the variable in single quotes ('${expanded}'), or leave it out of the message.`,
      };
    }
    const staged = stagedSecret(action);
    if (!staged) return null;
    if ('home' in staged) {
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['secrets', 'exfiltration'],
        reason: `This puts the whole home directory (${staged.home}) in a repository: every key and login in it (~/.ssh, ~/.aws, the agents' own logins) goes into the history, and a push gives them to everyone with the repository. A person must approve it.`,
        alternative: 'Add the files the task is about by name, or keep dotfiles in a repository of their own with a .gitignore that ignores everything else.',
      };
    }
    return {
      verdict: staged.plainEnv ? 'warn' : 'require_approval',
      score: staged.plainEnv ? 0.5 : 0.8,
      factors: ['secrets', 'exfiltration'],
      reason: `This puts ${staged.file} in the repository: a commit keeps it in the history, and a push gives it to everyone with the repository.${staged.plainEnv ? '' : ' A person must approve it.'}`,
      alternative: 'Leave credential files out of git (list them in .gitignore) and commit an example file without real values instead.',
    };
  },
});

export const secretPushRule = builtInRule({
  name: 'secret_push',
  description:
    'A commit or push after the session staged credentials or the whole home directory (a `git add` that secret_commit held and a person let run) needs approval again: the commit keeps them in the history, the push is where they leave the machine.',
  reads: 'session',
  check({ action, session }) {
    const steps = gitStepsOf(action);
    if (!steps.some((s) => s.kind === 'commit' || s.kind === 'push')) return null;
    const repositories = new Map<string | undefined, RepositorySecrets>();
    for (const step of steps) {
      // This line's own staging is secret_commit's to ask about.
      if (step.kind === 'stage_secret') continue;
      let state = repositories.get(step.where);
      if (!state) repositories.set(step.where, (state = secretsIn(session.history, session.settledGitSteps, step.where)));
      if (step.kind === 'commit' && state.staged) {
        return {
          verdict: 'require_approval',
          score: 0.8,
          factors: ['secrets', 'exfiltration'],
          reason: `This commits ${state.staged}, which this session staged${state.staged === state.tracked ? ' again (it is under version control since an earlier commit)' : ' earlier'}: the keys and logins in it stay in the history, and the next push gives them to everyone with the repository. A person must approve it.`,
          alternative: 'Take them out of the index first (git reset, or git rm --cached <file>), list them in .gitignore, and commit the files the task is about by name.',
        };
      }
      if (step.kind === 'push' && state.committed) {
        return {
          verdict: 'require_approval',
          score: 0.85,
          factors: ['secrets', 'exfiltration'],
          reason: `This pushes a commit that holds ${state.committed}, committed earlier in this session: once pushed every clone has the keys and logins in it, and they must be revoked. A person must approve it.`,
          alternative: 'Take the commit back first (git reset HEAD~1, or git rm --cached <file> and git commit --amend), list the files in .gitignore, then push.',
        };
      }
      applyGitStep(state, step);
    }
    return null;
  },
});
