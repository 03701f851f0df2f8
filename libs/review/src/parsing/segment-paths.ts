import { copierOperands, CREATE_COMMANDS, DELETE_COMMANDS, gitSubcommandIndex, MODIFY_COMMANDS, nonOptions, pushNonOptions, readRm } from './command-facts.js';
import { isApiRoute, isStreamPath, resolvePath } from '@warden/actions';
import { scriptFiles } from './script-files.js';
import type { ShellSegment } from './shell-command.js';

/** Commands that name files in all their non-option arguments. */
const FILE_ARGUMENT_COMMANDS = new Set([
  ...CREATE_COMMANDS, ...MODIFY_COMMANDS, ...DELETE_COMMANDS, 'cat', 'head', 'tail', 'less', 'more', 'ls', 'stat', 'file', 'wc', 'chmod', 'chown',
  'tree', 'du', 'source', '.', 'bat', 'tac', 'zcat', 'cd',
]);
/** Readers whose first argument is a pattern or program and the rest are files (`grep -n TODO src/a.ts`). */
const PATTERN_FIRST_READERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'jq', 'yq', 'awk', 'sed']);
/** Readers whose arguments are all files. */
const FILE_READERS = new Set(['diff', 'cmp', 'sort', 'uniq', 'nl', 'sha256sum', 'md5sum', 'xxd', 'od', 'comm', 'join', 'paste', 'rev', 'fold', 'column']);

/** Programs that unpack archives into a directory an option names. */
const EXTRACTORS = new Set(['tar', 'bsdtar', 'gtar', 'unzip']);

/** tar in extract mode (`xzf`, `-x`, `--extract`, `--get`); unzip always, unless it only lists or tests. */
function extracts(cmd: string, argv: readonly string[]): boolean {
  if (cmd === 'unzip') return !argv.some((a) => /^-[a-zA-Z]*[lvtZ]/.test(a));
  // The first word is the mode, with or without its dash (`tar xzf`, `tar -xzf`).
  return /^-?[a-zA-Z]*x/.test(argv[1] ?? '') || argv.some((a) => a === '--extract' || a === '--get' || /^-[a-zA-Z]*x[a-zA-Z]*$/.test(a));
}

/** An option and its short and long forms (`-o`, `--output`). */
interface OptionNames {
  short?: string;
  long: string;
}

/**
 * Programs that write into the file an option names (`sort -o out`, `curl -o out URL`, `wget -O out URL`,
 * `aria2c -d dir -o name URL`): its short and long forms, and the option naming the directory it goes in.
 */
const OUTPUT_OPTIONS: ReadonlyMap<string, OptionNames & { directory?: OptionNames }> = new Map(Object.entries({
  sort: { short: 'o', long: '--output' },
  curl: { short: 'o', long: '--output' },
  wget: { short: 'O', long: '--output-document' },
  aria2c: { short: 'o', long: '--out', directory: { short: 'd', long: '--dir' } },
  xh: { short: 'o', long: '--output' },
  xhs: { short: 'o', long: '--output' },
  http: { short: 'o', long: '--output' },
  https: { short: 'o', long: '--output' },
}));

/**
 * The values an option is given in a command's argv: `-o f`, `-sSLo f` (a cluster ending in the option),
 * `-of` and `-qOf` (the value joined to it), `--output f`, `--output=f`.
 */
export function optionValues(argv: readonly string[], option: OptionNames): string[] {
  const files: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    let file: string | undefined;
    if (arg.startsWith(`${option.long}=`)) file = arg.slice(option.long.length + 1);
    else if (arg === option.long) file = argv[++i];
    else if (option.short && arg.length > 1 && arg[0] === '-' && arg[1] !== '-') {
      // After a few one-letter flags (`-sSL`), the option takes the rest of the word, or else the next word;
      // a header's or a form's value (`-HX-Token: abc`, `-dname=value`) has other characters before it.
      const at = arg.indexOf(option.short, 1);
      if (at > 0 && at <= 5 && /^[a-zA-Z]*$/.test(arg.slice(1, at))) file = at === arg.length - 1 ? argv[++i] : /\s/.test(arg) ? undefined : arg.slice(at + 1);
    }
    if (file && file !== '-') files.push(file);
  }
  return files;
}

