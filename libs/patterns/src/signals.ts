import type { Step } from './action-step.js';
import { shellWords, simpleCommands } from './shell-words.js';
import { baseName } from '@warden/actions';
import { checkKindOf } from './turn-claims.js';

/**
 * What single steps mean for the session-level detectors: a connection failure, a missing thing, an
 * installation, a diagnostic, a bypass, a complex workaround. Word lists, kept in one place so the
 * detectors and their tests agree on them.
 */

// Error codes as whole words: `modulenotfounderror` contains `enotfound` and is no connection failure.
const CONNECTION_FAILURE =
  /\b(?:econnrefused|econnreset|etimedout|enotfound|ehostunreach|enetunreach)\b|connection refused|failed to connect|could not connect|couldn't connect|unable to connect|connect(ion)? timed out|network is unreachable|socket hang up|no route to host|name or service not known|could not resolve host|err_connection_refused/;

export function isConnectionFailure(step: Step): boolean {
  return step.status === 'error' && !!step.err_text && CONNECTION_FAILURE.test(step.err_text);
}

const NOT_FOUND =
  /enoent|no such file or directory|command not found|cannot find module|module not found|modulenotfounderror|no module named|unknown tool|no such tool|tool [^ ]+ (is )?not (found|available)|missing script|does not exist|could not find file|pathspec .* did not match|unknown command|is not a (git )?command|no matches found|file not found/;

/**
 * A script with Windows line endings run by bash: `$'\r': command not found`, `/usr/bin/env: 'bash\r': No such file or
 * directory`. Nothing the agent named is missing; the file's line endings are wrong.
 */
