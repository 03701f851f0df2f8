import { commandOf, firstPath, isStreamPath, isTempPath, readToolCall, resolvePath, sweAgentCommand, urlsIn, type FileChange, type ToolKind } from '@warden/actions';
import { ACTION_KINDS, type ActionKind } from '@warden/contracts';
import { commandKey, compactKey, stableKey } from './action-key.js';
import { commandName, CREATE_COMMANDS, DELETE_COMMANDS, MODIFY_COMMANDS, nonOptions, someArgument } from './command-facts.js';
import { BASE_RISK, type Intent } from './intent.js';
import { segmentPaths } from './segment-paths.js';
import { analyseShellCommand, basename, type ShellSegment } from './shell-command.js';
import { readsAsPowerShell } from './windows-commands.js';

export interface ParsedAction {
  kind: ActionKind;
  tool: string;
  input: Record<string, unknown>;
  /** Every intent the action has, the riskiest first. */
  intents: Intent[];
  /** The riskiest intent. */
  intent: Intent;
  /** Shell command line, for Bash-like tools and `system_command` actions. */
  command?: string;
  segments: ShellSegment[];
  /** Paths the action touches, resolved against the session's working directory. */
  paths: string[];
  /** Paths it writes, creates or deletes (a subset of `paths`). */
  writtenPaths: string[];
  urls: string[];
  /** Packages it would install (`npm install left-pad` → left-pad). */
  packages: string[];
  mcp?: { server: string; tool: string };
  /** A web search, and what it searches for ('' when the input does not say). */
  searchQuery?: string;
  description?: string;
  /** Reads only: no file, process, network or package changes. */
  readOnly: boolean;
  /** Runs with raised privileges (sudo, doas, su -c). */
  privileged: boolean;
  /** Same tool, same command or file: how repetitions of "the same action" are recognised. */
  key: string;
  /** The shell line does not parse as written (an unterminated quote …); what could be read is in `segments`. */
  syntaxError?: string;
  /** Paths given to programs Warden does not know: maybe read, maybe not; not counted against the scope. */
  mentionedPaths?: string[];
  /** The directory it runs in (the shell's, which a `cd` may have moved from the project): relative paths are read from here. */
  cwd?: string;
}

export class UnknownActionKindError extends Error {
  constructor(readonly kind: string) {
    super(`Unknown action kind "${kind}": expected one of ${ACTION_KINDS.join(', ')}.`);
  }
}

/** What the reviewer reads a tool of each kind as doing (the kinds are @warden/actions' reading of every agent's tools). */
const KIND_INTENTS: Partial<Record<ToolKind, Intent>> = {
  read: 'file_read',
  search: 'file_read',
  write: 'file_creation',
  edit: 'file_modification',
  delete: 'file_deletion',
  fetch: 'network_request',
  delegate: 'delegation',
};
const CHANGE_INTENTS: Record<FileChange['change'], Intent> = { create: 'file_creation', modify: 'file_modification', delete: 'file_deletion' };