/**
 * Compressors that replace the files they are given (`gzip f` leaves f.gz, f is gone; `gunzip f.gz`
 * the other way), unless told to keep them or to write to standard output; zstd, lz4 and brotli keep
 * them unless told `--rm`.
 */
const REPLACING_COMPRESSORS = new Set(['gzip', 'gunzip', 'pigz', 'unpigz', 'bzip2', 'bunzip2', 'pbzip2', 'xz', 'unxz', 'lzma', 'unlzma', 'lzip', 'compress', 'uncompress']);
const KEEPING_COMPRESSORS = new Set(['zstd', 'unzstd', 'lz4', 'brotli']);
const KEEPS_FILES = /^--(?:stdout|to-stdout|keep|test|list|help|version)$|^-[a-zA-Z0-9]*[cktlhV]/;

function replacesFiles(cmd: string, argv: readonly string[]): boolean {
  if (argv.some((a) => KEEPS_FILES.test(a))) return false;
  return REPLACING_COMPRESSORS.has(cmd) || (KEEPING_COMPRESSORS.has(cmd) && argv.includes('--rm'));
}

/**
 * The local file a remote copy writes: its last operand when that is a path here, not `host:path`
 * (`scp host:conf /etc/hosts`, `rsync -a host:dir/ ~/.ssh/`).
 */
function localCopyDestination(segment: ShellSegment): string | undefined {
  const operands = copierOperands(segment);
  const destination = operands.length > 1 ? operands.at(-1)! : undefined;
  return destination !== undefined && !/^(?:[^/:]+:|[a-z]+:\/\/)/i.test(destination) ? destination : undefined;
}

/** What a program writes through its output options: each file, in the directory its directory option names. */
function outputFiles(argv: readonly string[], output: OptionNames & { directory?: OptionNames }): string[] {
  const files = optionValues(argv, output);
  const directory = output.directory ? optionValues(argv, output.directory).at(-1) : undefined;
  if (directory === undefined) return files;
  return files.length ? files.map((file) => (/^[/~]/.test(file) ? file : `${directory.replace(/\/+$/, '')}/${file}`)) : [directory];
}

/**
 * Files a simple command names: all arguments of file commands, and anything that looks like an absolute
 * or home path. Added to the action's lists (a long line has hundreds of segments: none gets lists of its own).
 */
/** An object named by version and path: `HEAD:.env`, `origin/main~3:config/master.key`, `:id_rsa` (the index). */
const REVISION_PATH = /^(?:[^-:\s][^:\s]*|:[0-3]?):(?!\/\/)(.+)$|^:([^:\s].*)$/;

/**
 * The files `git show`, `git cat-file` and `git archive` print from the object store: a file's content from
 * another version of it, so a read of that file (the repository's root is taken for the working directory).
 */
function revisionPaths(argv: readonly string[]): string[] {
  const i = gitSubcommandIndex(argv);
  const sub = argv[i];
  if (i < 0 || (sub !== 'show' && sub !== 'cat-file' && sub !== 'archive')) return [];
  const paths: string[] = [];
  for (const a of argv.slice(i + 1)) {
    const m = REVISION_PATH.exec(a);
    const path = m?.[1] ?? m?.[2];
    if (path) paths.push(path);
  }
  return paths;
}

