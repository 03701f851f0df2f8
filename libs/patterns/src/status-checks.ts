import { simpleCommands } from './shell-words.js';

/**
 * Status checks: commands that look at a job running elsewhere (a CI run, a pod, a container, a service,
 * a background process, a log being written, a health endpoint) and change nothing. Checks of one job
 * in a row are one polling run however each is written (`gh run view 42 --json status`, then
 * `gh run view 42 --log | tail`, then `sleep 30 && gh run view 42`): an agent that keeps looking
 * rarely repeats itself word for word.
 */

/** A command that only waits: `sleep 30`, `Start-Sleep -Seconds 30`, `timeout /t 30`. */
const WAIT = /^(?:sleep\s+[\d.]+[smh]?|start-sleep(?:\s+-(?:s|seconds|milliseconds))?\s+[\d.]+|timeout\s+(?:\/t\s+)?\d+(?:\s+\/nobreak)?)$/i;

/** Whether the whole command only waits (between two checks, it does not end a polling run). */
export function isWaitOnly(command: string): boolean {
  return WAIT.test(command.trim().replace(/\s*>\s*(?:\/dev\/null|nul)\s*$/i, ''));
}

/**
 * The job a command checks the status of (a key: equal keys, the same job), or undefined when it is no
 * status check. `words` are the command's words (`shellWords`).
 */
export function statusCheckOf(words: readonly string[]): string | undefined {
  let waited = false;
  let check: string | undefined;
  const rest: string[] = [];
  for (const simple of simpleCommands(words)) {
    const found = checkOfSimple(simple);
    if (found) check ??= found;
    else if (isWaitOnly(simple.join(' '))) waited = true;
    else if (!FILTERS.test(simple[0] ?? '') || (/^(tail|cat|get-content)$/i.test(simple[0]!) && operands(simple.slice(1)).length)) rest.push(...simple, ';');
  }
  // Anything else on the line (`npm run build && docker ps`) is work, not a look.
  if (check) return rest.length ? undefined : check;
  // `sleep 60 && echo "Poll time"`, `sleep 30; ./status.sh`: waiting, then looking again.
  return waited ? `after a wait: ${rest.join(' ')}` : undefined;
}

/** What only shows or sifts what a check printed. */
const FILTERS = /^(echo|printf|date|true|clear|cls|write-host|write-output|grep|egrep|rg|jq|yq|head|tail|wc|sort|uniq|cut|awk|tr|column|cat|less|more|findstr|select-string|select-object|where-object|format-table|format-list|out-string|convertfrom-json|measure-object)$/i;


const NUMBER = /^#?\d{2,}$/;

/** The operands of a command: its words that are no option (nor an option's value, for the options named). */
function operands(words: readonly string[], valued: ReadonlySet<string> = new Set()): string[] {
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('-')) {
      if (valued.has(word)) i++;
      continue;
    }
    found.push(word);
  }
  return found;
}

function optionValue(words: readonly string[], ...names: string[]): string {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    for (const name of names) {
      if (word === name) return words[i + 1] ?? '';
      if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
    }
  }
  return '';
}

const KUBECTL_VALUED = new Set(['-n', '--namespace', '-l', '--selector', '-o', '--output', '--context', '-c', '--container', '--tail', '--since', '--timeout', '--for']);

/** One simple command's status check, if it is one. */
function checkOfSimple(words: readonly string[]): string | undefined {
  const [program, ...args] = words;
  if (!program) return undefined;
  const name = program.replace(/^.*[\\/]/, '').replace(/\.exe$/i, '').toLowerCase();
  const [verb = '', object = ''] = args;
  switch (name) {
    case 'gh':
    case 'glab': {
      // A CI run, a pull request's checks, a workflow's runs: the number names the one watched.
      if ((verb === 'run' && ['view', 'watch', 'list'].includes(object)) || (verb === 'ci' && ['status', 'view', 'list', 'trace'].includes(object))) {
        return `${name} ${verb} ${args.find((w) => NUMBER.test(w)) ?? optionValue(args, '--branch', '-b', '--workflow', '-w')} ${optionValue(args, '--repo', '-R')}`;
      }
      if ((verb === 'pr' || verb === 'mr') && ['checks', 'status', 'view'].includes(object)) return `${name} ${verb} ${args.slice(2).find((w) => NUMBER.test(w)) ?? ''} ${optionValue(args, '--repo', '-R')}`;
      return undefined;
    }
    case 'kubectl':
    case 'oc': {
      const [v, ...rest] = operands(args, KUBECTL_VALUED);
      const namespace = optionValue(args, '-n', '--namespace');
      if (v === 'get' || v === 'describe' || v === 'logs' || v === 'top' || v === 'wait') return `kubectl ${namespace} ${rest.slice(0, v === 'logs' ? 1 : 2).join(' ')}`;
      if (v === 'rollout' && rest[0] === 'status') return `kubectl ${namespace} ${rest.slice(1, 2).join(' ')}`;
      return undefined;
    }
    case 'docker':
    case 'podman': {
      const compose = verb === 'compose';
      const [v, target = ''] = operands(compose ? args.slice(1) : args, new Set(['--tail', '-n', '--since', '--format', '-f', '--filter', '-p']));
      if (v === 'ps' || v === 'logs' || v === 'inspect' || v === 'stats' || v === 'top' || v === 'events') return `docker ${compose ? 'compose ' : ''}${v === 'ps' ? '' : target}`;
      return undefined;
    }
    case 'docker-compose': {
      const [v, target = ''] = operands(args, new Set(['--tail', '-f', '-p']));
      return v === 'ps' || v === 'logs' ? `docker compose ${v === 'ps' ? '' : target}` : undefined;
    }
    case 'systemctl':
      return verb === 'status' || verb === 'is-active' || verb === 'is-failed' ? `service ${operands(args.slice(1))[0] ?? ''}` : undefined;
    case 'journalctl':
      return `service ${optionValue(args, '-u', '--unit')}`;
    case 'ps':
    case 'pgrep':
    case 'tasklist':
    case 'get-process':
      return 'processes';
    case 'tail':
    case 'get-content': {
      // The end of a log file read again and again (`tail` of a pipe only sifts what came before it).
      const file = operands(args, new Set(['-n', '-c', '--lines', '-Tail', '-tail', '-Path', '-path']))[0] ?? optionValue(args, '-Path', '-path');
      return file && (name === 'tail' || args.some((w) => /^-(tail|wait)$/i.test(w))) ? `log ${file}` : undefined;
    }
    case 'curl':
    case 'wget':
    case 'invoke-webrequest':
    case 'invoke-restmethod': {
      // A health or status endpoint asked again: the address without its query is the job.
      const url = args.find((w) => /^(https?:\/\/|localhost[:/]|127\.0\.0\.1[:/])/i.test(w));
      return url && /\b(health|healthz|ready|readyz|live|livez|status|ping)\b/i.test(url) ? `endpoint ${url.replace(/[?#].*$/, '')}` : undefined;
    }
    default:
      return undefined;
  }
}
