import { DerivedValue } from '../derived-value.js';
import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { commandNames, positionsRunning, segmentsRunning } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import type { ActionRecord } from '../session/review-session.js';
import { addressOf, addressOfUrl, type EndpointAddress } from '@warden/project-knowledge';

/** Where network requests go, whether they only look (a probe), and whether a command started a service. */

export interface RequestTarget {
  url: string;
  address: EndpointAddress;
}

const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh']);
const SOCKET_CLIENTS = new Set(['nc', 'ncat', 'netcat', 'telnet']);
const CLIENTS = new Set([...HTTP_CLIENTS, ...SOCKET_CLIENTS]);
const NETWORK_COMMANDS = new Set([...HTTP_CLIENTS, ...SOCKET_CLIENTS, 'ssh', 'scp', 'sftp', 'rsync', 'git', 'ftp', 'aria2c', 'ping']);
const NUMBER = /^\d+$/;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const HTTPIE_METHOD = /^[A-Z]+$/;
/** An httpie request item that sends data: field=value, field:=json, field@file. */
const HTTPIE_DATA = /^[\w.-]+(=|:=|@)/;
const CURL_SENDS = /^(-d|--data.*|-F|--form.*|-T|--upload-file|--json)$/;
const NC_SCAN = /^-[a-zA-Z]*z/;
const WGET_SENDS = /^--(post-data|post-file|body-data|body-file)/;
const START_WORDS = new Set(['up', 'start', 'restart', 'run-server', 'launch-server', 'serve', 'dev', 'preview']);
const CONTAINER_COMMANDS = new Set(['docker', 'podman']);
/** Cheap test before parsing: only commands with one of these can start a service. */
const MAY_START = /\b(up|start|restart|run-server|launch-server|serve|dev|preview|run)\b|&/;

/**
 * A URL up to the path (`http://localhost:8080` of `http://localhost:8080/health?i=3`), as written: the
 * authority ends at the first `/` after `://` at the latest, so the address read from this is the URL's.
 */
function originText(url: string): string {
  const scheme = url.indexOf('://');
  const path = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  return path < 0 ? url : url.slice(0, path);
}

/** URLs named, and the `host:port` arguments of curl, wget, nc and telnet. */
export function targetsOf(urls: readonly string[], segments: readonly ShellSegment[]): RequestTarget[] {
  const targets: RequestTarget[] = [];
  const seen = new Set<string>();
  const add = (url: string, address: EndpointAddress | undefined) => {
    if (address && !seen.has(url)) {
      seen.add(url);
      targets.push({ url, address });
    }
  };
  // A script that polls a server names it again and again: its address is read once per origin.
  const byOrigin = new Map<string, EndpointAddress | undefined>();
  for (const url of urls) {
    const origin = originText(url);
    let address = byOrigin.get(origin);
    if (address === undefined && !byOrigin.has(origin)) byOrigin.set(origin, (address = addressOfUrl(origin)));
    add(url, address);
  }
  const names = commandNames(segments);
  for (const position of positionsRunning(segments, CLIENTS)) {
    const segment = segments[position]!;
    const cmd = names[position]!;
    const args = segment.argv.slice(1).filter((a) => !a.startsWith('-'));
    if (HTTP_CLIENTS.has(cmd)) {
      for (const arg of args) if (!arg.includes('://')) add(`http://${arg}`, addressOf(arg));
    } else {
      const at = args.findIndex((a, i) => !NUMBER.test(a) && NUMBER.test(args[i + 1] ?? ''));
      if (at >= 0) add(`tcp://${args[at]}:${args[at + 1]}`, addressOf(`${args[at]}:${args[at + 1]}`));
    }
  }
  return targets;
}

/** Where an action's requests go: read once per parsed action (the network validator and the session both ask). */
const actionTargets = new DerivedValue((action: ParsedAction): RequestTarget[] => targetsOf(action.urls, action.segments));

export function requestTargets(action: ParsedAction): readonly RequestTarget[] {
  return actionTargets.of(action);
}

/** Where a past action sent its requests. */
export function recordTargets(record: ActionRecord): RequestTarget[] {
  return record.shell === undefined ? targetsOf(record.urls, []) : [...record.shell.targets];
}

function curlOnlyReads(argv: readonly string[]): boolean {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (CURL_SENDS.test(arg)) return false;
    if (arg === '-X' || arg === '--request') {
      if (!READ_METHODS.has((argv[i + 1] ?? '').toUpperCase())) return false;
    } else if (arg.startsWith('-X') && arg.length > 2 && !READ_METHODS.has(arg.slice(2).toUpperCase())) return false;
    else if (arg.startsWith('--request=') && !READ_METHODS.has(arg.slice(10).toUpperCase())) return false;
  }
  return true;
}

/** A request that only looks: GET/HEAD without a body, a port scan (nc -z), telnet, ping. */
function segmentProbes(segment: ShellSegment): boolean {
  const cmd = commandName(segment);
  const argv = segment.argv;
  if (cmd === 'curl') return curlOnlyReads(argv);
  if (cmd === 'wget') return !argv.some((a) => WGET_SENDS.test(a) || (a.startsWith('--method=') && !READ_METHODS.has(a.slice(9).toUpperCase())));
  if (cmd === 'http' || cmd === 'https' || cmd === 'xh') {
    const args = argv.slice(1).filter((a) => !a.startsWith('-'));
    return !(HTTPIE_METHOD.test(args[0] ?? '') && !READ_METHODS.has(args[0]!)) && !args.some((a) => HTTPIE_DATA.test(a));
  }
  if (cmd === 'nc' || cmd === 'ncat' || cmd === 'netcat') return argv.some((a) => NC_SCAN.test(a));
  return cmd === 'telnet' || cmd === 'ping';
}

/** Every request of the action only looks; a fetch tool looks unless it names another method or a body. */
export function onlyProbes(action: ParsedAction): boolean {
  if (action.command === undefined) {
    const method = action.input['method'];
    const sends = action.input['body'] !== undefined || action.input['data'] !== undefined || action.input['json'] !== undefined;
    return !sends && (typeof method !== 'string' || READ_METHODS.has(method.toUpperCase()));
  }
  return segmentsRunning(action.segments, NETWORK_COMMANDS).every(segmentProbes);
}

/** Whether a past action only looked at the network (a fetch tool, or a shell probe). */
export function recordProbes(record: ActionRecord): boolean {
  if (!record.intents.includes('network_request')) return false;
  return record.shell === undefined || record.shell.probes;
}

/** Whether a past action started something that could listen (see `mayStartService`); a blocked one did not run. */
export function startsService(record: ActionRecord): boolean {
  return record.shell !== undefined && record.verdict !== 'block' && record.shell.startsService;
}

/** A shell command's network commands all only look, and it has some. */
export function commandProbes(action: ParsedAction): boolean {
  const network = segmentsRunning(action.segments, NETWORK_COMMANDS);
  return network.length > 0 && network.every(segmentProbes);
}

/** Started something that could listen: a background process, `docker compose up`, `systemctl start`, `npm run dev`. */
export function mayStartService(action: ParsedAction): boolean {
  return action.command !== undefined && MAY_START.test(action.command) && action.segments.some(mayListen);
}

function mayListen(segment: ShellSegment): boolean {
  if (segment.background) return true;
  const { argv } = segment;
  if (CONTAINER_COMMANDS.has(commandName(segment)) && argv[1] === 'run') return true;
  for (let i = 1; i < argv.length; i++) if (START_WORDS.has(argv[i]!)) return true;
  return false;
}