export function segmentPaths(segment: ShellSegment, cmd: string, describes: boolean, read: string[], written: string[], mentioned: string[]): void {
  if (segment.remoteHost || describes) return;
  const readFrom = read.length;
  const writtenFrom = written.length;
  const { argv } = segment;
  if (FILE_ARGUMENT_COMMANDS.has(cmd)) {
    // chmod's mode and chown's owner are not files.
    if (cmd === 'chmod' || cmd === 'chown') {
      const files = nonOptions(argv);
      for (let i = 1; i < files.length; i++) written.push(files[i]!);
    } else if (cmd === 'rmdir') {
      // cmd's `rmdir /s /q build`: its switches are not directories.
      for (const arg of nonOptions(argv)) if (!/^\/[a-zA-Z]$/.test(arg)) written.push(arg);
    } else if (cmd === 'rm' || cmd === 'unlink' || cmd === 'shred' || cmd === 'touch' || cmd === 'mkdir' || cmd === 'mv' || cmd === 'tee') pushNonOptions(written, argv);
    else if (cmd === 'cp' || cmd === 'ln') {
      const files = nonOptions(argv);
      for (let i = 0; i < files.length - 1; i++) read.push(files[i]!);
      if (files.length) written.push(files[files.length - 1]!);
    } else pushNonOptions(read, argv);
  } else if (cmd === 'sed' && argv.some((a) => /^-[a-zA-Z]*i/.test(a))) {
    const files = nonOptions(argv);
    for (let i = 1; i < files.length; i++) written.push(files[i]!);
  } else if (REPLACING_COMPRESSORS.has(cmd) || KEEPING_COMPRESSORS.has(cmd)) {
    pushNonOptions(replacesFiles(cmd, argv) ? written : read, argv);
  } else if (cmd === 'find') {
    const args = argv.slice(1);
    // find reads the trees it starts from; what it deletes or runs is in segments of their own.
    read.push(...args.slice(0, Math.max(0, args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!'))).filter(Boolean));
    if (!args.some((a) => a.startsWith('-') || a === '(' || a === '!')) read.push(...args);
  } else if (PATTERN_FIRST_READERS.has(cmd)) {
    const files = nonOptions(argv);
    for (let i = 1; i < files.length; i++) read.push(files[i]!);
  } else if (FILE_READERS.has(cmd)) {
    pushNonOptions(read, argv);
  } else if (cmd === 'git') {
    read.push(...revisionPaths(argv));
  } else if (cmd === 'dd') {
    // `dd if=disk.img of=/dev/sdb`: its operands name the files it reads and writes.
    for (const arg of argv) {
      if (arg.startsWith('if=') && arg.length > 3) read.push(arg.slice(3));
      else if (arg.startsWith('of=') && arg.length > 3) written.push(arg.slice(3));
    }
  } else if (EXTRACTORS.has(cmd) && extracts(cmd, argv)) {
    // `tar xzf x.tgz -C /usr/local/bin`, `unzip x.zip -d dist`: what the archive holds is written there.
    const into = optionValues(argv, cmd === 'unzip' ? { short: 'd', long: '--directory' } : { short: 'C', long: '--directory' }).at(-1);
    if (into !== undefined) written.push(into);
  } else {
    // A program Warden does not know may or may not read the paths it is given: they are only mentioned.
    for (let i = 1; i < argv.length; i++) {
      const arg = argv[i]!;
      const value = arg.includes('=') && arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1) : arg;
      if (/^(\/|~|\$\{?HOME\}?)/.test(value) && !/^\/\//.test(value) && !isApiRoute(value)) mentioned.push(value);
    }
  }
  const output = OUTPUT_OPTIONS.get(cmd);
  if (output) written.push(...outputFiles(argv, output));
  const destination = cmd === 'scp' || cmd === 'rsync' ? localCopyDestination(segment) : undefined;
  if (destination !== undefined) written.push(destination);
  const opened = scriptFiles(cmd, argv);
  if (opened) {
    read.push(...opened.read);
    written.push(...opened.written);
  }
  const rm = cmd === 'rm' ? readRm(segment) : null;
  if (rm) for (const target of rm.targets) if (written.indexOf(target, writtenFrom) < 0) written.push(target);
  const { redirects } = segment;
  for (let i = 0; i < redirects.length; i++) {
    const redirect = redirects[i]!;
    if (isStreamPath(redirect.target) || redirect.operator.startsWith('<<')) continue;
    (redirect.operator.includes('>') ? written : read).push(redirect.target);
  }
  // Relative paths are the directory's an earlier `cd` of the line moved to.
  const { cwd } = segment;
  if (cwd === undefined || cwd === '?') return;
  for (let i = readFrom; i < read.length; i++) if (!/^[/~]/.test(read[i]!)) read[i] = `${cwd}/${read[i]}`;
  for (let i = writtenFrom; i < written.length; i++) if (!/^[/~]/.test(written[i]!)) written[i] = `${cwd}/${written[i]}`;
}

/** A segment's directory: the session's, moved by an earlier `cd` of the line (undefined: only known when it runs). */
export function segmentDirectory(segment: ShellSegment, cwd: string | undefined): string | undefined {
  if (segment.cwd === undefined) return cwd;
  if (segment.cwd === '?') return undefined;
  return resolvePath(segment.cwd, cwd);
}
