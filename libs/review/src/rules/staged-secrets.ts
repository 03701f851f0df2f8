import { DerivedValue } from '../derived-value.js';
import { segmentDirectory } from '../parsing/segment-paths.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ActionRecord } from '../session/review-session.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { CREDENTIAL_DIRECTORY_TEXT, DOT_DIRECTORY_LOGIN_FILE, isHomeRoot, resolvePath } from '@warden/actions';
import { gitCall, type GitCall } from './git-command.js';
import { isSecretFile } from './secret-files.js';

/** `git add`, `git stage` and `git commit` name the files they put in the repository after their options. */
const STAGERS = new Set(['add', 'stage', 'commit']);
/** Options of those that take the next word as their value. */
const STAGER_VALUE_OPTIONS = new Set(['-m', '--message', '-F', '--file', '-C', '--reuse-message', '-c', '--reedit-message', '--author', '--date', '-t', '--template', '--chmod', '--pathspec-from-file', '--fixup', '--squash', '--cleanup']);

/** What a staging puts in the repository that holds credentials. */
export type StagedSecret = { file: string; plainEnv: boolean } | { home: string };

/** The directory a git call works in: `git -C dir`, else the line's `cd`, else the shell's (unknown: undefined). */
function gitDirectory(segment: ShellSegment, subIndex: number, cwd: string | undefined): string | undefined {
  let where = segmentDirectory(segment, cwd);
  for (let i = 1; i < subIndex; i++) if (segment.argv[i] === '-C' && segment.argv[i + 1] !== undefined) where = where === undefined && !/^[~/]/.test(segment.argv[i + 1]!) ? undefined : resolvePath(segment.argv[i + 1]!, where);
  return where;
}

/**
 * A credential file named to git (`git add .env.local`, `git add -f ~/.ssh/id_ed25519`, `git commit
 * credentials.json -m …`): once committed it is in the history, and once pushed every clone has it. A project's
 * plain `.env` is committed on purpose by some frameworks (Symfony's defaults): that one is a warning. So is a
 * home's directory that holds a login (`git add ~/.codex`), and the whole home (`cd ~ && git add -A`): every key
 * and login in it goes along.
 */
export function stagedSecret(action: ParsedAction): StagedSecret | undefined {
  for (const segment of action.segments) {
    const call = gitCall(segment);
    const staged = call && stagedBy(segment, call, action.cwd);
    if (staged) return staged;
  }
  return undefined;
}

