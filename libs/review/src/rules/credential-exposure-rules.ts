import { commandName } from '../parsing/command-facts.js';
import { describesOnly, type ParsedAction } from '../parsing/parsed-action.js';
import { commandNames, positionsRunning, type CommandNames } from '../parsing/segment-index.js';
import { optionValues } from '../parsing/segment-paths.js';
import { windowsCommands } from '../parsing/windows-commands.js';
import { builtInRule } from './built-in-rule.js';
import { credentialIn, credentialVariable } from './credential-variables.js';
import { inlineCodeText, runsInlineCode } from './harm-catalogue.js';

/** What shows what it is given: piping a value here still prints it. */
const DISPLAYS = new Set(['head', 'tail', 'cut', 'cat', 'less', 'more', 'tee', 'sed', 'awk', 'tr', 'base64', 'xxd', 'od', 'hexdump', 'fold', 'rev']);
/** A shell's or a REPL's history file: `~/.bash_history`, `~/.zsh_history`, `~/.psql_history`, PowerShell's `ConsoleHost_history.txt`. */
const SHELL_HISTORY = /(?:^|[\/])(?:\.\w*_?history|consolehost_history\.txt)$/i;
/** Environment dumps, and a search of them for credentials. */
const ENV_DUMPS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'compgen']);
const CREDENTIAL_WORDS = /token|secret|passw|api_?key|access_?key|private|credential|auth|github|gh_|aws|npm_|openai|anthropic/i;
/** Files that hold a process's environment or its open descriptors: another program's credentials live there. */
const PROCESS_SECRETS = /^\/proc\/(?:self|\d+|\$\$|\$\w+|\*|\[0-9\]\*)\/(?:environ|fd\/\d+)$|^\$\{?\w+\}?\/environ$/;
/** Files named as tokens: `.session_ingress_token`, `github.token`, `api-token.txt`. */
const TOKEN_FILE = /(?:^|\/)[\w.-]*(?:_|-|\.)?token(?:\.txt|\.json)?$/i;

/**
 * What a segment prints is not shown: written to a file (`echo "//registry/:_authToken=$NPM_TOKEN" > .npmrc`) or
 * handed to a program that takes it on its input (`aws ecr get-login-password | docker login --password-stdin`).
 */
function handedOn(action: ParsedAction, index: number): boolean {
  const segment = action.segments[index]!;
  if (segment.redirects.some((r) => r.operator.startsWith('>') && !/^\/dev\/(?:stdout|stderr|tty)$/.test(r.target))) return true;
  const next = action.segments[index + 1];
  return !!next?.pipedFrom && !DISPLAYS.has(commandName(next));
}

function printedCredential(action: ParsedAction, index: number): string | undefined {
  const segment = action.segments[index]!;
  const cmd = commandName(segment);
  if ((cmd !== 'echo' && cmd !== 'printf') || handedOn(action, index)) return undefined;
  // A variable the same command line set itself (a CSRF token scraped from the app's own page) is its own value.
  const assigned = (name: string) => new RegExp(`(?:^|[\\s;&|(])${name}=`).test(action.command ?? '');
  for (const arg of segment.argv.slice(1)) {
    const found = credentialIn(arg, assigned) ?? printenvIn(arg);
    if (found) return found;
  }
  return undefined;
}

/** `$(printenv STRIPE_KEY)` inside what echo or printf prints: printed, not handed on. */
const PRINTENV_SUBSTITUTION = /\$\(\s*printenv\s+([A-Za-z_]\w*)\s*\)/g;

function printenvIn(word: string): string | undefined {
  if (!word.includes('printenv')) return undefined;
  for (const match of word.matchAll(PRINTENV_SUBSTITUTION)) if (credentialVariable(match[1]!)) return `printenv ${match[1]}`;
  return undefined;
}

/** A credential fed to a program that shows its input, by a here-string (`cat <<< "$GITHUB_TOKEN"`). */
function hereStringCredential(action: ParsedAction, index: number): string | undefined {
  const segment = action.segments[index]!;
  if (!segment.redirects.some((r) => r.operator === '<<<') || !DISPLAYS.has(commandName(segment)) || handedOn(action, index)) return undefined;
  // The segment keeps that a here-string feeds it, not the text: the line's here-strings are read from its text.
  for (const fed of (action.command ?? '').matchAll(HERE_STRING)) {
    const found = credentialIn(fed[1]!);
    if (found) return found;
  }
  return undefined;
}

/** A here-string's word: `<<< "$TOKEN"`, `<<<$TOKEN`. */
const HERE_STRING = /<<<\s*("[^"]*"|\S+)/g;