/** Commands that only look: listing, reading, searching, inspecting. */
const READ_COMMANDS = new Set([
  'ls', 'cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'wc', 'pwd', 'echo',
  'printf', 'which', 'whereis', 'type', 'file', 'stat', 'du', 'df', 'tree', 'diff', 'cmp', 'env', 'printenv', 'whoami', 'id',
  'uname', 'hostname', 'date', 'ps', 'pgrep', 'jq', 'yq', 'sort', 'uniq', 'cut', 'tr', 'awk', 'sed', 'realpath', 'readlink',
  'dirname', 'basename', 'test', '[', 'true', 'false', 'cd', 'history', 'sha256sum', 'md5sum', 'column', 'nl', 'xxd', 'od',
  'lsof', 'ss', 'netstat', 'free', 'uptime', 'top', 'htop', 'man', 'help', 'tldr', 'sleep', 'wait', 'exit', 'set', 'export',
  'unset', 'local', 'declare', 'typeset', 'readonly', 'source', '.', 'read', 'zcat', 'bat', 'locate', 'tac', 'rev', 'fold', 'expand', 'comm', 'join', 'paste', 'seq',
  // The shell's own look-ups and settings of its own process (`alias config`, `shopt -s globstar`), gone when it exits.
  'alias', 'unalias', 'whence', 'compgen', 'jobs', 'dirs', 'pushd', 'popd', 'shopt', 'setopt', 'unsetopt',
]);
/** PowerShell's cmdlets and aliases that look and navigate (compared in lower case: PowerShell ignores case). */
const POWERSHELL_READS = new Set([
  'set-location', 'get-location', 'push-location', 'pop-location', 'get-childitem', 'get-content', 'select-object', 'select-string',
  'test-path', 'write-output', 'write-host', 'get-item', 'get-itemproperty', 'measure-object', 'where-object', 'sort-object',
  'format-table', 'format-list', 'out-string', 'out-host', 'get-process', 'get-command', 'get-help', 'resolve-path', 'split-path',
  'join-path', 'get-date', 'get-service', 'convertfrom-json', 'convertto-json', 'get-filehash', 'gci', 'gc', 'sls', 'sl', 'dir',
]);
/** Words that make a reading git subcommand change something (`branch -D`, `stash drop`, `remote set-url`). */
const GIT_READ_CHANGES = new Set(['-D', '-d', '--delete', 'drop', 'clear', 'pop', '-m', 'set-url', 'add']);
const GIT_READ = new Set(['status', 'diff', 'log', 'show', 'blame', 'ls-files', 'rev-parse', 'describe', 'shortlog', 'grep', 'reflog', 'ls-remote', 'whatchanged', 'cat-file', 'ls-tree', 'config', 'remote', 'branch', 'tag', 'stash']);
/** Getting a repository from elsewhere; pushing and pulling the project's own remote is project work (forced pushes and deletions are the git rules'). */
const GIT_NETWORK = new Set(['clone']);
const GIT_DELETE = new Set(['clean', 'rm']);
/** Project tooling: runs code of the project, changes nothing outside it. */
const PROJECT_COMMANDS = new Set([
  'npm', 'npx', 'pnpm', 'yarn', 'bun', 'node', 'deno', 'tsx', 'ts-node', 'python', 'python3', 'pytest', 'go', 'cargo', 'rustc', 'make',
  'cmake', 'tsc', 'eslint', 'prettier', 'jest', 'vitest', 'mocha', 'mvn', 'gradle', 'dotnet', 'ruby', 'rake', 'bundle', 'rspec',
  'php', 'composer', 'java', 'javac', 'mix', 'elixir', 'swift', 'nx', 'turbo', 'vite', 'webpack', 'black', 'ruff', 'mypy',
  'flake8', 'pylint', 'gofmt', 'golangci-lint', 'clippy', 'tar', 'unzip', 'zip', 'gzip', 'gunzip', 'mkdir', 'touch', 'cp', 'mv',
  'ln', 'tee', 'patch', 'git', 'gh', 'uv', 'poetry', 'pip', 'pip3', 'playwright', 'cypress',
  // Task runners and build tools of other ecosystems.
  'just', 'task', 'mage', 'invoke', 'nox', 'tox', 'hatch', 'pdm', 'rye', 'pixi', 'bazel', 'bazelisk', 'sbt', 'lein', 'stack', 'cabal', 'zig', 'meson',
  'ninja', 'xcodebuild', 'flutter', 'dart', 'expo', 'lerna', 'rush', 'gradlew', 'mvnw', 'bundler', 'rails', 'django-admin', 'streamlit', 'uvicorn',
  'gunicorn', 'flask', 'next', 'nuxt', 'astro', 'tauri', 'anchor', 'solana', 'forge', 'hardhat', 'truffle', 'cargo-watch', 'air',
]);
/** Shells and runners whose commands are reviewed as segments of their own: the runner itself only executes them. */
const RUNNERS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'eval', 'xargs', 'parallel', 'watch', 'time', 'timeout', 'nohup', 'exec', 'command']);
/** docker and podman subcommands that build or run the project's own containers. */
const CONTAINER_PROJECT_WORK = new Set(['build', 'compose', 'run', 'ps', 'images', 'logs', 'exec', 'inspect', 'pull', 'start', 'stop', 'restart', 'buildx', 'version', 'info', 'stats', 'top', 'port', 'cp']);
const NETWORK_COMMANDS = new Set(['curl', 'wget', 'http', 'https', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'telnet', 'ping', 'dig', 'nslookup', 'ftp', 'aria2c', 'ssh-keyscan']);
const PACKAGE_INSTALLER_TABLE: Record<string, { verbs: string[]; packageArgs: boolean }> = {
  npm: { verbs: ['install', 'i', 'add', 'ci', 'isntall'], packageArgs: true },
  pnpm: { verbs: ['install', 'i', 'add'], packageArgs: true },
  yarn: { verbs: ['install', 'add'], packageArgs: true },
  bun: { verbs: ['install', 'add', 'i'], packageArgs: true },
  pip: { verbs: ['install'], packageArgs: true },
  pip3: { verbs: ['install'], packageArgs: true },
  uv: { verbs: ['add', 'pip'], packageArgs: true },
  poetry: { verbs: ['add', 'install'], packageArgs: true },
  apt: { verbs: ['install'], packageArgs: true },
  'apt-get': { verbs: ['install'], packageArgs: true },
  dnf: { verbs: ['install'], packageArgs: true },
  yum: { verbs: ['install'], packageArgs: true },
  apk: { verbs: ['add'], packageArgs: true },
  pacman: { verbs: ['-S', '-Sy', '-Syu'], packageArgs: true },
  brew: { verbs: ['install', 'reinstall'], packageArgs: true },
  gem: { verbs: ['install'], packageArgs: true },
  cargo: { verbs: ['install', 'add'], packageArgs: true },
  go: { verbs: ['install', 'get'], packageArgs: true },
  composer: { verbs: ['require', 'install'], packageArgs: true },
  conda: { verbs: ['install'], packageArgs: true },
  playwright: { verbs: ['install'], packageArgs: true },
  choco: { verbs: ['install'], packageArgs: true },
  snap: { verbs: ['install'], packageArgs: true },
};
/** By program name: a Map has only the names written above (`python3 -m toString` finds nothing, not Object's method). */
const PACKAGE_INSTALLERS: ReadonlyMap<string, { verbs: string[]; packageArgs: boolean }> = new Map(Object.entries(PACKAGE_INSTALLER_TABLE));