function stagedBy(segment: ShellSegment, call: GitCall, cwd: string | undefined): StagedSecret | undefined {
  if (!STAGERS.has(call.sub)) return undefined;
  const where = gitDirectory(segment, call.subIndex, cwd);
  const paths: string[] = [];
  for (let i = 0; i < call.args.length; i++) {
    const arg = call.args[i]!;
    if (STAGER_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg === '--') continue;
    if (!arg.startsWith('-')) paths.push(arg);
  }
  // `git add -A` (or `--all`) without a path stages the whole working tree.
  if (!paths.length && call.sub !== 'commit' && call.args.some((a) => a === '-A' || a === '--all')) paths.push('.');
  for (const arg of paths) {
    const file = arg.replace(/^\.\//, '').replace(/\/+$/, '');
    if (isSecretFile(file) || DOT_DIRECTORY_LOGIN_FILE.test(file)) return { file, plainEnv: /(?:^|\/)\.env$/.test(file) };
    if (where === undefined && !/^[~/]/.test(file)) continue;
    // The whole tree of a repository kept in a login directory (`~/.claude` under version control) is what its
    // own .gitignore is written for; the directory named from outside it is not.
    const whole = file === '.' || file === '*';
    const resolved = resolvePath(whole ? '.' : file, where);
    if (!whole && CREDENTIAL_DIRECTORY_TEXT.test(resolved)) return { file, plainEnv: false };
    if (isHomeRoot(resolved) && call.sub !== 'commit') return { home: resolved };
  }
  return undefined;
}

/** What a line does to what a repository will publish, in the order it does it. */
export interface GitStep {
  /**
   * stage_secret: credentials staged; stage_all: every change to tracked files staged (`git add -u`, `-A`, `.`,
   * `commit -a`), credentials a commit of the session's put under version control with them; unstage: the index
   * reset; untrack: files taken out of version control (`git rm --cached`); uncommit: the last commits taken back
   * (`git reset HEAD~1`; `restage` with `--soft`, which leaves what they held staged).
   */
  kind: 'stage_secret' | 'stage_all' | 'unstage' | 'untrack' | 'commit' | 'uncommit' | 'restage' | 'push';
  /** The directory git worked in (`git -C`, the line's `cd`, the session's), when known. */
  where?: string;
  /** A stage_secret's credentials, as a reason names them. */
  what?: string;
}

const NO_STEPS: readonly GitStep[] = Object.freeze([]);

/** A secret as a reason names it. */
function describe(staged: StagedSecret): string {
  return 'home' in staged ? `the whole home directory (${staged.home})` : staged.file;
}

/** `git add -n`, `git commit --dry-run`, `git push -n`: nothing is staged, recorded or sent. */
function dryRun(sub: string, args: readonly string[]): boolean {
  return args.includes('--dry-run') || ((sub === 'push' || sub === 'add') && args.includes('-n'));
}

/**
 * The steps of a line that stage credentials (what `secret_commit` asks about), take staged files back
 * (`git reset`, `git rm --cached`, `git restore --staged`), commit and push. A session remembers them so that a
 * commit or push after an approved `git add` of secrets is asked about too: the push is where they leave.
 */
export function gitStepsOf(action: ParsedAction): readonly GitStep[] {
  return GIT_STEPS.of(action);
}

/** Read once per action: the rules ask, and so does the session's memory of the action. */
const GIT_STEPS = new DerivedValue((action: ParsedAction): readonly GitStep[] => {
  let steps: GitStep[] | undefined;
  for (const segment of action.segments) {
    const call = gitCall(segment);
    if (!call || dryRun(call.sub, call.args)) continue;
    const directory = gitDirectory(segment, call.subIndex, action.cwd);
    const kinds = stepKinds(call.sub, call.args, directory);
    const staged = stagedBy(segment, call, action.cwd);
    // A plain .env is only warned about when staged (frameworks commit theirs): not followed further.
    const secret = staged && !('plainEnv' in staged && staged.plainEnv) ? describe(staged) : undefined;
    if (!kinds.length && !secret) continue;
    // One spelling per directory (`C:\Users\me` and `c:/users/me`), as resolved paths have.
    const where = directory === undefined ? undefined : resolvePath('.', directory);
    steps ??= [];
    if (secret) steps.push({ kind: 'stage_secret', where, what: secret });
    for (const kind of kinds) steps.push({ kind, where });
  }
  return steps ?? NO_STEPS;
});

const NO_KINDS: readonly GitStep['kind'][] = Object.freeze([]);
/** `git add` spellings that stage every change to tracked files. */
const ADD_ALL = new Set(['-u', '--update', '-A', '--all', '.', '*', ':/']);
/** A commit before the current one: `HEAD~1`, `HEAD^`, `@~2`. */
const BACK = /^(?:HEAD|@)(?:[~^]\d*)+$/;

function stepKinds(sub: string, args: readonly string[], directory: string | undefined): readonly GitStep['kind'][] {
  switch (sub) {
    case 'add':
    case 'stage':
      return args.some((a) => ADD_ALL.has(a) || /^-[a-zA-Z]*[uA][a-zA-Z]*$/.test(a)) ? ['stage_all'] : NO_KINDS;
    case 'commit':
      return args.some((a) => a === '--all' || /^-[a-zA-Z]*a[a-zA-Z]*$/.test(a)) ? ['stage_all', 'commit'] : ['commit'];
    case 'push':
      return ['push'];
    case 'reset': {
      const back = args.some((a) => BACK.test(a));
      if (args.includes('--soft')) return back ? ['restage'] : NO_KINDS;
      return back ? ['uncommit'] : ['unstage'];
    }
    case 'rm':
      return !args.includes('--cached') ? NO_KINDS : untracksCredentials(args, directory) ? ['untrack'] : ['unstage'];
    case 'restore':
      return args.includes('--staged') || args.includes('-S') ? ['unstage'] : NO_KINDS;
    default:
      return NO_KINDS;
  }
}

/**
 * Whether two git calls work in the same repository, as far as their directories tell: one holds the other, unless
 * the one that holds is a home directory (a project under a home is a repository of its own as a rule).
 */
export function sameRepository(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a === b) return true;
  const [outer, inner] = a.length < b.length ? [a, b] : [b, a];
  return inner.startsWith(outer.endsWith('/') ? outer : outer + '/') && !isHomeRoot(outer);
}