/** A later stage of the pipeline keeps only the names (sed replacing `=` and what follows, `cut -d= -f1`, `awk -F= '{print $1}'`). */
function masksValues(action: ParsedAction, from: number): boolean {
  for (let i = from + 1; i < action.segments.length && action.segments[i]!.pipedFrom; i++) {
    const { argv } = action.segments[i]!;
    const cmd = commandName(action.segments[i]!);
    if (cmd === 'sed' && argv.some((a) => /^s(.)=\.\*\1/.test(a))) return true;
    if (cmd === 'cut' && argv.some((a) => /^-d\s*=?$|^--delimiter==?$/.test(a) || a === '-d=') && argv.some((a) => /^-f\s*1$|^--fields=1$|^1$/.test(a))) return true;
    if (cmd === 'awk' && argv.some((a) => /^-F\s*=$/.test(a) || a === '-F=') && argv.some((a) => /print \$1\b/.test(a))) return true;
  }
  return false;
}

function dumpedCredentials(action: ParsedAction, index: number): string | undefined {
  const segment = action.segments[index]!;
  // A bare `env` is a wrapper with nothing to run: the dump itself.
  const cmd = segment.argv.length === 0 && segment.wrappers.at(-1) === 'env' ? 'env' : commandName(segment);
  // The shell's history holds what was typed, passwords and tokens given on command lines included.
  const history = cmd === 'history' || (FILE_DISPLAYS.has(cmd) && segment.argv.slice(1).some((a) => SHELL_HISTORY.test(a)));
  if (!ENV_DUMPS.has(cmd) && !history) return undefined;
  if (cmd === 'printenv') {
    const named = segment.argv.slice(1).find((a) => !a.startsWith('-') && credentialVariable(a));
    if (named) return `printenv ${named}`;
  }
  if ((cmd === 'export' || cmd === 'declare') && !segment.argv.some((a) => a === '-p' || a === '-x')) return undefined;
  if (cmd === 'env' && segment.argv.length > 1) return undefined; // env VAR=x command: a wrapper, not a dump
  const next = action.segments[index + 1];
  if (next?.pipedFrom && commandName(next) === 'grep' && next.argv.slice(1).some((a) => !a.startsWith('-') && CREDENTIAL_WORDS.test(a)) && !masksValues(action, index + 1)) {
    return `${cmd} | grep ${next.argv.slice(1).join(' ')}`;
  }
  return undefined;
}

/**
 * Programs that print a credential when asked: an access token, a registry password, a secret's value, an
 * account's keys. Each entry is the program and the words of its subcommand, other options left out
 * (`gcloud --quiet auth print-access-token`), then any option without which it prints no secret
 * (`aws ssm get-parameter` shows a SecureString encrypted unless `--with-decryption`).
 */
const CREDENTIAL_PRINTERS: readonly (readonly string[])[] = [
  ['gcloud', 'auth', 'print-access-token'],
  ['gcloud', 'auth', 'print-identity-token'],
  ['gcloud', 'auth', 'application-default', 'print-access-token'],
  ['gcloud', 'secrets', 'versions', 'access'],
  ['az', 'account', 'get-access-token'],
  ['az', 'keyvault', 'secret', 'show'],
  ['aws', 'ecr', 'get-login-password'],
  ['aws', 'ecr-public', 'get-login-password'],
  ['aws', 'codeartifact', 'get-authorization-token'],
  ['aws', 'sts', 'get-session-token'],
  ['aws', 'configure', 'export-credentials'],
  ['aws', 'secretsmanager', 'get-secret-value'],
  ['aws', 'ssm', 'get-parameter', '--with-decryption'],
  ['aws', 'ssm', 'get-parameters', '--with-decryption'],
  ['aws', 'ssm', 'get-parameters-by-path', '--with-decryption'],
  ['aws', 'ssm', 'get-parameter-history', '--with-decryption'],
  ['aws', 'apigateway', 'get-api-key', '--include-value'],
  ['aws', 'apigateway', 'get-api-keys', '--include-values'],
  ['aws', 'lightsail', 'get-instance-access-details'],
  ['az', 'storage', 'account', 'keys', 'list'],
  ['az', 'storage', 'account', 'show-connection-string'],
  ['az', 'webapp', 'config', 'connection-string', 'list'],
  ['az', 'cosmosdb', 'keys', 'list'],
  ['az', 'redis', 'list-keys'],
  ['az', 'acr', 'credential', 'show'],
  ['heroku', 'auth:token'],
  ['vault', 'print', 'token'],
  ['vault', 'kv', 'get'],
  ['vault', 'read'],
  ['vault', 'unwrap'],
  ['op', 'read'],
  ['kubectl', 'create', 'token'],
  ['kubectl', 'config', 'view', '--raw'],
  ['oc', 'config', 'view', '--raw'],
  ['oc', 'whoami', '--show-token'],
  ['oc', 'whoami', '-t'],
  ['gh', 'auth', 'status', '--show-token'],
  ['gh', 'auth', 'status', '-t'],
  ['doppler', 'secrets', 'download'],
  ['doppler', 'secrets', 'get'],
  ['infisical', 'export'],
  ['infisical', 'secrets', 'get'],
  // Password managers and keyrings asked for an entry's secret.
  ['pass', 'show'],
  ['gopass', 'show'],
  ['bw', 'get', 'password'],
  ['bw', 'get', 'item'],
  ['bw', 'get', 'notes'],
  ['lpass', 'show'],
  ['keyring', 'get'],
  ['secret-tool', 'lookup'],
  ['gpg', '--export-secret-keys'],
  ['gpg', '--export-secret-subkeys'],
];
const PRINTER_PROGRAMS = new Set([...CREDENTIAL_PRINTERS.map(([program]) => program!), 'aws', 'terraform', 'tofu', 'npm', 'pnpm', 'yarn', 'heroku']);