function stringField(input: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof input[name] === 'string') return input[name] as string;
  return undefined;
}

const isOperand = (arg: string) => !arg.startsWith('-');
const isOutputOption = (arg: string) => arg === '-o' || arg === '-O' || arg.startsWith('--output');
const isInPlaceOption = (arg: string) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place');
const changesGitState = (arg: string) => GIT_READ_CHANGES.has(arg);

/** The first argument from the second on that is no option (a subcommand), or undefined. */
function firstOperand(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) if (!argv[i]!.startsWith('-')) return argv[i];
  return undefined;
}

/** `npx playwright install chromium` and `python -m pip install x` are installs too. */
function installerCall(segment: ShellSegment): { manager: string; args: string[] } | null {
  const { argv, name: head } = segment;
  // Where the package manager's name is: after npx/pnpx/bunx (and its --yes), after `python -m`.
  let at = 0;
  if (head === 'npx' || head === 'pnpx' || head === 'bunx') {
    if (!argv[1]) return null;
    at = argv[1] === '--yes' || argv[1] === '-y' ? 2 : 1;
  } else if (head === 'python' || head === 'python3') {
    if (argv[1] !== '-m' || !argv[2]) return null;
    at = 2;
  }
  // Most commands are no package manager: nothing is copied for them.
  const manager = at === 0 ? head : basename(argv[at] ?? '');
  const installer = PACKAGE_INSTALLERS.get(manager);
  if (!installer) return null;
  let verb = -1;
  for (let i = at + 1; i < argv.length && verb < 0; i++) if (installer.verbs.includes(argv[i]!)) verb = i;
  if (verb < 0) return null;
  // `npm install` alone restores the lockfile's packages; a package argument adds new software.
  return { manager, args: nonOptions(argv, verb + 1).filter((a) => !(manager === 'uv' && a === 'install')) };
}

