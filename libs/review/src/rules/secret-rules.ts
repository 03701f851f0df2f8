import { redactText } from '@warden/secrets';
import { commandName, copierOperands } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { commandNames, runsAny } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { secretsOf } from './action-secrets.js';
import { builtInRule } from './built-in-rule.js';
import { credentialIn } from './credential-variables.js';
import { isExternalUrl, requestsItsOwnService, requestsOnlyThisMachine } from './network-destination.js';
import { isSecretFile, secretFileIn } from './secret-files.js';

/** Commands that send data over the network. */
const SENDERS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'http', 'https', 'xh']);
/** Copy commands: a local secret file among their arguments goes to the remote side. */
const COPIERS = new Set(['scp', 'sftp', 'rsync']);
const REMOTE_SPEC = /^[^/~.\s$][^/\s]*:/;
const HTTP_CLIENTS = new Set(['curl', 'http', 'https', 'xh']);

/** The secret file a sender uploads: `curl -d @.env`, `curl -F f=@id_rsa`, `curl -T`, `wget --post-file`, `nc host < .env`, `scp ~/.ssh/id_rsa host:`. */
function uploadedSecret(segment: ShellSegment): string | undefined {
  const cmd = commandName(segment);
  const { argv } = segment;
  const remote = COPIERS.has(cmd) && argv.some((a) => REMOTE_SPEC.test(a));
  // What a copier sends is among its operands: an identity file (`scp -i key`) or an ssh command (`rsync -e 'ssh -i key'`) is used, not sent.
  if (remote) {
    for (const operand of copierOperands(segment)) {
      const candidate = operand.includes('$(') || operand.includes('`') ? secretFileIn(operand) : operand;
      if (candidate !== undefined && isSecretFile(candidate)) return candidate;
    }
    return segment.redirects.find((r) => r.operator === '<' && isSecretFile(r.target))?.target;
  }
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    let candidate: string | undefined;
    if (arg.includes('$(') || arg.includes('`')) candidate = secretFileIn(arg);
    else if (HTTP_CLIENTS.has(cmd)) {
      const data = /(?:^|=)[@<]([^;]+)/.exec(arg);
      if (data) candidate = data[1];
      else if (arg === '-T' || arg === '--upload-file') candidate = argv[i + 1];
      else if (arg.startsWith('--upload-file=')) candidate = arg.slice('--upload-file='.length);
    } else if (cmd === 'wget') {
      const post = /^--(?:post|body)-file(?:=(.*))?$/.exec(arg);
      if (post) candidate = post[1] ?? argv[i + 1];
    } else if (remote && !arg.startsWith('-')) candidate = arg;
    if (candidate !== undefined && isSecretFile(candidate)) return candidate;
  }
  return segment.redirects.find((r) => r.operator === '<' && isSecretFile(r.target))?.target;
}

/** What a command reads that is secret: a secret file among its arguments or input, or the whole environment. */
function readSecret(segment: ShellSegment): string | undefined {
  const cmd = commandName(segment);
  // A bare `env` reaches here as an empty command: the parser peels `env` off as a wrapper.
  if (cmd === 'printenv' || (cmd === 'env' && segment.argv.length === 1) || (!segment.argv.length && !segment.redirects.length)) return 'the environment';
  for (const arg of segment.argv.slice(1)) {
    const file = secretFileIn(arg);
    if (file !== undefined) return file;
  }
  return segment.redirects.find((r) => r.operator === '<' && isSecretFile(r.target))?.target;
}

/**
 * Senders that hand what they read to the peer as data: a raw socket, an upload. Not ssh, whose input goes to a
 * program on the user's own host (`echo "$SUDO_PASSWORD" | ssh pi@robot "sudo -S …"`).
 */
const DATA_SENDERS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'http', 'https', 'xh']);

/** `echo "$STRIPE_KEY"`: the value of a credential variable, printed (into a sender). */
function echoedCredential(segment: ShellSegment): string | undefined {
  const cmd = commandName(segment);
  if (cmd !== 'echo' && cmd !== 'printf') return undefined;
  for (const arg of segment.argv.slice(1)) {
    const variable = credentialIn(arg);
    if (variable !== undefined) return variable;
  }
  return undefined;
}

/** A secret file (or the environment) that a command line sends over the network, directly or through a pipe. */
export function exfiltratedSecret(segments: readonly ShellSegment[]): string | undefined {
  // Either way needs a sender on the line; most lines have none.
  if (!runsAny(segments, SENDERS)) return undefined;
  const names = commandNames(segments);
  /** The sender a segment's output is piped into, if any. */
  const senderPipedTo = (i: number): string | undefined => {
    for (let j = i + 1; j < segments.length && segments[j]!.pipedFrom; j++) {
      if (SENDERS.has(names[j]!)) return names[j];
      // `… | xargs curl -d @-`: xargs hands what it reads to the commands it runs, listed right after it.
      if (names[j] === 'xargs' || names[j] === 'parallel') {
        for (let k = j + 1; k < segments.length && segments[k]!.nested && segments[k]!.via?.startsWith(names[j]!); k++) if (SENDERS.has(names[k]!)) return names[k];
      }
    }
    return undefined;
  };
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (SENDERS.has(names[i]!)) {
      const file = uploadedSecret(segment);
      if (file !== undefined && !(HTTP_CLIENTS.has(names[i]!) && requestsItsOwnService(segment.argv.slice(1), file))) return file;
      continue;
    }
    // What a command reads leaves the machine only through a sender its output is piped to.
    const sender = senderPipedTo(i);
    if (sender === undefined) continue;
    const secret = readSecret(segment) ?? (DATA_SENDERS.has(sender) ? echoedCredential(segment) : undefined);
    if (secret !== undefined) return secret;
  }
  return undefined;
}