/**
 * Programs that print a named value, asked for one named like a credential: `aws configure get
 * aws_secret_access_key`, `terraform output -raw db_password`, `npm config get //registry/:_authToken`,
 * `heroku config:get STRIPE_SECRET_KEY`; and Kubernetes secrets asked for with their data
 * (`kubectl get secret db -o yaml`; without `-o` it lists names, `describe` shows sizes).
 */
function namedCredential(segment: { argv: readonly string[] }, cmd: string): string | undefined {
  const words = segment.argv.slice(1).filter((a) => !a.startsWith('-'));
  const credentialNamed = (name: string | undefined) => name !== undefined && credentialVariable(name);
  if (cmd === 'aws' && words[0] === 'configure' && words[1] === 'get' && credentialNamed(words[2])) return `aws configure get ${words[2]}`;
  if ((cmd === 'terraform' || cmd === 'tofu') && words[0] === 'output' && segment.argv.some((a) => a === '-raw' || a === '-json') && credentialNamed(words[1])) return `${cmd} output ${words[1]}`;
  if ((cmd === 'npm' || cmd === 'pnpm' || cmd === 'yarn') && words[0] === 'config' && words[1] === 'get' && /_auth(?:token)?\b|_password\b/i.test(words[2] ?? '')) return `${cmd} config get ${words[2]}`;
  if (cmd === 'heroku' && words[0] === 'config:get' && credentialNamed(words[1])) return `heroku config:get ${words[1]}`;
  // `kubectl -n prod get secrets -ojson`: the namespace's value stands before the verb.
  const verb = words.indexOf('get');
  if ((cmd === 'kubectl' || cmd === 'oc') && verb >= 0 && verb <= 2 && /^secrets?(?:$|\/)/.test(words[verb + 1] ?? '')) {
    const format = optionValues(segment.argv, { short: 'o', long: '--output' })[0];
    if (format && !/^(?:name|wide|custom-columns=(?!.*\.data))/.test(format)) return `${cmd} get ${words[verb + 1]} -o ${format}`;
  }
  return undefined;
}

function askedForCredentials(action: ParsedAction, index: number): string | undefined {
  const segment = action.segments[index]!;
  const cmd = commandName(segment);
  const [, sub, third] = segment.argv;
  if (cmd === 'git' && sub === 'credential' && (third === 'fill' || third === 'get')) return 'git credential fill';
  if (cmd.startsWith('git-credential-') && sub === 'get') return `${cmd} get`;
  if (cmd === 'security' && /^find-(?:generic|internet)-password$/.test(sub ?? '') && segment.argv.includes('-w')) return `security ${sub} -w`;
  if (!PRINTER_PROGRAMS.has(cmd) || describesOnly(segment)) return undefined;
  const words = segment.argv.slice(1).filter((a) => !a.startsWith('-'));
  const given = (option: string) => segment.argv.some((a) => a === option || a.startsWith(`${option}=`));
  const printer = CREDENTIAL_PRINTERS.find(([program, ...asked]) => program === cmd && asked.every((word, i) => (word.startsWith('-') ? given(word) : words[i] === word)));
  const found = printer ? printer.join(' ') : namedCredential(segment, cmd);
  // A private key exported into a file is a copy of it out of its keyring, not a value handed on.
  if (found && cmd === 'gpg' && segment.redirects.some((r) => r.operator.startsWith('>'))) return found;
  return found && !handedOn(action, index) ? found : undefined;
}

