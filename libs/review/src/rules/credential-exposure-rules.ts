import { commandName } from '../parsing/command-facts.js';
import { describesOnly, type ParsedAction } from '../parsing/parsed-action.js';
import { commandNames, positionsRunning, type CommandNames } from '../parsing/segment-index.js';
import { builtInRule } from './built-in-rule.js';

/** A variable named like a credential: GH_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD, OPENAI_API_KEY. */
const CREDENTIAL_NAME = /(?:TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH|COOKIE|SESSION_?ID)/i;
/** Named like one but holding where something is (`SSH_AUTH_SOCK`, `AUTH_URL`, `GOOGLE_APPLICATION_CREDENTIALS_PATH`), not a secret. */
const LOCATION_NAME = /_(?:SOCK|SOCKET|URL|URI|HOST|PORT|PATH|DIR|FILE|ENDPOINT|DOMAIN|PROVIDER|MODE|TYPE)$/i;
/** `$GH_TOKEN`, `${GH_TOKEN}`, `${GH_TOKEN:0:10}` print it (or part of it); `${GH_TOKEN:+set}` and `${#GH_TOKEN}` do not. */
const PRINTED_VARIABLE = /\$(?:\{(?![#!])([A-Za-z_]\w*)(?![:]?[+?]|:-|-)(?::\d+(?::\d+)?)?\}|([A-Za-z_]\w*))/g;
/** What shows what it is given: piping a value here still prints it. */
const DISPLAYS = new Set(['head', 'tail', 'cut', 'cat', 'less', 'more', 'tee', 'sed', 'awk', 'tr', 'base64', 'xxd', 'od', 'hexdump', 'fold', 'rev']);
/** Environment dumps, and a search of them for credentials. */
const ENV_DUMPS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'compgen']);
const CREDENTIAL_WORDS = /token|secret|passw|api_?key|access_?key|private|credential|auth|github|gh_|aws|npm_|openai|anthropic/i;
/** Files that hold a process's environment or its open descriptors: another program's credentials live there. */
const PROCESS_SECRETS = /^\/proc\/(?:self|\d+|\$\$|\$\w+)\/(?:environ|fd\/\d+)$/;
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
    if (!arg.includes('$')) continue;
    for (const match of arg.matchAll(PRINTED_VARIABLE)) {
      const name = match[1] ?? match[2]!;
      if (CREDENTIAL_NAME.test(name) && !LOCATION_NAME.test(name) && !assigned(name)) return `$${name}`;
    }
  }
  return undefined;
}

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
  if (!ENV_DUMPS.has(cmd)) return undefined;
  if (cmd === 'printenv') {
    const named = segment.argv.slice(1).find((a) => !a.startsWith('-') && CREDENTIAL_NAME.test(a));
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
  ['gh', 'auth', 'token'],
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
];
const PRINTER_PROGRAMS = new Set(CREDENTIAL_PRINTERS.map(([program]) => program!));

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
  return printer && !handedOn(action, index) ? printer.join(' ') : undefined;
}

/** The commands the checks above read: echo and printf, environment dumps (a bare `env` is left without a name), credential helpers and printers. */
const PRINTERS: CommandNames = {
  has: (name) => name === '' || name === 'echo' || name === 'printf' || ENV_DUMPS.has(name) || name === 'git' || name === 'security' || name.startsWith('git-credential-') || PRINTER_PROGRAMS.has(name),
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
      found = printedCredential(action, i) ?? dumpedCredentials(action, i) ?? askedForCredentials(action, i);
      if (found) break;
    }
    found ??= showsSecretFile(action);
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
