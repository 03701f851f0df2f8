import { commandName, someArgument } from '../parsing/command-facts.js';
import { pathMatcher, type PathMatcher } from '@warden/actions';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import type { ActionRecord, ReviewSession } from '../session/review-session.js';
import { isConfigFile } from './config-files.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';

/**
 * Whether the agent looked before it leapt: after a failure, a diagnostic is an action that inspects the
 * configuration or the service instead of changing anything.
 */

interface KnowledgeHints {
  /** Files the knowledge names as configuration. */
  configFile: PathMatcher;
  /** Setting names (PLAYWRIGHT_SERVER_URL), lower case. */
  settings: string[];
}

const NO_HINTS: KnowledgeHints = { configFile: () => false, settings: [] };
const hintsByKnowledge = new WeakMap<ProjectKnowledge, KnowledgeHints>();
const GLOB_LIKE = /[/*.]/;
/** Globs from / or ~ stand as written; others match at any depth (the paths they meet are absolute). */
const ANCHORED = /^[/~]/;

function hintsOf(knowledge: ProjectKnowledge | undefined): KnowledgeHints {
  if (!knowledge) return NO_HINTS;
  let hints = hintsByKnowledge.get(knowledge);
  if (!hints) {
    const globs = knowledge.configPatterns.filter((p) => GLOB_LIKE.test(p.key)).map((p) => (ANCHORED.test(p.key) ? p.key : `**/${p.key}`));
    const settings = [
      ...knowledge.configPatterns.filter((p) => !GLOB_LIKE.test(p.key)).map((p) => p.key),
      ...knowledge.endpoints.flatMap((e) => (e.configKey ? [e.configKey] : [])),
    ].map((key) => key.toLowerCase());
    hints = { configFile: pathMatcher(globs), settings };
    hintsByKnowledge.set(knowledge, hints);
  }
  return hints;
}

const PROBES = new Set(['curl', 'wget', 'http', 'https', 'nc', 'ncat', 'netcat', 'telnet', 'ping', 'nslookup', 'dig', 'host']);
const SOCKET_LISTERS = new Set(['ss', 'netstat']);
const PROCESS_LISTERS = new Set(['ps', 'pgrep']);
const CONTAINER_INSPECTION = new Set(['ps', 'logs', 'inspect', 'top', 'port']);
const SERVICE_INSPECTION = new Set(['status', 'is-active', 'is-enabled']);
/** Commands that print a file: a config file among their arguments is a read of it. */
const FILE_PRINTERS = new Set(['cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'rg', 'ag', 'jq', 'yq', 'awk', 'bat', 'sed']);
const VARIABLE = /\$\{?[A-Za-z_]/;
/** `env` or `printenv` on its own, possibly piped into grep; `env FOO=1 cmd` runs cmd instead. */
const ENV_LISTING = /(?:^|[;&|(]\s*)(?:env|printenv)\s*(?:$|[;&|)])/m;

const namesVariable = (arg: string) => VARIABLE.test(arg);
const isOperand = (arg: string) => !arg.startsWith('-');
const isNetworkOption = (arg: string) => arg.startsWith('-i');
const editsInPlace = (arg: string) => arg.startsWith('-i');
const isContainerInspection = (arg: string) => CONTAINER_INSPECTION.has(arg);
const isServiceInspection = (arg: string) => SERVICE_INSPECTION.has(arg);
const namesConfigFile = (arg: string) => !arg.startsWith('-') && isConfigFile(arg);

/** Asked of every command of a line when the session records it: the arguments are read in place. */
function segmentInspects(segment: ShellSegment): boolean {
  const cmd = commandName(segment);
  const { argv } = segment;
  if (cmd === 'printenv') return true;
  if ((cmd === 'echo' || cmd === 'printf') && someArgument(argv, namesVariable)) return true;
  if (PROBES.has(cmd)) return someArgument(argv, isOperand);
  if (cmd === 'lsof') return someArgument(argv, isNetworkOption);
  if (SOCKET_LISTERS.has(cmd) || PROCESS_LISTERS.has(cmd)) return true;
  if (cmd === 'docker' || cmd === 'podman') return someArgument(argv, isContainerInspection) || (argv.includes('container', 1) && argv.includes('ls', 1));
  if (cmd === 'docker-compose') return someArgument(argv, isContainerInspection);
  if (cmd === 'systemctl' || cmd === 'service') return someArgument(argv, isServiceInspection);
  if (FILE_PRINTERS.has(cmd) && !(cmd === 'sed' && someArgument(argv, editsInPlace))) return someArgument(argv, namesConfigFile);
  return false;
}

/**
 * Whether a shell command checked configuration or connectivity: listed the environment or echoed a
 * variable, named a setting of the knowledge, probed an endpoint (curl, wget, nc, telnet, ping), listed
 * sockets or processes (lsof -i, ss, netstat, ps), inspected containers and services (docker ps,
 * systemctl status) or printed a config file. Read from the parsed command when the session records it.
 */
export function commandInspects(action: ParsedAction, knowledge?: ProjectKnowledge): boolean {
  const command = action.command ?? '';
  if (ENV_LISTING.test(command)) return true;
  const hints = hintsOf(knowledge);
  if (hints.settings.length) {
    const lower = command.toLowerCase();
    if (hints.settings.some((setting) => lower.includes(setting))) return true;
  }
  return action.segments.some(segmentInspects);
}

/**
 * An action that checked configuration or connectivity: read a config or env file (or one the knowledge
 * names), a shell command that inspected (`commandInspects`), or a fetch tool's request. A blocked action
 * did not run and does not count.
 */
export function isDiagnostic(record: ActionRecord, knowledge?: ProjectKnowledge): boolean {
  if (record.verdict === 'block') return false;
  const hints = hintsOf(knowledge);
  const read = record.paths.filter((p) => !record.writtenPaths.includes(p));
  if (read.some((p) => isConfigFile(p) || hints.configFile(p))) return true;
  if (record.shell === undefined) return record.intents.includes('network_request') && record.urls.length > 0;
  return record.shell.inspects;
}

/** Whether a diagnostic ran at or after `record` (the failure itself may have been the check). */
export function diagnosedSince(session: ReviewSession, record: ActionRecord, knowledge?: ProjectKnowledge): boolean {
  return isDiagnostic(record, knowledge) || session.since(record).some((r) => isDiagnostic(r, knowledge));
}
