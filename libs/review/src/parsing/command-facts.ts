import { ownEntry } from '../own-entry.js';
import { basename, type ShellSegment } from './shell-command.js';

/**
 * Facts about shell commands that both the rules and the side-effect analyzer need: what `rm` is asked
 * to do, whether a command destroys a disk or the system, whether it runs a downloaded script.
 */

/** Paths whose recursive deletion or opening to everyone destroys the machine or a user's data. */
export const PROTECTED_PATHS: ReadonlySet<string> = new Set([
  '/', '/*', '~', '~/', '~/*', '$HOME', '${HOME}', '$HOME/', '$HOME/*', '/root', '/home', '/etc', '/usr', '/var',
  '/bin', '/sbin', '/lib', '/lib64', '/boot', '/opt', '/srv', '/sys', '/proc', '/dev', '/System', '/Users', '/Applications',
]);

export function isProtectedPath(path: string): boolean {
  const trimmed = path.length > 1 && path.endsWith('/') && !path.endsWith('*/') ? path.replace(/\/+$/, '') || '/' : path;
  return PROTECTED_PATHS.has(trimmed);
}

/** Commands that create, change or delete the files they name. */
export const CREATE_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'tee', 'cp', 'ln']);
export const MODIFY_COMMANDS: ReadonlySet<string> = new Set(['mv', 'patch', 'truncate']);
export const DELETE_COMMANDS: ReadonlySet<string> = new Set(['rm', 'rmdir', 'unlink', 'shred']);

export function nonOptions(argv: readonly string[], from = 1): string[] {
  const found: string[] = [];
  pushNonOptions(found, argv, from);
  return found;
}

/** Adds the arguments from `from` on that are no options to `out` (a long line has hundreds of segments: no list of its own for each). */
export function pushNonOptions(out: string[], argv: readonly string[], from = 1): void {
  for (let i = from; i < argv.length; i++) if (argv[i] !== '' && !argv[i]!.startsWith('-')) out.push(argv[i]!);
}

export function commandName(segment: ShellSegment): string {
  return segment.name;
}

/** Whether an argument after the command's name passes `test` (read in place: asked of every segment of a line). */
export function someArgument(argv: readonly string[], test: (arg: string) => boolean): boolean {
  for (let i = 1; i < argv.length; i++) if (test(argv[i]!)) return true;
  return false;
}

export interface RmCall {
  recursive: boolean;
  force: boolean;
  noPreserveRoot: boolean;
  targets: string[];
}

/** Reads `rm` flags in any order and combination (-rf, -fr, -r -f, --recursive --force). */
export function readRm(segment: ShellSegment): RmCall | null {
  if (commandName(segment) !== 'rm') return null;
  const call: RmCall = { recursive: false, force: false, noPreserveRoot: false, targets: [] };
  let options = true;
  for (const arg of segment.argv.slice(1)) {
    if (options && arg === '--') options = false;
    else if (options && arg.startsWith('--')) {
      if (arg === '--recursive') call.recursive = true;
      if (arg === '--force') call.force = true;
      if (arg === '--no-preserve-root') call.noPreserveRoot = true;
    } else if (options && arg.startsWith('-') && arg.length > 1) {
      if (/[rR]/.test(arg)) call.recursive = true;
      if (arg.includes('f')) call.force = true;
    } else call.targets.push(arg);
  }
  return call;
}

/** `find <protected> -delete` or `-exec rm`: a deletion across the system. */
export function findDeletesProtected(segment: ShellSegment): boolean {
  if (commandName(segment) !== 'find' || !isProtectedPath(segment.argv[1] ?? '')) return false;
  return segment.argv.includes('-delete') || segment.argv.some((a, i) => a === '-exec' && basename(segment.argv[i + 1] ?? '') === 'rm');
}

const DISK_DEVICE = /^\/dev\/(sd|nvme|hd|vd|xvd|disk|mmcblk)/;

/** mkfs (newfs on macOS and the BSDs), wipefs, dd or shred onto a disk device, or a redirection into one. */
export function writesToDiskDevice(segment: ShellSegment): boolean {
  const cmd = commandName(segment);
  // Asked of every command of a line by two rules: a prefix test before any pattern.
  if ((cmd.startsWith('mkfs') && (cmd.length === 4 || cmd[4] === '.')) || cmd === 'wipefs') return true;
  if (cmd.startsWith('newfs') && (cmd.length === 5 || cmd[5] === '_')) return true;
  if (cmd === 'dd' && segment.argv.some((a) => a.startsWith('of=') && DISK_DEVICE.test(a.slice(3)))) return true;
  if (cmd === 'shred' && segment.argv.some((a) => a.startsWith('/dev/'))) return true;
  return segment.redirects.length > 0 && segment.redirects.some((r) => r.operator.includes('>') && DISK_DEVICE.test(r.target));
}

/** A function that pipes itself into itself in the background: `:(){ :|:& };:` and renamed variants. */
export function isForkBomb(command: string | undefined): boolean {
  // The back-referencing pattern backtracks over long commands; most have no function definition at all.
  if (!command || !/\(\s*\)\s*\{/.test(command)) return false;
  return /([\w:]+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(command);
}

/** Programs that run the code they are given on their input or as an argument. */
export const INTERPRETERS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'python', 'python3', 'node', 'perl', 'ruby']);