const LINE_ENDINGS = /(?:\\r|\r)['’]/;

/** A failure because the path, command, module or tool the action names does not exist. */
export function isNotFound(step: Step): boolean {
  return step.status === 'error' && !!step.err_text && NOT_FOUND.test(step.err_text) && !LINE_ENDINGS.test(step.err_text);
}

/**
 * Installing software, by every platform's package managers: language (npm, pip, uv, poetry, gem, cargo, go,
 * composer, dotnet), system (apt, dnf, yum, pacman, zypper, apk, snap, flatpak, nix, brew, port, winget, choco,
 * scoop), version managers (nvm, pyenv, rustup, asdf, sdk, volta), and scripts piped into a shell.
 */
const INSTALL =
  /\b(npm|pnpm|yarn|bun)\s+(install|i|add|ci)\b|\b(pip3?|pipx)\s+install\b|\bpython3? -m pip install\b|\buv\s+(pip\s+install|add|tool\s+install)\b|\bpoetry\s+add\b|\bapt(-get)?\s+(install|update)\b|\b(brew|port)\s+install\b|\bplaywright\s+install\b|\bcargo\s+install\b|\bgo\s+(install|get)\b|\bgem\s+install\b|\b(conda|mamba|micromamba)\s+install\b|\b(snap|flatpak|zypper)\s+install\b|\bdnf\s+install\b|\byum\s+install\b|\bpacman\s+-s\w*\b|\bapk\s+add\b|\bnix-env\s+-i\b|\bcomposer\s+(require|install)\b|\bdotnet\s+(add\s+\S+\s+package|tool\s+install)\b|\b(winget|choco|scoop)(\.exe)?\s+install\b|\b(nvm|pyenv|asdf|sdk|volta|fnm)\s+install\b|\brustup\s+(toolchain\s+)?install\b|\bmsiexec(\.exe)?\s+\/i\b|\bdocker\s+pull\b|\bcurl\b[^|]*\|\s*(ba|z)?sh\b/;

export function isInstall(step: Step): boolean {
  return !!step.cmd && INSTALL.test(step.cmd.toLowerCase());
}

const DIAGNOSTIC_COMMAND =
  /^(sudo\s+)?(curl|wget|nc|ncat|ping|telnet|ss|netstat|lsof|dig|nslookup|host|traceroute|printenv|env|docker\s+(ps|logs|inspect)|docker compose (ps|logs)|systemctl\s+status|service\s+\S+\s+status|ps(\s|$)|pgrep|pg_isready|redis-cli\s+ping|kubectl\s+(get|describe|logs))\b|^echo\s+"?\$\{?[a-z_]+|^(cat|grep|rg|head|less|tail)\b.*(config|\.env|settings|\.ya?ml|\.toml|\.json|\.ini|\.conf|url|port|host)/;
const CONFIG_NAME = /(config|settings|\.env|\.ya?ml$|\.toml$|\.ini$|\.conf$|\.json$|\.properties$)/;

/** A look before acting: testing the endpoint, reading the configuration, checking the service. */
export function isDiagnostic(step: Step): boolean {
  if (step.cmd && DIAGNOSTIC_COMMAND.test(step.cmd.toLowerCase())) return true;
  if ((step.op === 'read' || step.op === 'search') && step.paths?.some((p) => CONFIG_NAME.test(baseName(p).toLowerCase()))) return true;
  return step.op === 'search' && !!step.text && /url|port|host|endpoint/.test(step.text);
}

/** Writing configuration: a config or environment file. */
export function writesConfig(step: Step): boolean {
  return step.op === 'write' && !!step.paths?.some((p) => CONFIG_NAME.test(baseName(p).toLowerCase()) && !/(package|tsconfig|jest)/.test(baseName(p).toLowerCase()));
}

const BYPASS_COMMAND =
  /--no-verify\b|--force\b|\bpush -f\b|--skip-?tests?\b|--no-check\b|--insecure\b|\bcurl\b.*\s-k\b|node_tls_reject_unauthorized=0|pythonhttpsverify=0|git_ssl_no_verify|--legacy-peer-deps|\bchmod\s+(-r\s+)?777\b|--passwithnotests|--bail=0|--disable-|--ignore-scripts|-k\s+["']?not\s|--deselect\b/;
const BYPASS_CONTENT =
  /\b(it|test|describe)\.skip\(|\bxit\(|\bxdescribe\(|@pytest\.mark\.skip|@ts-ignore|@ts-nocheck|eslint-disable|# type: ignore|# noqa|verify\s*=\s*false|rejectunauthorized\s*:\s*false|strict_ssl\s*=\s*false|process\.exit\(0\)|\bexpect\(true\)\.tobe\(true\)/;

/**
 * `… || true` after a test run or an install: its failure is swallowed. After a search that may find nothing
 * (`ls ~ | grep aider || true`), a clean-up of what may not be there, or a build or make target whose log is
 * read next (`make run || true; cat run.log`), it only keeps the exit status quiet.
 * `set +e` swallows every failure after it, unless the line keeps the status to print or exit with.
 */
function swallowsFailure(cmd: string): boolean {
  for (const match of cmd.matchAll(/\|\|\s*true\b/g)) {
    const before = cmd.slice(0, match.index).split(/&&|;|\n|\|\|/).pop() ?? '';
    if (checkKindOf({ cmd: before }) === 'test' || INSTALL.test(before)) return true;
  }
  // `set +e` lets the line go on past failures; one that keeps the status (`status=$?`, `exit $?`) to print it or
  // exit with it only captures the output first.
  return /\bset \+e\b/.test(cmd) && !/\b\w+=\$\?|\bexit\s+"?\$\?/.test(cmd);
}

/**
 * A test run told to leave tests out, in each ecosystem's words: `cargo test -- --skip x`, `go test -skip x`,
 * `mvn -DskipTests`, `gradle test -x integrationTest`, `pytest --ignore=…`, `jest --testPathIgnorePatterns`,
 * `dotnet test --filter "Name!=x"`, `rspec --tag ~slow`, `phpunit --exclude-group`. After a failure it is the
 * failing tests left out, not fixed.
 */
const TEST_SKIP =
  /\btest\b[^|;&]*\s--?skip[\s=]|-dskiptests\b|-dmaven\.test\.skip=true|\bgradlew?\b[^|;&]*\s-x\s+\S*test|--testpathignorepatterns|--test-path-ignore-patterns|\bpytest\b[^|;&]*\s--ignore(?:-glob)?[=\s]|\bdotnet\s+test\b[^|;&]*--filter\s+["']?[^"'|;&]*!=|\brspec\b[^|;&]*--tag\s+["']?~|\bphpunit\b[^|;&]*--exclude-group\b/;

/** Working around a problem instead of finding its cause: skipping checks, forcing, disabling verification. */
export function isBypass(step: Step): boolean {
  if (step.cmd) {
    const cmd = step.cmd.toLowerCase();
    if (TEST_SKIP.test(cmd)) return true;
    // `curl -k` of a local service with its own self-signed certificate checks the service, it bypasses nothing.
    const local = /\bcurl\b.*\s-k\b/.test(cmd) && /(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|\[::1\])[:/]/.test(cmd);
    if (BYPASS_COMMAND.test(local ? cmd.replace(/\s-k\b/g, ' ') : cmd)) return true;
    if (swallowsFailure(cmd)) return true;
  }
  return step.op === 'write' && !!step.marks?.includes('bypass');
}

const AUTH_FAILURE =
  /not logged in|not logged into|authentication (?:failed|required)|requires authentication|permission denied \(publickey|host key verification failed|bad credentials|invalid credentials|could not read username|\bunauthori[sz]ed\b|login required/;

/**
 * What agents' permission systems answer when a person or the agent's own guard refuses a tool call, by
 * agent: Claude Code ("Permission to use Bash with command … has been denied", "Permission for this
 * action was denied by the Claude Code auto mode classifier", "The user doesn't want to proceed with this
 * tool use. The tool use was rejected"), Codex ("exec command rejected by user"), Gemini CLI ("Tool
 * execution denied by policy", "[Operation Cancelled] Reason: User denied execution"), and a hook of the agent's own
 * that stopped it (GUARD_BLOCK). A file the
 * system will not open ("Permission denied", EACCES) is no refusal: nobody said no, and neither is a
 * service's "access was denied". The error text is cut at 240 characters: Claude Code's refusal of a long
 * command is known by how it begins.
 */
/**
 * A hook of the agent's own that stopped a call and says so: Claude Code shows a PreToolUse hook's blocking exit as
 * "PreToolUse:Bash hook error: [node block-dangerous.js]: [HOOK BLOCKED] …"; a transcript may keep only what the hook
 * wrote ("BLOCKED: Test files protected during implementation"). A hook that only reminds ("⚠️ Security
 * Warning: …") says nothing of blocking and is left out.
 */
const GUARD_BLOCK = /pretooluse:[\w.-]+ hook error: \[[^\]]*\]: .*\b(?:blocked|denied|not allowed|forbidden|refused)\b|(?:denied|blocked) by (?:the |a )?(?:[\w-]+ )?hook\b|^(?:\[(?:hook )?blocked\]|(?:hook )?blocked)\s*[:!—-]\s/;

/** A call a hook of the agent's own stopped (see GUARD_BLOCK): an automatic guard, not a person. */
export function isGuardBlock(step: Step): boolean {
  return step.status === 'error' && !!step.err_text && GUARD_BLOCK.test(step.err_text);
}

const REFUSAL = new RegExp(String.raw`\bpermission (?:for this action (?:was|has been) denied|to use [\w.-]+ (?:with command\b|has been denied))|doesn't want to proceed with this tool use|tool use was rejected|user rejected tool use|rejected by (?:the )?user|user (?:denied|rejected|declined)\b|denied by (?:the )?(?:policy|user|hook|classifier|auto mode classifier)|blocked by (?:the )?(?:auto[- ]mode )?classifier|${GUARD_BLOCK.source}`);

/** A tool call a person or the agent's own permission system refused (see REFUSAL). */
export function isRefusal(step: Step): boolean {
  return step.status === 'error' && !!step.err_text && REFUSAL.test(step.err_text);
}

/**
 * An editor that will not write a file the agent has not read as it is now ("File has been modified since read",
 * "File has not been read yet. Read it first before writing to it"): a safeguard against overwriting someone
 * else's change, answered by reading the file again.
 */
const EDITOR_GUARD = /file has (?:been (?:unexpectedly )?modified|not been read yet)|read it (?:again |first )?before (?:attempting to )?writ/;

export function isEditorGuard(step: Step): boolean {
  return step.status === 'error' && !!step.err_text && EDITOR_GUARD.test(step.err_text);
}

/**
 * A command that writes the files it names: a redirection, `tee`, `sed -i`, `perl -pi`, PowerShell's writers. A copy
 * is left out: `cp f f.bak` reads the file it names first.
 */
const SHELL_WRITE = /(?:^|[^<>&\d])>>?(?!\s*(?:\/dev\/null|nul\b|&))|\btee\b|\bsed\s+(?:-\w+\s+)*-\w*i|\bperl\s+-\w*i|\b(?:set-content|out-file|add-content)\b/i;

/** Whether a step writes one of these paths, by a file tool or in the shell (a look at them is no write). */
export function writesAny(step: Step, paths: readonly string[] | undefined): boolean {
  if (!paths?.some((path) => step.paths?.includes(path))) return false;
  return step.op === 'write' || (!!step.cmd && SHELL_WRITE.test(step.cmd));
}

/** An interpreter given its code on the command line or by a here-document (`python3 - <<'EOF'`, `node -e`, `perl -e`). */
const INLINE_CODE = /(?:^|[;&|]\s*)(?:python[\d.]*|node|perl|ruby|php)\s+(?:-\s*<<|<<|-[ce]\s)/;

/**
 * After a refused call, another tool that reaches what it was refused: the same file by another tool
 * (`cat .env` refused, then a Read of `.env`; an Edit refused, then `sed -i` on the file or code that names it), or the same
 * operation through another tool (`kubectl apply -f pod.yaml` refused, then an MCP server's
 * `kubectl_apply`). Another call of the same tool is the agent asking again (or doing what the person
 * said instead), and a write after a refused write is how a person's correction of an edit is followed.
 */
export function routesAround(refused: Step, step: Step): boolean {
  if (!refused.tool || !step.tool || step.tool === refused.tool || step.op === 'search' || refused.op === 'search') return false;
  if (!refused.cmd && !step.cmd && refused.op === 'write' && step.op === 'write') return false;
  if (refused.op === 'write') {
    // A refused write is gone round by writing the file another way; running or staging it is not (`pytest` of the test file).
    if (writesAny(step, refused.paths)) return true;
    // Code given to an interpreter names its files in its text, which no path of the command shows
    // (`python3 - <<'EOF' path = "/x/tests/test_a.py" … open(path, "w")`).
    if (step.cmd && INLINE_CODE.test(step.cmd) && refused.paths?.some((path) => step.cmd!.includes(path))) return true;
  } else if (refused.paths?.some((path) => step.paths?.includes(path))) return true;
  if (!refused.cmd) return false;
  const tool = step.tool.toLowerCase();
  // Any command of the refused line whose program and subcommand the other tool is named after (the
  // subcommand among its first words that are no options: `kubectl -n ai delete pod x`).
  const named = (word: string) => /^[a-z][\w-]*$/.test(word) && tool.includes(word);
  return simpleCommands(shellWords(refused.cmd.toLowerCase())).some(([program = '', ...rest]) => {
    const words = rest.filter((word) => !word.startsWith('-')).slice(0, 3);
    return program.length >= 2 && named(program) && words.some((verb) => verb.length >= 3 && named(verb));
  });
}

/** A failure because the agent is not authenticated where it tried to go (a CLI not logged in, a key refused). */
export function isAuthFailure(step: Step): boolean {
  return step.status === 'error' && !!step.err_text && AUTH_FAILURE.test(step.err_text);
}

/**
 * Files that hold logins ready to use: a netrc, git's stored credentials, gh's hosts, the AWS and Docker logins. Narrower
 * than the shared table (@warden/actions' credential stores): `~/.ssh/config` is read to find out why a key was refused.
 */
const CREDENTIAL_STORE = /(?:^|[\\/])(?:\.netrc|_netrc|\.git-credentials)$|[\\/]gh[\\/]hosts\.ya?ml$|[\\/]\.aws[\\/]credentials$|[\\/]\.docker[\\/]config\.json$/i;
/** The login files, and the configuration that says how to log in: SSH's, git's, the AWS CLI's. */
const CREDENTIALS_CONFIG = new RegExp(`(?:^|[\\\\/])\\.ssh[\\\\/]|(?:^|[\\\\/])\\.gitconfig$|[\\\\/]\\.aws[\\\\/]config$|${CREDENTIAL_STORE.source}`, 'i');
const AUTH_WORKAROUND_COMMAND =
  /login\/device\/code|login\/oauth\/access_token|oauth2?\/device(?:\/code|authorization)?\b|\bstart-process\b.*\bauth\s+login\b|\bnohup\b.*\blogin\b|\bauth\s+login\b[^|;]*&\s*$|credential\.helper|stricthostkeychecking=no/;

const AUTH_WORKAROUND_INTENT = /\b(?:start|run|launch)s?\b[^.]*\bbackground\b[^.]*\b(?:auth\w*|log\s?in)\b|\bdevice (?:flow|code|auth\w*)\b/;

/**
 * Another login looked for: asked of git's credential helpers or the keychain, searched for on the disk, grepped out
 * of the environment, read from the secrets a container was given.
 */
const CREDENTIAL_HUNT =
  /\bgit\s+credential(?:-[\w-]+)?\s+(?:fill|get)\b|\bsecurity\s+find-(?:generic|internet)-password\b|\bfind\s+\/\S*\s[^|;&]*-i?name\s+["']?[^"'\s]*(?:git-credentials|netrc|id_rsa|id_ed25519|\.pem\b|credentials)|\b(?:env|printenv)\s*\|\s*grep\b[^;&]*(?:token|secret|passw|key|cred|auth|github|gh_|aws)|\/run\/secrets\b/;

/**
 * Working round a failed login instead of asking the person who can log in: the login run in the
 * background, a device flow made by hand (another app's client id at the provider's device endpoint), SSH or
 * credential configuration rewritten, or another login hunted for (see CREDENTIAL_HUNT, CREDENTIAL_STORE). A
 * client id alone is no sign: the project may be an OAuth client itself.
 */
export function worksAroundAuth(step: Step): boolean {
  const cmd = step.cmd?.toLowerCase();
  if (cmd && (AUTH_WORKAROUND_COMMAND.test(cmd) || CREDENTIAL_HUNT.test(cmd))) return true;
  if (step.op !== 'write' && step.paths?.some((p) => CREDENTIAL_STORE.test(p))) return true;
  // A long command is kept cut short: what the agent said it does counts too.
  if (step.cmd && step.text && AUTH_WORKAROUND_INTENT.test(step.text)) return true;
  return step.op === 'write' && !!step.paths?.some((p) => CREDENTIALS_CONFIG.test(p));
}

const COMPLEX_COMMAND =
  /\bdocker\s+(run|build|compose\s+up|-compose\s+up)\b|\bdocker-compose\s+up\b|\bkubectl\s+(apply|create)\b|\bminikube\s+start\b|\bkind\s+create\b|\bpython3?\s+-m\s+venv\b|\bvirtualenv\b|\bnvm\s+install\b|\bgit\s+clone\b|\bterraform\s+apply\b|\bvagrant\s+up\b/;
const COMPLEX_FILE = /^(dockerfile|docker-compose[\w.-]*\.ya?ml|compose\.ya?ml|vagrantfile|.*mock[-_]?server.*|.*fake[-_]?server.*|.*stub[-_]?server.*|setup[-_]env.*\.sh|.*\.tf)$/;

/** A heavyweight way round a small problem: new containers, environments, clones, mock servers. */
export function isComplexWorkaround(step: Step): boolean {
  return complexKind(step) !== undefined;
}

const COMPLEX_KINDS: [RegExp, string][] = [
  [/docker|podman|compose/, 'containers'],
  [/kubectl|minikube|kind\s/, 'kubernetes'],
  [/venv|virtualenv/, 'python environment'],
  [/nvm/, 'node version'],
  [/git\s+clone/, 'clone'],
  [/terraform|\.tf$/, 'terraform'],
  [/vagrant/, 'virtual machine'],
  [/mock|fake|stub/, 'mock server'],
  [/setup[-_]env/, 'environment script'],
];

/**
 * The kind of heavyweight tooling a step works with at all (`docker-compose ps`, reading the compose
 * file, `kubectl get`): a session that does is a project that uses it.
 */
export function toolingKind(step: Step): string | undefined {
  const text = [step.cmd?.toLowerCase() ?? '', ...(step.paths ?? []).map((p) => baseName(p).toLowerCase())].join(' ');
  if (!text.trim()) return undefined;
  return COMPLEX_KINDS.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * Which kind of heavyweight tooling a step reaches for as a workaround (new containers, a virtual environment,
 * a clone …), if any. A session that worked with that kind before a failure is using its own tools again.
 */
export function complexKind(step: Step): string | undefined {
  const text = step.cmd && COMPLEX_COMMAND.test(step.cmd.toLowerCase()) ? step.cmd.toLowerCase() : step.op === 'write' ? step.paths?.map((p) => baseName(p).toLowerCase()).find((name) => COMPLEX_FILE.test(name)) : undefined;
  if (text === undefined) return undefined;
  return COMPLEX_KINDS.find(([pattern]) => pattern.test(text))?.[1] ?? 'other';
}

const LOCAL_ENDPOINT = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(\d{2,5})\b/g;

/** The local ports a text names (`localhost:3000`, `127.0.0.1:8080`). */
export function localPortsIn(text: string): string[] {
  return [...text.matchAll(LOCAL_ENDPOINT)].map((m) => m[1]!);
}

/** The local ports a step names in its command or the content it writes. */
export function localPorts(step: Step): string[] {
  return step.ports ?? [];
}

const SECRET_VALUE = /\b[a-z0-9_]*(secret|token|password|passwd|api[_-]?key|access[_-]?key|private[_-]?key)[a-z0-9_]*\s*[=:]\s*\S{6,}|-----begin [a-z ]*private key-----|\b(sk|pk|ghp|gho|xox[bp]|akia)[-_][a-z0-9]{8,}/i;

/** Whether text carries what looks like a credential. */
export function hasSecretValue(text: string | undefined): boolean {
  return !!text && SECRET_VALUE.test(text);
}

export type ContentMark = 'bypass' | 'secret';

/** What written content shows: a bypass (skipped tests, disabled checks) or a credential. */
export function contentMarks(content: string): ContentMark[] {
  const marks: ContentMark[] = [];
  if (BYPASS_CONTENT.test(content.toLowerCase())) marks.push('bypass');
  if (hasSecretValue(content)) marks.push('secret');
  return marks;
}

/** A redirection's target or tee's file: `> out`, `>> out`, `2> err`, `&> all`, `| tee -a out`; not a descriptor (`2>&1`). */
const WRITTEN = /(?:^|[^<>])(?:\d|&)?>{1,2}\s*(?!&)("[^"]+"|'[^']+'|[^\s;&|()<>]+)|\btee\s+(?:-a\s+)?("[^"]+"|'[^']+'|[^\s;&|()<>]+)/g;

/**
 * The files a command writes through the shell: redirections and tee, the null devices aside. What
 * only flows through a pipe (`grep x ~/.ssh/config | head`) is written nowhere.
 */
export function shellWrittenFiles(command: string): string[] {
  const files: string[] = [];
  for (const match of command.matchAll(WRITTEN)) {
    const file = (match[1] ?? match[2] ?? '').replace(/^["']|["']$/g, '');
    if (file && !/^(?:\/dev\/(?:null|stdout|stderr|tty)|nul|\$null)$/i.test(file)) files.push(file);
  }
  return files;
}
