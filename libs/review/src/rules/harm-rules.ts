import type { VerdictKind } from '@warden/contracts';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { commandName, copierOperands } from '../parsing/command-facts.js';
import { compileGlob, isHomeRoot, resolvePath, credentialStoreExamples, isCredentialStorePath, mayNameCredentialStore } from '@warden/actions';
import type { ShellSegment } from '../parsing/shell-command.js';
import { optionValues } from '../parsing/segment-paths.js';
import { segmentsRunning, type CommandNames } from '../parsing/segment-index.js';
import { windowsCommands, windowsWords } from '../parsing/windows-commands.js';
import { DerivedValue } from '../derived-value.js';
import { builtInRule } from './built-in-rule.js';
import type { ReviewRule } from './review-rule.js';
import { CODE_RUNNERS, downloadedCodeRun, runTimeWipe, stagedSecretUpload } from './line-flows.js';
import { requestsOnlyThisMachine } from './network-destination.js';
import { deceptiveText } from './deceptive-text.js';
import { CREDENTIAL_ARG, harmHits, inlineCodeText, type HarmHit, type HarmKind } from './harm-catalogue.js';

/** The copiers: what they send is their operands, not their options' values. */
const COPIERS = /^(?:scp|sftp|rsync)$/;

/** Each kind of harm: its rule, its default verdict, and what is at stake, for the reason (README, "Kinds of harm"). */
interface KindSpec {
  rule: string;
  verdict: VerdictKind;
  description: string;
  stake: string;
  alternative: string;
  factors: string[];
  /** Findings of the kind that are not a catalogue entry (the action as a whole). */
  extra?: (action: ParsedAction) => { what: string; shown: string; verdict?: VerdictKind } | null;
}

/** The cloud instance metadata service: its answers include the machine's cloud credentials. */
const METADATA_ENDPOINT = /169\.254\.169\.254|169\.254\.170\.2|metadata\.google\.internal|metadata\.azure\.com|100\.100\.100\.200|fd00:ec2::254/i;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'fish', 'dash', 'ksh', 'csh', 'tcsh', 'su']);
const PRIVILEGED_CHANGES = new Set(['rm', 'rmdir', 'shred', 'dd', 'mv', 'truncate', 'chown', 'chmod', 'chgrp', 'kill', 'killall', 'pkill', 'tee', 'cp', 'ln', 'mkfs', 'find', 'sed', 'rsync']);