/** Intents of one simple shell command. */
function segmentIntents(segment: ShellSegment, cmd: string, describes: boolean, out: Set<Intent>, packages: string[]): void {
  if (!cmd) return;
  if (describes) {
    out.add('file_read');
    return;
  }
  if (segment.remoteHost) {
    out.add('network_request');
    return;
  }
  const install = installerCall(segment);
  if (install) {
    out.add('package_install');
    for (const name of install.args) packages.push(name);
    return;
  }
  const { argv } = segment;
  if (segment.privileged && !READ_COMMANDS.has(cmd)) out.add('system_command');
  // find's -delete and -exec are reviewed as the rm and commands they amount to (segments of their own).
  if (DELETE_COMMANDS.has(cmd)) out.add(someArgument(argv, isOperand) ? 'file_deletion' : 'command_execution');
  else if (cmd === 'find') out.add('file_read');
  else if (cmd === 'git') {
    const sub = firstOperand(argv);
    if (sub && GIT_DELETE.has(sub)) out.add('file_deletion');
    else if (sub && GIT_NETWORK.has(sub)) out.add('network_request');
    else if (sub && GIT_READ.has(sub) && !argv.some(changesGitState)) out.add('file_read');
    else out.add('command_execution');
  } else if (cmd === 'sed' && argv.some(isInPlaceOption)) out.add('file_modification');
  else if (READ_COMMANDS.has(cmd) || POWERSHELL_READS.has(cmd.toLowerCase())) out.add('file_read');
  else if (CREATE_COMMANDS.has(cmd)) out.add('file_creation');
  else if (MODIFY_COMMANDS.has(cmd)) out.add('file_modification');
  else if (NETWORK_COMMANDS.has(cmd)) {
    out.add('network_request');
    if (argv.some(isOutputOption)) out.add('file_creation');
  } else if (PROJECT_COMMANDS.has(cmd) || argv[0]?.startsWith('./') || argv[0]?.startsWith('bin/') || RUNNERS.has(cmd)) out.add('command_execution');
  else if ((cmd === 'docker' || cmd === 'podman') && CONTAINER_PROJECT_WORK.has(firstOperand(argv) ?? '')) out.add('command_execution');
  else out.add('system_command');
  const { redirects } = segment;
  for (let i = 0; i < redirects.length; i++) {
    const redirect = redirects[i]!;
    if (redirect.operator.includes('>') && !isStreamPath(redirect.target)) out.add(redirect.operator.includes('>>') ? 'file_modification' : 'file_creation');
  }
}

const DESCRIBING_OPTIONS = new Set(['--help', '--version', '--dry-run', '--dryrun', '--what-if', '--whatif']);
const DESCRIBERS = new Set(['man', 'type', 'which', 'whereis', 'hash', 'tldr', 'help', 'info', 'apropos', 'whatis']);

/** Options of git clean and rsync whose value is the next word (`git clean -e --dry-run -f` excludes a pattern and deletes). */
const GIT_CLEAN_VALUED = new Set(['-e', '--exclude']);
const RSYNC_VALUED = new Set(['-e', '--rsh', '--exclude', '--include', '--filter', '-f', '--exclude-from', '--include-from', '--files-from', '--log-file', '--partial-dir', '--temp-dir', '-T', '--backup-dir', '--suffix', '--chmod', '--chown', '--rsync-path', '--password-file', '--compare-dest', '--copy-dest', '--link-dest', '--max-size', '--min-size', '--bwlimit', '--timeout', '--port', '--out-format', '--info', '--debug']);

/**
 * A dry run of git clean or rsync (`-n`, in a cluster too, or `--dry-run`), unless `--no-dry-run` comes after it
 * (the last one wins); an option's value is skipped, not read as an option, and `--` ends the options.
 */
function dryRunOnly(argv: readonly string[], valued: ReadonlySet<string>): boolean {
  let dry = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (valued.has(a)) i++;
    else if (a === '--dry-run') dry = true;
    else if (a === '--no-dry-run') dry = false;
    else if (/^-[a-zA-Z]*n[a-zA-Z]*$/.test(a) && !valued.has(a.slice(0, 2))) dry = true;
  }
  return dry;
}

/** git clean's arguments (after `clean`) ask only for the list of what it would delete. */
export function gitCleanDryRun(args: readonly string[]): boolean {
  return dryRunOnly(['clean', ...args], GIT_CLEAN_VALUED);
}

/** Help, version and dry-run forms, and `command -v`: they describe what a command would do and change nothing. */
export function describesOnly(segment: ShellSegment): boolean {
  if (segment.query) return true;
  // Asked of every segment by several rules: the arguments are read in place, without a copy.
  const { argv } = segment;
  const cmd = commandName(segment);
  // git clean and rsync: their dry run is read with their options' values and its negation (see dryRunOnly).
  if ((cmd === 'git' && argv.includes('clean', 1)) || cmd === 'rsync') return argv.some((a) => a === '--help' || a === '-h' || a === '--version') || dryRunOnly(argv, cmd === 'git' ? GIT_CLEAN_VALUED : RSYNC_VALUED);
  // Every describing option starts with a dash: other words are not looked up.
  for (let i = 1; i < argv.length; i++) {
    if (argv[i]!.charCodeAt(0) !== 45) continue;
    if (DESCRIBING_OPTIONS.has(argv[i]!)) return true;
    // Go's flag package's `-help` (vault, terraform, consul), unless it is the value of the option before it (`-mount -help`).
    if (argv[i] === '-help' && !argv[i - 1]!.startsWith('-')) return true;
  }
  if (argv.length === 2 && (argv[1] === '-h' || argv[1] === 'help' || argv[1] === '-V')) return true;
  if (cmd === 'git' && argv.includes('help', 1)) return true;
  return DESCRIBERS.has(cmd);
}