/** An environment variable read in code: `process.env.X`, `process.env['X']`, `os.environ["X"]`, `os.getenv('X')`, `ENV['X']`, `$ENV{X}`, `Deno.env.get('X')`, `getenv('X')`, `$env:X`. */
const ENV_READ_IN_CODE = /(?:process\.env\.|process\.env\[\s*['"]|environ(?:\.get\s*\(|\[)\s*['"]|getenv\s*\(\s*['"]|\bENV\[\s*['"]|\$ENV\{\s*['"]?|Deno\.env\.get\s*\(\s*['"]|\$env:)([A-Za-z_]\w*)/g;
/** Code that shows what it is given. */
const PRINTS_IN_CODE = /\b(?:console\.(?:log|info|error|warn|dir)|print|println|printf|puts|pp|say|echo|write-(?:host|output)|sys\.stdout\.write|process\.stdout\.write)\b/gi;

/**
 * Interpreter code that prints an environment variable named like a credential
 * (`node -e "console.log(process.env.STRIPE_SECRET_KEY)"`): the variable read inside the print call itself.
 * Code that reads a key to use it (`key = os.environ['GEMINI_API_KEY']; httpx.post(…, headers={…: key})`) and
 * prints the answer does not show it.
 */
function printedInCode(action: ParsedAction, index: number): string | undefined {
  const segment = action.segments[index]!;
  const code = inlineCodeText(segment);
  if (!code || handedOn(action, index)) return undefined;
  for (const call of code.matchAll(PRINTS_IN_CODE)) {
    // What the call is given, up to its first closing parenthesis, statement end or line end.
    const start = call.index + call[0].length;
    const given = /^[^;\n]*?(?:\)|;|\n|$)/.exec(code.slice(start, start + 200))![0];
    for (const match of given.matchAll(ENV_READ_IN_CODE)) {
      const name = match[1]!;
      if (!credentialVariable(name)) continue;
      // Whether it is set, or how long it is, is not the value (`print(bool(os.environ.get('GH_TOKEN')))`).
      const before = given.slice(Math.max(0, match.index - 12), match.index);
      const after = given.slice(match.index + match[0].length, match.index + match[0].length + 16);
      if (/(?:bool|len|Boolean|!!|!)\s*\(?\s*[\w.]*$/.test(before) || /^['"\]}]*\)?\s*(?:\)\s*)?(?:\?|\.length|\.size|[!=]=|\bis\b|\bif\b|\?\?|\|\|)/.test(after)) continue;
      return `${segment.program} code printing ${name}`;
    }
  }
  return undefined;
}

/** An environment variable in PowerShell: `$env:GITHUB_TOKEN`, `[Environment]::GetEnvironmentVariable('GITHUB_TOKEN')`. */
const POWERSHELL_ENV = /\$env:([A-Za-z_]\w*)|\[(?:system\.)?environment\]::getenvironmentvariable\(\s*['"]([A-Za-z_]\w*)/gi;
/** What shows a value in PowerShell: its output commands, or the value alone as a statement. */
const POWERSHELL_SHOWS = /^(?:echo|write-output|write-host|write-information|\$env:\w+|\[(?:system\.)?environment\]::getenvironmentvariable\(.*)$/;

/** A PowerShell line that shows a credential variable (`echo $env:GITHUB_TOKEN`, `$env:OPENAI_API_KEY` alone). */
function printedInPowerShell(action: ParsedAction): string | undefined {
  const commands = windowsCommands(action);
  for (let i = 0; i < commands.length; i++) {
    const { program, args } = commands[i]!;
    // An assignment sets it; a value piped on is handed on.
    if (!POWERSHELL_SHOWS.test(program) || /^=/.test(args) || commands[i + 1]?.pipedFrom) continue;
    const text = `${program} ${args}`;
    for (const match of text.matchAll(POWERSHELL_ENV)) {
      const name = match[1] ?? match[2]!;
      // `[bool]$env:X`, `$env:X.Length`, `$env:X -ne $null`: whether it is set, not its value.
      const masked = /\[bool\]\s*$/i.test(text.slice(0, match.index)) || /^\.length|^\s*-(?:ne|eq)\b/i.test(text.slice(match.index + match[0].length));
      if (credentialVariable(name) && !masked) return `$env:${name}`;
    }
  }
  // A line of its own that PowerShell shows (`[Environment]::GetEnvironmentVariable('X')`) has no other Windows sign.
  const alone = /^\s*(?:(?:echo|write-output|write-host)\s+)?\[(?:system\.)?environment\]::getenvironmentvariable\(\s*['"]([A-Za-z_]\w*)['"][^)]*\)\s*;?\s*$/im.exec(action.command ?? '');
  if (alone && credentialVariable(alone[1]!)) return `$env:${alone[1]}`;
  return undefined;
}

const LOGIN_TOKEN_VERBS = new Set(['token', 'print-token', 'print-access-token', 'print-identity-token']);

/**
 * Any CLI's `auth token` (`gh`, `glab`, `fly`, `doctl` and many more say it the same way): it prints the
 * login the CLI keeps. Asked of every program, so looked for by its words first.
 */
function printedLoginToken(action: ParsedAction): string | undefined {
  for (let i = 0; i < action.segments.length; i++) {
    const segment = action.segments[i]!;
    const [, sub, verb] = segment.argv;
    if (sub !== 'auth' || verb === undefined || !LOGIN_TOKEN_VERBS.has(verb)) continue;
    if ((segment.nested && !segment.via) || describesOnly(segment) || handedOn(action, i)) continue;
    return `${commandName(segment)} auth ${verb}`;
  }
  return undefined;
}

/** The commands the checks above read: echo and printf, environment dumps (a bare `env` is left without a name) and the shell's history, credential helpers and printers, interpreters with code on their command line. */
const PRINTERS: CommandNames = {
  has: (name) => name === '' || name === 'echo' || name === 'printf' || ENV_DUMPS.has(name) || name === 'git' || name === 'security' || name.startsWith('git-credential-') || PRINTER_PROGRAMS.has(name) || runsInlineCode(name) || name === 'history' || FILE_DISPLAYS.has(name) || DISPLAYS.has(name),
};

/** Shows a file's content: what it reads ends up in the output. */
const FILE_DISPLAYS = new Set(['cat', 'head', 'tail', 'less', 'more', 'xxd', 'od', 'hexdump', 'strings', 'base64', 'tac', 'nl', 'bat']);

/**
 * Shows a token file or another process's environment or descriptors. A token read into a variable
 * (`export GH_TOKEN=$(cat .secrets/token)`) is handed on, not shown.
 */
function showsSecretFile(action: ParsedAction): string | undefined {
  if (!action.segments.length) return action.paths.find((p) => PROCESS_SECRETS.test(p) || TOKEN_FILE.test(p));
  const names = commandNames(action.segments);
  for (let i = 0; i < action.segments.length; i++) {
    const segment = action.segments[i]!;
    if (segment.nested) continue;
    if (FILE_DISPLAYS.has(names[i]!)) {
      const shown = segment.argv.slice(1).find((a) => PROCESS_SECRETS.test(a) || TOKEN_FILE.test(a));
      if (shown) return shown;
    }
    const redirect = segment.redirects.length ? segment.redirects.find((r) => r.operator.startsWith('<') && PROCESS_SECRETS.test(r.target)) : undefined;
    if (redirect) return redirect.target;
  }
  return undefined;
}

/**
 * Printing a credential: echoing a token variable, searching the environment for secrets, asking a
 * credential helper for a password, reading another process's environment or descriptors. The value
 * lands in the conversation, its transcript and the logs, and an agent that goes looking for credentials
 * it was not given is working around a missing permission.
 */
export const credentialExposureRule = builtInRule({
  name: 'credential_exposure',
  description: 'Printing credentials (echo $TOKEN, env | grep token, git credential fill, gcloud auth print-access-token, /proc/*/environ) needs approval.',
  reads: 'action',
  check({ action }) {
    let found: string | undefined;
    for (const i of positionsRunning(action.segments, PRINTERS)) {
      // Inside `$(…)` the output is captured and handed on (`GH_TOKEN=$(gh auth token) gh pr list`), not shown.
      if (action.segments[i]!.nested && !action.segments[i]!.via) continue;
      found = printedCredential(action, i) ?? hereStringCredential(action, i) ?? dumpedCredentials(action, i) ?? askedForCredentials(action, i) ?? printedInCode(action, i);
      if (found) break;
    }
    found ??= showsSecretFile(action) ?? printedInPowerShell(action) ?? printedLoginToken(action);
    if (!found) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['secrets', 'credential_access'],
      reason: `This prints a credential (${found}): its value ends up in the conversation, the transcript and the logs. Looking for credentials the session was not given works around a permission. A person must approve it.`,
      alternative: 'Check that a credential is set without printing it, e.g. [ -n "$GH_TOKEN" ] && echo set, or ask the user for the access the task needs.',
    };
  },
});