/** Index of the interpreter segment that runs what curl/wget downloaded (`curl … | sh`), or -1. */
export function remoteScriptPipe(segments: readonly ShellSegment[]): number {
  return segments.findIndex(
    (s, i) => i > 0 && s.pipedFrom && INTERPRETERS.has(commandName(s)) && readsCodeFromInput(s) && ['curl', 'wget'].includes(commandName(segments[i - 1]!)),
  );
}

/** An interpreter runs its input as code unless it was given code (`-c`, `-e`) or a script file: `curl … | python3 -c 'import json…'` reads data. */
function readsCodeFromInput(segment: ShellSegment): boolean {
  const args = segment.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-' || a === '-s' || a === '/dev/stdin') return true;
    if (/^-[a-zA-Z]*[ceEp]$|^--(?:eval|print|command)$/.test(a) && a !== '-s') return false;
    if (a === '-m') return false;
    if (!a.startsWith('-')) return false;
  }
  return true;
}

/** chmod to 777 / a+rwx. */
export function worldWritableTargets(segment: ShellSegment): string[] {
  if (commandName(segment) !== 'chmod' || !segment.argv.some((a) => /^(0?777|a\+rwx|ugo\+rwx)$/.test(a))) return [];
  return segment.argv.slice(1).filter((a) => !a.startsWith('-') && !/^(0?777|a\+rwx|ugo\+rwx)$/.test(a));
}

export function isRecursiveChmod(segment: ShellSegment): boolean {
  return commandName(segment) === 'chmod' && segment.argv.some((a) => a === '-R' || a === '--recursive');
}

/** `git push --force` (or -f, +refspec); `--force-with-lease` counts as the safer variant. */
export function forcePush(segment: ShellSegment): 'force' | 'lease' | null {
  if (commandName(segment) !== 'git' || !segment.argv.includes('push')) return null;
  const { argv } = segment;
  // --force beside a lease disables the lease's check; a `+branch` refspec is forced unless a bare lease covers every ref.
  if (argv.some((a) => a === '-f' || a === '--force' || /^--force=(?!false$|0$|no$)/.test(a) || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(a))) return 'force';
  const refspecForced = argv.some((a) => /^\+[\w/]/.test(a));
  if (refspecForced && !argv.includes('--force-with-lease')) return 'force';
  if (argv.some((a) => a.startsWith('--force-with-lease') || a === '--force-if-includes')) return 'lease';
  return null;
}

/**
 * Global options of cloud and cluster command lines whose value is the next word (`az --subscription prod`,
 * `kubectl -n delete get pods`): the value is not an operation word.
 */
const VALUED_LONG_OPTION = /^--(?:profile|region|output|query|endpoint-url|project|format|account|configuration|zone|filter|subscription|resource-group|namespace|context|cluster|kubeconfig|selector|user|location|impersonate-service-account|billing-project|verbosity|kube-context|tenant)$/;
const VALUED_SHORT_OPTION: Readonly<Record<string, RegExp>> = {
  kubectl: /^-[nol]$/,
  oc: /^-[nol]$/,
  helm: /^-n$/,
  az: /^-[ogn]$/,
};

/** The words of a command line that are not options nor an option's value: where its operation is named. */
export function operationWords(cmd: string, args: readonly string[]): string[] {
  const short = ownEntry(VALUED_SHORT_OPTION, cmd);
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) words.push(a);
    else if (VALUED_LONG_OPTION.test(a) || short?.test(a)) i++;
  }
  return words;
}

/** Branches whose history others build on: a forced push there needs a person. */
const SHARED_BRANCH = /^(?:main|master|trunk|develop|development|dev|release(?:[/-].*)?|prod(?:uction)?|staging|gh-pages|HEAD)$/;

/** The branches a push updates (the destination of each refspec); empty when it pushes the current branch. */
export function pushedBranches(argv: readonly string[]): string[] {
  const push = argv.indexOf('push');
  const operands = argv.slice(push + 1).filter((a) => !a.startsWith('-'));
  return operands.slice(1).map((refspec) => refspec.replace(/^\+/, '').split(':').at(-1)!.replace(/^refs\/heads\//, ''));
}

/** A branch whose history others build on (main, master, release …). */
export const isSharedBranch = (branch: string) => SHARED_BRANCH.test(branch);

/** A forced push that may overwrite shared history: to main, master, release … or to the current branch, whose name the command does not say. */
export function forcePushToSharedBranch(segment: ShellSegment): boolean {
  const branches = pushedBranches(segment.argv);
  return !branches.length || branches.some((b) => SHARED_BRANCH.test(b));
}

/** Options of the copiers that take a value: an identity file or an ssh command is used, not copied. */
const COPIER_VALUED: Readonly<Record<string, RegExp>> = {
  scp: /^-[cDFiJloPSX]$/,
  sftp: /^-[BbcDFiJloPRSs]$/,
  rsync:
    /^-[eBTfM]$|^--(?:rsh|rsync-path|temp-dir|partial-dir|backup-dir|suffix|log-file|password-file|filter|exclude|include|exclude-from|include-from|files-from|chmod|chown|usermap|groupmap|block-size|max-size|min-size|port|compare-dest|copy-dest|link-dest|timeout|bwlimit)$/,
};

/** What scp, sftp or rsync copies and where: its operands, without its options and their values (`-i key`, `-e 'ssh -i key'`). */
export function copierOperands(segment: ShellSegment): string[] {
  const valued = COPIER_VALUED[commandName(segment)];
  const { argv } = segment;
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') out.push(a);
    else if (valued?.test(a)) i++;
  }
  return out;
}

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