const READ_VERB = /^(?:get|list|search|read|fetch|find|query|describe|show|resolve|lookup|view|browse|docs?|retrieve|inspect|check|status|count|explain|summari[sz]e)$/i;
const WRITE_VERB = /^(?:create|update|delete|remove|write|send|post|put|patch|set|add|insert|drop|merge|push|publish|deploy|execute|exec|run|apply|move|rename|close|comment|approve|invite|upload|trigger|cancel|revoke|grant)$/i;

/** An MCP tool named for a look-up (`get-library-docs`, `search_code`, `listIssues`) and for no change. */
function readsOnlyExternally(name: string): boolean {
  const words = name.split(/[-_.\s]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean);
  return words.some((w) => READ_VERB.test(w)) && !words.some((w) => WRITE_VERB.test(w));
}

/** Input of a file_operation action: `{ operation: read|write|create|modify|delete|move|mkdir, path, recursive }`. */
function fileOperationIntent(operation: string | undefined): Intent {
  switch (operation) {
    case 'read':
    case 'list':
      return 'file_read';
    case 'write':
    case 'create':
    case 'mkdir':
      return 'file_creation';
    case 'delete':
    case 'remove':
      return 'file_deletion';
    default:
      return 'file_modification';
  }
}

function sortIntents(intents: Iterable<Intent>): Intent[] {
  const list = [...new Set(intents)];
  return list.length ? list.sort((a, b) => BASE_RISK[b] - BASE_RISK[a]) : ['unknown'];
}

/**
 * Parses a proposed action into what it would do. The tools of every agent Warden supervises are read by
 * @warden/actions (Claude Code's, Codex's, Gemini CLI's, …), and Warden's own package_install; a shell
 * command is parsed into its simple commands. Throws UnknownActionKindError for a kind outside tool_use,
 * message, file_operation, system_command.
 */