/** `git rm --cached` of the whole tree or of credentials (`.claude/.credentials.json`, `.claude`, `.env.local`). */
function untracksCredentials(args: readonly string[], directory: string | undefined): boolean {
  return args.some((arg) => {
    if (arg.startsWith('-')) return false;
    const file = arg.replace(/^\.\//, '').replace(/\/+$/, '');
    if (file === '.' || file === '*' || isSecretFile(file) || DOT_DIRECTORY_LOGIN_FILE.test(file)) return true;
    return (directory !== undefined || /^[~/]/.test(file)) && CREDENTIAL_DIRECTORY_TEXT.test(resolvePath(file, directory));
  });
}

/** Credentials in one repository, as the session's git calls left them. */
export interface RepositorySecrets {
  /** In the index. */
  staged?: string;
  /** Committed and not pushed since. */
  committed?: string;
  /** Under version control since a commit of the session's: `git add -u` stages them again once they change. */
  tracked?: string;
}

/**
 * Whether an earlier action's step counts. One that stages or commits counts unless it failed or was blocked (a
 * held one may be approved while its outcome is still on its way); one that takes credentials away (unstaged,
 * untracked, pushed) only once it ran or was let through unasked: a held push a person rejected sent nothing.
 */
export function gitStepCounts(step: GitStep, record: Pick<ActionRecord, 'status' | 'verdict'>): boolean {
  if (record.status === 'error' || record.verdict === 'block') return false;
  if (step.kind === 'stage_secret' || step.kind === 'stage_all' || step.kind === 'commit') return true;
  return record.status === 'success' || record.verdict === 'allow' || record.verdict === 'warn' || record.verdict === 'modify';
}

export function applyGitStep(state: RepositorySecrets, step: GitStep): void {
  switch (step.kind) {
    case 'stage_secret':
      state.staged = step.what;
      break;
    case 'stage_all':
      state.staged ??= state.tracked;
      break;
    case 'untrack':
      state.tracked = undefined;
      state.staged = undefined;
      break;
    case 'unstage':
      state.staged = undefined;
      break;
    case 'commit':
      if (state.staged) state.committed = state.tracked = state.staged;
      state.staged = undefined;
      break;
    case 'uncommit':
      state.committed = state.staged = undefined;
      break;
    case 'restage':
      state.staged ??= state.committed;
      state.committed = undefined;
      break;
    case 'push':
      state.committed = undefined;
      break;
  }
}

/**
 * The credentials the session's git calls left in `where`'s repository: what its actions before the remembered
 * ones left (`settled`, by directory), then each remembered action's steps.
 */
export function secretsIn(history: readonly ActionRecord[], settled: ReadonlyMap<string | undefined, RepositorySecrets>, where: string | undefined): RepositorySecrets {
  const state: RepositorySecrets = {};
  for (const [directory, before] of settled) if (sameRepository(directory, where)) Object.assign(state, before);
  for (const record of history) {
    for (const step of record.shell?.gitSteps ?? NO_STEPS) if (sameRepository(step.where, where) && gitStepCounts(step, record)) applyGitStep(state, step);
  }
  return state;
}