/**
 * Whether every sender on the line is an HTTP client whose requests all go to this machine: it names a
 * loopback URL and no other word of it names a host (an output file such as `out.json` counts as one, to be
 * safe). A secret sent to a server the session runs on localhost stays on the machine.
 */
function sendsOnlyToThisMachine(segments: readonly ShellSegment[]): boolean {
  const names = commandNames(segments);
  let senders = 0;
  for (let i = 0; i < segments.length; i++) {
    const name = names[i]!;
    if (!SENDERS.has(name)) continue;
    if (!HTTP_CLIENTS.has(name) && name !== 'wget') return false;
    if (!requestsOnlyThisMachine(segments[i]!.argv.slice(1))) return false;
    senders++;
  }
  return senders > 0;
}

/** A request with a literal secret that leaves the machine (a request to localhost keeps it here). */
function sendsLiteralSecret(action: ParsedAction): boolean {
  if (!action.intents.includes('network_request') || !secretsOf(action).kinds.length) return false;
  return action.urls.length === 0 || action.urls.some(isExternalUrl);
}

export const secretExfiltrationRule = builtInRule({
  name: 'secret_exfiltration',
  description: 'Sending a secret over the network (a literal credential in a request, or a secret file or the environment piped to curl, wget, nc …) is never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    const file = action.segments.length ? exfiltratedSecret(action.segments) : undefined;
    if (file !== undefined && !sendsOnlyToThisMachine(action.segments)) {
      return {
        verdict: 'block',
        score: 1,
        factors: ['secrets', 'network_request', 'exfiltration'],
        reason: `This sends ${file === 'the environment' ? 'the environment variables, which hold credentials,' : `${file}, which holds credentials,`} over the network. Secrets must never leave the machine through an agent's command.`,
        alternative: 'If a service needs a credential, let the tool that talks to it read it from its usual place; never upload key or .env files.',
      };
    }
    if (!sendsLiteralSecret(action)) return null;
    const { kinds, fields } = secretsOf(action);
    return {
      verdict: 'block',
      score: 0.95,
      factors: ['secrets', 'network_request', 'exfiltration'],
      reason: `This request carries a secret in clear text (${kinds.join(', ')} in ${fields.join(', ')}). Secrets written into requests end up in logs and transcripts and may reach the wrong host.`,
      alternative: 'Reference the secret from an environment variable the user has set (e.g. "Authorization: Bearer $API_TOKEN") instead of writing its value.',
    };
  },
});

export const secretsInArgumentsRule = builtInRule({
  name: 'secrets_in_arguments',
  description: 'A secret written in clear text in a command or tool input (not sent over the network).',
  reads: 'action',
  check({ action }) {
    // A message to the user or the agent's own notes (a skill's arguments, a task) is no command that stores or sends anything.
    if (action.intent === 'message') return null;
    const { kinds, fields, inFileContent } = secretsOf(action);
    if (!kinds.length || sendsLiteralSecret(action)) return null;
    // Writing credentials into a .env file is what it is for; secret_file_write reports the write.
    if (action.command === undefined && action.writtenPaths.some(isSecretFile)) return null;
    const shown = action.command !== undefined ? `: ${redactText(action.command.length > 300 ? `${action.command.slice(0, 300)}…` : action.command).value}` : '';
    const where = action.command !== undefined ? 'The command' : inFileContent ? `The file content (${fields.join(', ')})` : `The input (${fields.join(', ')})`;
    return {
      verdict: 'warn',
      score: 0.7,
      factors: ['secrets'],
      reason:
        `${where} contains a secret in clear text (${kinds.join(', ')})${shown}. Secrets written into commands and files end up in shell history, logs, transcripts and commits. ` +
        (inFileContent ? 'Read it at run time from an environment variable (e.g. process.env.API_KEY) instead of hardcoding it.' : 'Put it in an environment variable and reference it (e.g. $API_KEY) instead of writing its value.'),
    };
  },
});

export const secretFileWriteRule = builtInRule({
  name: 'secret_file_write',
  description: 'Creating, changing or deleting a file that holds credentials (.env, SSH keys, ~/.aws/credentials …).',
  reads: 'action',
  check({ action }) {
    const hit = action.writtenPaths.find(isSecretFile);
    if (hit === undefined) return null;
    return {
      verdict: 'warn',
      score: 0.7,
      factors: ['secrets', 'file_modification'],
      reason: `${hit} holds credentials; changing it changes how things authenticate. Make sure the task calls for it, and never commit real secret values.`,
    };
  },
});