export function parseAction(
  action: { kind: string; tool: string; input: Record<string, unknown>; description?: string },
  cwd?: string,
): ParsedAction {
  if (!(ACTION_KINDS as readonly string[]).includes(action.kind)) throw new UnknownActionKindError(action.kind);
  const kind = action.kind as ActionKind;
  const { tool, input } = action;
  const intents = new Set<Intent>();
  const read: string[] = [];
  const written: string[] = [];
  const mentioned: string[] = [];
  const urls: string[] = [];
  const packages: string[] = [];
  let segments: ShellSegment[] = [];
  let syntaxError: string | undefined;
  let command: string | undefined;
  const call = readToolCall(tool, input);
  // A shell tool may say where it runs (Codex's workdir, Antigravity's Cwd): relative paths are read from there.
  if (call.cwd) cwd = resolvePath(call.cwd, cwd);
  const path = firstPath(input);
  for (const url of call.urls) urls.push(url);

  if (kind === 'message' || call.kind === 'message' || call.kind === 'poll' || call.kind === 'kill') {
    // Bookkeeping, questions to the user, and looking after background commands.
    intents.add('message');
  } else if (call.kind === 'shell' || kind === 'system_command') {
    const line = call.command ?? commandOf(input) ?? '';
    // SWE-agent runs its editor and search commands in its shell.
    const swe = sweAgentCommand(line);
    if (swe) {
      intents.add(swe.kind === 'message' ? 'message' : KIND_INTENTS[swe.kind]!);
      read.push(...swe.read);
      written.push(...swe.written);
    } else {
      command = line;
      ({ segments, syntaxError } = analyseShellCommand(command));
      for (const segment of segments) {
        // Both ask what the command is and whether it only describes: answered once.
        const cmd = commandName(segment);
        const describes = describesOnly(segment);
        segmentIntents(segment, cmd, describes, intents, packages);
        segmentPaths(segment, cmd, describes, read, written, mentioned);
      }
      // Bash's reading of a PowerShell line it cannot parse runs blocks and patterns into operands (`} else {`,
      // `"\[DRAFT\]"`): of what it reads, only words that look like paths are kept.
      if (readsAsPowerShell(command, cwd, syntaxError)) {
        const kept = read.filter((p) => /[\\/.]/.test(p) && !/[[\]{}]/.test(p));
        read.length = 0;
        read.push(...kept);
      }
      for (const url of urlsIn(command)) urls.push(url);
      if (call.background) intents.add('command_execution');
      if (!segments.length) intents.add('command_execution');
    }
  } else if (tool === 'package_install') {
    intents.add('package_install');
    const names = input['packages'] ?? input['package'] ?? input['name'];
    packages.push(...(Array.isArray(names) ? names.map(String) : typeof names === 'string' ? [names] : []));
  } else if (kind === 'file_operation') {
    const intent = fileOperationIntent(stringField(input, 'operation', 'op', 'action'));
    intents.add(intent);
    if (path) (intent === 'file_read' ? read : written).push(path);
    const destination = stringField(input, 'destination', 'to', 'new_path');
    if (destination) written.push(destination);
  } else if (call.kind === 'mcp') {
    // Documentation and search look-ups (context7's get-library-docs, *_search_*, *_list_*) only read.
    intents.add(readsOnlyExternally(call.mcp?.tool ?? '') ? 'file_read' : 'external_tool');
    read.push(...call.read);
  } else if (KIND_INTENTS[call.kind]) {
    intents.add(KIND_INTENTS[call.kind]!);
    // A patch may create, change and delete files at once.
    for (const change of call.changes ?? []) intents.add(CHANGE_INTENTS[change.change]);
    read.push(...call.read);
    written.push(...call.written);
  } else {
    intents.add('unknown');
    read.push(...call.read);
  }

  // A long line names the same paths again and again (`cd /work/app && …` on every line): each is resolved once.
  const resolutions = new Map<string, string>();
  const resolved = (p: string) => {
    let path = resolutions.get(p);
    if (path === undefined) resolutions.set(p, (path = resolvePath(p, cwd)));
    return path;
  };
  // Null devices and standard streams are no files (`cat /dev/null > x`, `2>nul`).
  const streams = new Map<string, boolean>();
  const file = (p: string) => {
    let stream = streams.get(p);
    if (stream === undefined) streams.set(p, (stream = isStreamPath(p)));
    return !stream;
  };
  const resolvedWritten = [...new Set(written.filter(file).map(resolved))];
  const writtenSet = new Set(resolvedWritten);
  const resolvedRead = read.filter(file).map(resolved).filter((p) => !writtenSet.has(p));
  // Clearing scratch space (only temp directories) changes nothing the user keeps.
  if (intents.has('file_deletion') && segments.length && resolvedWritten.length && resolvedWritten.every(isTempPath) && !segments.some((s) => s.dynamic.some(Boolean) && DELETE_COMMANDS.has(commandName(s)))) {
    intents.delete('file_deletion');
    intents.add('file_modification');
  }
  const sorted = sortIntents(intents);
  const readOnly = sorted.every((i) => i === 'file_read' || i === 'message');
  const description = action.description ?? stringField(input, 'description', 'prompt');
  const parsed: ParsedAction = {
    kind,
    tool,
    input,
    intents: sorted,
    intent: sorted[0]!,
    segments,
    paths: [...new Set([...resolvedWritten, ...resolvedRead])],
    writtenPaths: resolvedWritten,
    urls: [...new Set(urls)],
    packages,
    readOnly,
    privileged: segments.some((s) => s.privileged),
    // An edit or write is the same action only with the same content: two edits of one file in a row are progress.
    // Whitespace runs become one space; lone spaces, most of them, are left as they are.
    key: command !== undefined ? commandKey(tool, command) : compactKey(tool, path && !resolvedWritten.length ? `${tool}:${resolvePath(path, cwd)}` : stableKey(tool, input)),
  };
  if (command !== undefined) parsed.command = command;
  if (cwd !== undefined) parsed.cwd = cwd;
  if (syntaxError !== undefined) parsed.syntaxError = syntaxError;
  if (mentioned.length) parsed.mentionedPaths = [...new Set(mentioned.map(resolved))];
  if (call.mcp) parsed.mcp = call.mcp;
  if (call.query !== undefined) parsed.searchQuery = call.query;
  if (description) parsed.description = description;
  return parsed;
}