/** Programs that fetch from the network or a socket, and commands that decode hidden text. */
const FETCHERS = /^(?:curl|wget|http|https|xh|nc|ncat|netcat|socat|ssh|fetch|aria2c|invoke-webrequest|iwr|irm|invoke-restmethod|tftp|ftp)$/;
function isDecoder(segment: ShellSegment): boolean {
  const name = commandName(segment);
  const args = segment.argv.slice(1);
  if (name === 'base64' || name === 'base32' || name === 'basenc') return args.some((a) => /^-[a-zA-Z]*[dD]|^--decode$/.test(a));
  if (name === 'xxd') return args.some((a) => /^-[a-z]*r/.test(a));
  if (name === 'printf' || name === 'echo') return args.some((a) => /\\(?:x[0-9a-f]{2}|[0-7]{3}|u[0-9a-f]{4})/i.test(a));
  if (name === 'openssl') return args.some((a) => a === '-d') || args.includes('base64');
  return name === 'uudecode' || name === 'rev' || name === 'gunzip' || name === 'zcat' || name === 'bunzip2' || name === 'xz' || name === 'unxz';
}
/** Code that is a decoder's output (`$(printf … | base64 -d)`). */
const DECODING_SUBSTITUTION = /\$\([^)]*\b(?:base64\s+(?:-d|-D|--decode)|base32\s+-d|xxd\s+-r|openssl\s+(?:base64|enc)\b[^)]*\s-d)\b/;
/** A runner that reads its code from its input: no script operand (`bash`, `python3 -`, `pwsh -Command -`, `xargs sh -c`). */
function runsInput(segment: ShellSegment): boolean {
  const name = commandName(segment);
  if (name === 'xargs' || name === 'parallel') {
    // `xargs sh -c` runs its input; `xargs sh -c 'echo fixed'` runs a script of its own with the input as arguments.
    const at = segment.argv.findIndex((a, i) => i > 0 && CODE_RUNNERS.test(a));
    if (at < 0) return false;
    const rest = segment.argv.slice(at + 1);
    const c = rest.indexOf('-c');
    if (c < 0) return rest.every((a) => a.startsWith('-') || a.includes('{}'));
    const script = rest[c + 1];
    return script === undefined || script === '--' || script.includes('{}');
  }
  if (!CODE_RUNNERS.test(name)) return false;
  const operands = segment.argv.slice(1).filter((a) => !a.startsWith('-') && !/^(?:bypass|unrestricted|hidden)$/i.test(a));
  return operands.length === 0 || (operands.length === 1 && operands[0] === '-');
}
/** The simple commands of each pipeline: a segment that reads the previous one's output continues it. */
function pipelines(segments: readonly ShellSegment[]): ShellSegment[][] {
  return PIPELINES.of(segments);
}
const PIPELINES = new DerivedValue((segments: readonly ShellSegment[]): ShellSegment[][] => {
  const out: ShellSegment[][] = [];
  for (const segment of segments) {
    if (segment.pipedFrom && out.length) out[out.length - 1]!.push(segment);
    else out.push([segment]);
  }
  return out;
});
/** An uploader reading its input: `curl --data-binary @-`, `curl -T -`, `nc host port`, `socat - TCP:…`. */
function uploadsInput(segment: ShellSegment): boolean {
  const name = commandName(segment);
  // Most segments are none of these: no copy of their arguments.
  if (!UPLOADERS.test(name)) return false;
  const args = segment.argv.slice(1);
  // HTTPie (http, https, xh) sends what is piped into it as the request's body unless told to ignore it.
  if ((name === 'http' || name === 'https' || name === 'xh') && segment.pipedFrom && !args.some((a) => a === '--ignore-stdin' || a === '-I')) return true;
  if (/^(?:curl|http|https|xh)$/.test(name)) return args.some((a) => /@-$|^-$/.test(a)) || args.some((a, i) => /^(?:-T|--upload-file)$/.test(a) && args[i + 1] === '-');
  if (name === 'wget') return args.some((a) => /--post-file=(?:-|\/dev\/stdin)/.test(a));
  if (/^(?:nc|ncat|netcat)$/.test(name)) return !args.some((a) => /^-[a-z]*l/.test(a)) && args.filter((a) => !a.startsWith('-')).length >= 2;
  if (name === 'socat') return args.some((a) => /^(?:tcp|tcp4|tcp6|udp|openssl|ssl):/i.test(a));
  return false;
}
const UPLOADERS = /^(?:curl|http|https|xh|wget|nc|ncat|netcat|socat)$/;
/** Reads files from this machine onto its output. */
const FILE_SOURCES = /^(?:tar|bsdtar|cat|zip|gzip|bzip2|xz|zstd|base64|7z|cpio|pax|openssl|xxd|od|find)$/;
/** A file sent over a raw socket: `socat OPEN:key TCP:host:port`. */
function uploadsFile(segment: ShellSegment): string | undefined {
  if (commandName(segment) !== 'socat') return undefined;
  const args = segment.argv.slice(1);
  if (args.some((a) => /(?:^|!!)(?:tcp|tcp4|tcp6|udp|openssl|ssl):/i.test(a)) && args.some((a) => /^(?:open|pipe|gopen|file):|^\.?\//i.test(a.replace(/^['"]/, '')))) return 'socat';
  return undefined;
}
/** A credential store by its path, or a glob that can name one. */
function isCredentialStore(path: string): boolean {
  if (isCredentialStorePath(path)) return true;
  if (!/[*?[{]/.test(path)) return false;
  // A glob as the shell expands it (`*` and `?` within one name, `[…]` classes, `{a,b}` alternatives), tried on one
  // real path of every store under the home it names (`/home/me`), or `~` where the session's home is not known.
  const { matches } = compileGlob(path, { dot: true, nocase: true });
  const home = /^(?:~|\/home\/[^/]+|\/users\/[^/]+|\/root)(?=\/)/i.exec(path)?.[0];
  return credentialStoreExamples(home ?? '~').some(matches);
}
/**
 * Loading a project's `.env` into the program's environment (`require('dotenv').config({ path: '.env.local' })`,
 * `load_dotenv('.env')`): the values are used by the code that follows, not read out. Its arguments may hold
 * calls of their own (`config({ path: require('path').join(__dirname, '.env') })`): one level of parentheses.
 */
const DOTENV_LOAD = /\bdotenv['"]?\)?\s*\.\s*config\s*\((?:[^()]|\([^()]*\))*\)|\bload_dotenv\s*\((?:[^()]|\([^()]*\))*\)|\bimport\s+['"]dotenv\/config['"]/g;
/** A value that is itself a command line with options (`ssh -i key -o BatchMode=yes`), not a path. */
const COMMAND_LINE_VALUE = /^\S+\s(?:.*\s)?-{1,2}[A-Za-z]/;
/** Text a credential store's path may hold (with the table's own names): arguments without it are not resolved. */
const CREDENTIAL_HINT = /\.ssh|\.aws|\.config|\.docker|\.kube|keychain|password-store|\.azure|\.gnupg|credentials|netrc|pgpass|shadow|id_/i;
// A word that is no path (no separator, dot, tilde or variable) is looked up only by the short hint.
const mayNameStore = (text: string) => CREDENTIAL_HINT.test(text) || (/[./\\~$]/.test(text) && mayNameCredentialStore(text));
/** Programs that name a credential file without showing it. */
const NOT_A_READ = /^(?:ls|test|\[|\[\[|stat|chmod|chown|chgrp|file|ssh-add|ssh|scp|sftp|mkdir|touch|rm|echo|printf|wc|ssh-keygen|git|cd|export|unset|install|realpath|dirname|basename|readlink|mv|cp|ln|tee|gpg|gpg2|aws|gcloud|az|kubectl|docker|helm|op)$/;
/** A loop that never ends by its condition: `while true`, `while :`, `until false`, `while [ 1 ]`, `for ((;;))`. */
const ENDLESS_LOOP = /\b(?:while\s+(?:true|:|\/\S*\/true|\[\[?\s*(?:1|true)\s*\]\]?|\(\(\s*1\s*\)\))|until\s+(?:false|\/\S*\/false)|for\s*\(\([^;)]*;\s*;[^)]*\)\))\s*;?\s*do\b/g;
/** A branch that never runs (`if false; then wait; fi`): what is in it bounds nothing. */
const DEAD_BRANCH = /\bif\s+(?:false|\/\S*\/false)\s*;\s*then\b(?:(?!\bfi\b)[^])*\bfi\b/g;
const LOOP_TOKENS = /\$?\(\(|\)\)|\$?\(|\)|&&|\|&|[<>]&|&>|&|\b(?:wait|disown|break|exit|return)\b/g;

/**
 * An endless loop whose body leaves background jobs nobody reaps: one no `wait` of the body waits for (it
 * has none, or the job is disowned or started in a subshell that does not wait for it) and no `break`,
 * `exit` or `return` ends the loop. Each turn adds jobs: the machine runs out of processes. `work & wait`
 * (or a `wait` before the job: one at most is alive) is a bounded loop; `(work & wait)` reaps its own.
 */
function unboundedBackgroundLoop(code: string): boolean {
  for (const header of code.matchAll(ENDLESS_LOOP)) {
    const from = header.index + header[0].length;
    const end = /\bdone\b/.exec(code.slice(from));
    const body = code.slice(from, end ? from + end.index : undefined).replace(DEAD_BRANCH, ' ');
    // Per subshell: jobs started in it and whether a wait followed; top level is frames[0].
    const frames: { jobs: number; waited: boolean; arithmetic?: boolean }[] = [{ jobs: 0, waited: false }];
    let unreaped = 0;
    let ended = false;
    for (const [token] of body.matchAll(LOOP_TOKENS)) {
      const frame = frames[frames.length - 1]!;
      if (token.endsWith('((')) frames.push({ jobs: 0, waited: false, arithmetic: true });
      else if (token.endsWith('(')) frames.push({ jobs: 0, waited: false });
      else if (token === '))' || token === ')') {
        // A `)` that closes nothing here (a `case` pattern's) leaves the body's own jobs alone.
        if (frames.length === 1) continue;
        frames.pop();
        if (!frame.arithmetic && frame.jobs > 0 && !frame.waited) unreaped++;
      } else if (token === '&') frame.jobs++;
      else if (token === 'wait') frame.waited = frame.waited || frame.jobs > 0 || frame === frames[0];
      else if (token === 'disown') unreaped += frame.jobs;
      else if ((token === 'break' || token === 'exit' || token === 'return') && frames.length === 1) ended = true;
    }
    const top = frames[0]!;
    if (!ended && (unreaped > 0 || (top.jobs > 0 && !top.waited))) return true;
  }
  return false;
}

/** A function that calls itself (or through another) in the background: a fork bomb by another name. */
function recursiveBackgroundFunction(line: string): boolean {
  const defs = [...line.matchAll(/(?:function\s+)?([\w:.-]+)\s*\(\)\s*\{([^}]*)\}/g)].map((m) => ({ name: m[1]!, body: m[2]! }));
  if (!defs.length) return false;
  const calls = new Map(defs.map((d) => [d.name, defs.filter((o) => new RegExp(`(?:^|[\\s;&|(])${o.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(d.body)).map((o) => o.name)]));
  const background = new Set(defs.filter((d) => /[^&]&(?!&)|&\s*$/.test(d.body)).map((d) => d.name));
  // A cycle through the call graph that passes a function which backgrounds something.
  for (const start of calls.keys()) {
    const seen = new Set<string>();
    const stack = [...(calls.get(start) ?? [])];
    let viaBackground = background.has(start);
    while (stack.length) {
      const next = stack.pop()!;
      if (background.has(next)) viaBackground = true;
      if (next === start && viaBackground) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(calls.get(next) ?? []));
    }
  }
  return false;
}

/** Deletion calls in code, and system paths they may be given. */
const SYSTEM_DELETION_IN_CODE = /\b(?:unlink|rmtree|rmSync|rmdirSync|remove|removedirs|rm_rf|rm_r|Remove-Item|delete)\s*\(|\bunlink\s+(?:glob|<)|Remove-Item\b/;
const SYSTEM_PATH_IN_CODE = /['"(\s](?:\/(?:etc|usr|bin|sbin|boot|lib|lib64|var|System|Library)(?:\/[^'"\s)]*)?|[A-Za-z]:\\{1,2}Windows(?:\\{1,2}[^'"\s)]*)?)['")\s]/;

function metadataRequest(action: ParsedAction): string | undefined {
  const text = action.command ?? Object.values(action.input).filter((v) => typeof v === 'string').join(' ');
  return action.urls.find((u) => METADATA_ENDPOINT.test(u)) ?? (METADATA_ENDPOINT.test(text) ? text.match(METADATA_ENDPOINT)![0] : undefined);
}

/** The whole environment as a value in code (`dict(os.environ)`, `JSON.stringify(process.env)`, `ENV.to_h`), not one variable of it. */
const WHOLE_ENVIRONMENT_IN_CODE = /\b(?:os\.environ|process\.env|Deno\.env\.toObject\(\)|ENV\.to_h|%ENV|getenv\(\))(?![\w.[]|\s*\[)/;
/** Code that sends a request to another host. */
const SENDS_IN_CODE = /\b(?:requests\.(?:post|put|get)|httpx\.(?:post|put|get)|urllib\.request|urlopen|http\.client|fetch\s*\(|axios|https?\.request|Net::HTTP|socket\.|curl_exec|Invoke-(?:WebRequest|RestMethod))/g;

/** The whole environment given to a request in the same statement (`requests.post(url, json=dict(os.environ))`), not one run beside it with `env=os.environ`. */
function sendsWholeEnvironment(code: string): boolean {
  for (const send of code.matchAll(SENDS_IN_CODE)) {
    const statement = /^[^;\n]*/.exec(code.slice(send.index, send.index + 300))![0];
    if (WHOLE_ENVIRONMENT_IN_CODE.test(statement)) return true;
  }
  return false;
}

/** Every address the code names is this machine's (`requests.post('http://localhost:8000/debug', json=dict(os.environ))`). */
function onlyThisMachineInCode(code: string): boolean {
  const hosts = [...code.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/([^/\s'"`:]+)/gi)].map((m) => m[1]!.toLowerCase());
  return hosts.length > 0 && hosts.every((h) => h === 'localhost' || h.startsWith('127.') || h === '[::1]' || h === '0.0.0.0');
}

/** The shell's history sent nowhere or sized to nothing, as a command of the line (`export HISTFILE=/dev/null`, `HISTSIZE=0`). */
const HISTORY_OFF = /(?:^|[;&|\n]\s*)(?:(?:export|declare\s+-x|typeset\s+-x)\s+)?(?:HISTFILE=["']?\/dev\/null|HIST(?:FILE)?SIZE=["']?0)(?=["']?(?:\s|;|&|\||$))/;

const KINDS: Record<HarmKind, KindSpec> = {
  data_destruction: {
    rule: 'system_data_destruction',
    verdict: 'require_approval',
    description: "Erasing disks, volumes, partitions, backups, restore points, user accounts or the registry, on Linux, macOS and Windows (diskutil, diskpart, format, vssadmin, dscl, Remove-LocalUser, reg delete, Remove-Item -Recurse of the system or a home).",
    stake: 'what it destroys cannot be brought back by the project or by git',
    alternative: 'Delete only what the task names, inside the project; leave disks, backups, accounts and the registry to the user.',
    factors: ['irreversible', 'system_modification', 'file_deletion'],
    extra(action) {
      for (const segment of action.segments) {
        const code = inlineCodeText(segment);
        if (code && SYSTEM_DELETION_IN_CODE.test(code) && SYSTEM_PATH_IN_CODE.test(code)) return { what: 'deletes system files in code', shown: `${commandName(segment)} code`, verdict: 'block' };
      }
      return null;
    },
  },
  safety_control: {
    rule: 'safety_control_disabled',
    verdict: 'require_approval',
    description: 'Switching off a safety control of the machine: firewalls (iptables, ufw, pf, netsh advfirewall), SIP and Gatekeeper, SELinux and AppArmor, Microsoft Defender and its exclusions, audit and event logs, boot protections, git hooks and commit signing.',
    stake: 'the machine or the repository loses a protection the user set up',
    alternative: 'Work within the protection; if the task truly needs it off, say why and let the user switch it off.',
    factors: ['safety_control', 'system_modification'],
    extra(action) {
      // The shell reads an assignment (`export HISTFILE=/dev/null`) as a variable, not a command: it is found in the line.
      const history = HISTORY_OFF.exec(action.command ?? '');
      return history ? { what: "switches the shell's history off", shown: history[0].replace(/^[\s;&|]+/, ''), verdict: 'require_approval' } : null;
    },
  },
  secret_leak: {
    rule: 'secret_leak',
    verdict: 'block',
    description: "Secrets leaving by any channel: credential files archived, copied to cloud storage, sent with rsync/scp/nc, DNS lookups that carry data, interpreters printing keys, searches for key material across the machine, the cloud metadata endpoint's credentials.",
    stake: 'credentials leave their place and can be used by whoever gets the copy',
    alternative: 'Leave credential files where they are; check that a credential is configured with the tool’s own status command.',
    factors: ['secrets', 'exfiltration'],
    extra(action) {
      const endpoint = metadataRequest(action);
      if (endpoint) return { what: "asks the cloud metadata service, whose answers include the machine's cloud credentials", shown: endpoint, verdict: 'block' };
      for (const pipeline of pipelines(action.segments)) {
        const upload = pipeline.findIndex(uploadsInput);
        // A request body sent to a service on this machine (`cat body.json | http POST localhost:3000/api`) leaves nothing.
        if (upload > 0 && pipeline.slice(0, upload).some((s) => FILE_SOURCES.test(commandName(s))) && !requestsOnlyThisMachine(pipeline[upload]!.argv.slice(1))) {
          return { what: 'sends files of this machine to another host', shown: pipeline.map((s) => s.argv.slice(0, 3).join(' ')).join(' | ').slice(0, 80), verdict: 'require_approval' };
        }
      }
      const staged = stagedSecretUpload(action.segments);
      if (staged) return { what: 'uploads a credential file, or a copy, archive or encoding of one made in the same command', shown: staged, verdict: 'block' };
      for (const segment of action.segments) {
        const name = commandName(segment);
        const upload = uploadsFile(segment);
        if (upload) return { what: 'sends a file of this machine to another host over a raw socket', shown: upload, verdict: 'require_approval' };
        const code = inlineCodeText(segment);
        if (code && sendsWholeEnvironment(code) && !onlyThisMachineInCode(code)) return { what: 'sends the whole environment, with every credential in it, to another host in code', shown: `${name} code`, verdict: 'block' };
        if (code && CREDENTIAL_ARG.test(code.replace(DOTENV_LOAD, ' '))) return { what: 'reads private keys or credentials in code', shown: `${name} code`, verdict: 'require_approval' };
        if (NOT_A_READ.test(name)) continue;
        // A copier's identity file or ssh command (`scp -i key`, `rsync -e 'ssh -i key'`) is used, not read out.
        const args = COPIERS.test(name) ? copierOperands(segment) : segment.argv.slice(1);
        if (args.some(mayNameStore) || segment.redirects.some((r) => mayNameStore(r.target))) {
          const cwd = segment.cwd && segment.cwd !== '?' ? resolvePath(segment.cwd, action.cwd) : action.cwd;
          // A command line given as a value (`GIT_SSH_COMMAND='ssh -i ~/.ssh/id_ed25519 -o …'`) uses the key it names, as a copier's does.
          const store = [...args, ...segment.redirects.filter((r) => r.operator === '<').map((r) => r.target)].find((a) => !a.startsWith('-') && !COMMAND_LINE_VALUE.test(a) && isCredentialStore(resolvePath(a, cwd)));
          if (store) return { what: 'reads where credentials are kept', shown: `${name} ${store}`, verdict: 'require_approval' };
        }
      }
      return null;
    },
  },
  privilege_escalation: {
    rule: 'privilege_escalation',
    verdict: 'require_approval',
    description: 'Raising privileges: root shells (su, sudo -i/-s, sudo bash, pkexec, doas), runas and Start-Process -Verb RunAs, administrator group membership, setuid bits and capabilities, and changes made with sudo (sudo rm, sudo chown …).',
    stake: 'with administrator rights one mistake reaches the whole machine',
    alternative: 'Run it without administrator rights, or tell the user what needs them and why.',
    factors: ['privileged', 'privilege_escalation'],
    extra(action) {
      for (const segment of action.segments) {
        if (!segment.privileged) continue;
        const name = commandName(segment);
        // `sudo -i`, `sudo -s`, `doas -s`: the wrapper with no command of its own opens a root shell.
        if (!segment.argv.length && segment.wrappers.length) return { what: 'opens a root shell', shown: segment.wrappers.join(' ') };
        if (SHELLS.has(name) && !segment.argv.slice(1).some((a) => a === '-c' || (!a.startsWith('-') && name !== 'su'))) return { what: 'opens a root shell', shown: segment.wrappers.concat(segment.argv).join(' ') };
        if (PRIVILEGED_CHANGES.has(name) && !(name === 'sed' && !segment.argv.some((a) => /^-[a-zA-Z]*i/.test(a)))) return { what: 'changes files or processes with administrator rights', shown: segment.wrappers.concat(segment.argv).join(' ').slice(0, 80) };
      }
      return null;
    },
  },
  network_exposure: {
    rule: 'network_exposure',
    verdict: 'require_approval',
    description: 'Exposing a service or a shell to the network: tunnels (ngrok, cloudflared, tailscale funnel, ssh -R), shells on a socket (socat … EXEC), remote login, Remote Desktop and PowerShell remoting switched on, firewall rules that let traffic in.',
    stake: 'anyone who reaches the port reaches this machine',
    alternative: 'Keep the service on localhost; if it must be reachable, let the user open it.',
    factors: ['network_exposure', 'network_request'],
    extra(action) {
      const served = servedWholeTree(action);
      return served ? { what: `serves ${served} (its keys and credentials with it) to every machine that reaches it`, shown: 'http.server' } : null;
    },
  },
  shared_infrastructure: {
    rule: 'shared_infrastructure_takedown',
    verdict: 'require_approval',
    description: "Taking down what others use: pruning every image and volume, removing every container, dropping database clusters, stopping shared services (databases, docker, web servers, sshd), rewriting the machine's network, DNS, routes, firmware and boot configuration.",
    stake: 'it stops or destroys infrastructure other people and programs rely on',
    alternative: 'Act on the project’s own containers, databases and services by name; leave the machine’s to the user.',
    factors: ['shared_infrastructure', 'system_modification'],
    extra(action) {
      const line = action.command;
      // Quoted text is data (`echo 'while true; do x & done'`).
      if (!line || !line.includes('&') || !/\b(?:while|until|for)\b|\(\)\s*\{/.test(line)) return null;
      const code = line.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '""');
      if (unboundedBackgroundLoop(code) || (!/\b(?:wait|break|exit|return)\b/.test(code) && recursiveBackgroundFunction(code))) return { what: 'starts background jobs without end and exhausts the machine', shown: code.slice(0, 60), verdict: 'block' };
      return null;
    },
  },
  hidden_code: {
    rule: 'hidden_code_execution',
    verdict: 'block',
    description: 'Code nobody has read, run, or text that reads differently from what runs (bidirectional overrides, invisible characters inside a word, terminal control bytes, a host name mixing Latin with look-alike letters): a download or a socket piped into any shell or interpreter (also through xargs), a downloaded file run after it was renamed, decoded or escaped text run as code (base64 -d | sh, printf \\x.. | bash, python b64decode + system), encoded PowerShell, Invoke-Expression of a download, rg --pre.',
    stake: 'what runs is not what anyone can read in the command',
    alternative: 'Write the code out where it can be read (a file in the project), read it, then run it if it is what you expect.',
    factors: ['code_execution', 'unreviewed_code'],
    extra(action) {
      for (const pipeline of pipelines(action.segments)) {
        const runner = pipeline.findIndex((s, i) => i > 0 && runsInput(s));
        if (runner > 0 && pipeline.slice(0, runner).some((s) => (FETCHERS.test(commandName(s)) && !s.argv.some((a) => a === '--help' || a === '-h' || a === '--version')) || isDecoder(s))) {
          return { what: 'runs code it downloads or decodes', shown: pipeline.map((s) => s.argv.slice(0, 2).join(' ')).join(' | ').slice(0, 80) };
        }
      }
      const run = downloadedCodeRun(action.segments);
      if (run) return { what: 'runs a file it has just downloaded', shown: run.argv.slice(0, 3).join(' ') };
      const wipe = action.command === undefined ? undefined : runTimeWipe(action.segments, action.command);
      if (wipe) return { what: 'builds at run time a command that deletes the whole machine or a home', shown: wipe.argv.slice(0, 3).join(' ').slice(0, 80) };
      for (const segment of action.segments) {
        const name = commandName(segment);
        // Code only known when it runs that holds a decoder, or (`CODE=$(… | base64 -d); bash -c "$CODE"`) the decoder's substitution the shell's reading put there.
        if (CODE_RUNNERS.test(name) && segment.argv.some((a, i) => i > 0 && ((segment.dynamic[i] && /base64|xxd|\\x[0-9a-f]{2}|openssl/.test(a)) || DECODING_SUBSTITUTION.test(a)))) {
          return { what: 'runs decoded text as code', shown: segment.argv.slice(0, 3).join(' ').slice(0, 80) };
        }
        const code = inlineCodeText(segment);
        if (code && /b64decode|base64\.|frombase64string|decode\(\s*['"]base64|atob\(|Buffer\.from\([^)]*base64/i.test(code) && /\b(?:os\.system|os\.popen|exec|eval|execSync|Invoke-Expression|iex|system)\s*\(|shell\s*=\s*True|\bInvoke-Expression\b|\biex\b/.test(code)) return { what: 'runs decoded text as code', shown: `${name} code` };
      }
      const deceptive = deceptiveText(action.command, action.urls);
      if (deceptive) return { ...deceptive, verdict: 'require_approval' };
      return null;
    },
  },
};

const STRENGTH: Record<string, number> = { allow: 0, warn: 1, modify: 2, require_approval: 3, block: 4 };

function kindRule(kind: HarmKind): ReviewRule {
  const spec = KINDS[kind];
  return builtInRule({
    name: spec.rule,
    description: spec.description,
    reads: 'action',
    check({ action }) {
      let best: { what: string; shown: string; verdict: VerdictKind } | null = null;
      for (const hit of harmHits(action) as HarmHit[]) {
        if (hit.entry.kind !== kind) continue;
        const verdict = hit.entry.verdict ?? spec.verdict;
        if (!best || STRENGTH[verdict]! > STRENGTH[best.verdict]!) best = { what: hit.entry.what, shown: hit.shown, verdict };
      }
      const extra = spec.extra?.(action);
      if (extra) {
        const verdict = extra.verdict ?? spec.verdict;
        if (!best || STRENGTH[verdict]! > STRENGTH[best.verdict]!) best = { what: extra.what, shown: extra.shown, verdict };
      }
      if (!best) return null;
      return {
        verdict: best.verdict,
        score: best.verdict === 'block' ? 0.95 : best.verdict === 'require_approval' ? 0.85 : 0.6,
        factors: spec.factors,
        reason: `${best.shown} ${best.what}: ${spec.stake}. ${best.verdict === 'block' ? 'This is not allowed.' : best.verdict === 'warn' ? 'Make sure the task calls for it.' : 'A person must approve it.'}`,
        alternative: spec.alternative,
      };
    },
  });
}

/** One rule per kind of harm, in the catalogue's order. */
export const HARM_RULES: readonly ReviewRule[] = (Object.keys(KINDS) as HarmKind[]).map(kindRule);

/** Python's and PHP's interpreters: each serves a directory over HTTP with one option (`-m http.server`, `-S`). */
const PYTHON = /^(?:python[\d.]*|py)$/;
const PHP = /^php[\d.]*$/;
const FILE_SERVERS: CommandNames = { has: (name) => PYTHON.test(name) || PHP.test(name) };

/**
 * A static file server (`python -m http.server`, `php -S`) serving a whole home directory or the file system's
 * root on every interface (python's default; `php -S 0.0.0.0:8000`): the directory it serves, or undefined.
 * Serving a project's directory, or on localhost, is how a page is looked at. A PowerShell or cmd line is read
 * as they split it (bash's reading drops the backslashes of `C:\Users\me`).
 */
function servedWholeTree(action: ParsedAction): string | undefined {
  // Only a server's segments are read further: a script of many commands resolves no directory of the others.
  const commands = [
    ...segmentsRunning(action.segments, FILE_SERVERS)
      .filter((s) => s.remoteHost === undefined)
      .map((s) => ({ name: commandName(s), argv: s.argv, cwd: s.cwd !== undefined && s.cwd !== '?' ? resolvePath(s.cwd, action.cwd) : action.cwd })),
    ...windowsCommands(action)
      .filter((c) => FILE_SERVERS.has(c.program))
      .map((c) => ({ name: c.program, argv: [c.program, ...windowsWords(c.args)], cwd: action.cwd })),
  ];
  for (const { name, argv, cwd } of commands) {
    let directory: string | undefined;
    let everywhere: boolean;
    if (PYTHON.test(name) && argv.some((w, i) => argv[i - 1] === '-m' && /^(?:http\.server|SimpleHTTPServer)$/.test(w))) {
      directory = optionValues(argv, { short: 'd', long: '--directory' }).at(-1);
      const bind = optionValues(argv, { short: 'b', long: '--bind' }).at(-1);
      everywhere = bind === undefined || /^(?:0\.0\.0\.0|::|\[::\]|\*)?$/.test(bind);
    } else if (PHP.test(name) && argv.includes('-S')) {
      directory = optionValues(argv, { short: 't', long: '--docroot' }).at(-1);
      everywhere = /^(?:0\.0\.0\.0|\[::\]|\*)?:\d+$/.test(argv[argv.indexOf('-S') + 1] ?? '');
    } else continue;
    if (!everywhere || (cwd === undefined && directory === undefined)) continue;
    const served = resolvePath(directory ?? '.', cwd);
    if (isHomeRoot(served) || served === '/' || /^[a-z]:\/?$/i.test(served)) return served === '/' ? 'the whole file system' : `the whole home directory ${served}`;
  }
  return undefined;
}
