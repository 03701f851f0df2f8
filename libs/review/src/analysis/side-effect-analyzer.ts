import type { Severity } from '@warden/contracts';
import {
  commandName,
  forcePush,
  isForkBomb,
  isProtectedPath,
  remoteScriptPipe,
  worldWritableTargets,
  writesToDiskDevice,
} from '../parsing/command-facts.js';
import { deletesByTool, shellDeletions } from '../parsing/deletions.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { commandNames } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import type { ReviewSession } from '../session/review-session.js';

export type EffectType =
  | 'file_creation'
  | 'file_modification'
  | 'file_deletion'
  | 'system_modification'
  | 'process_creation'
  | 'privilege_escalation'
  | 'history_rewrite'
  | 'network_egress'
  | 'package_installation'
  | 'external_call'
  | 'resource_consumption';

export interface SideEffect {
  type: EffectType;
  target: string;
  reversible: boolean;
  severity: Severity;
}

export interface SideEffectAnalysis {
  effects: SideEffect[];
  /** All effects can be undone. */
  reversible: boolean;
  /** The worst effect's severity; null without effects. */
  severity: Severity | null;
  mitigations: string[];
}

const SEVERITY_ORDER: Record<Severity, number> = { low: 0, medium: 1, high: 2, critical: 3 };

const MITIGATIONS: Record<EffectType, string> = {
  file_creation: 'Create files inside the project so they are under version control.',
  file_modification: 'Save a checkpoint (or commit) before changing files, so the change can be rolled back.',
  file_deletion: 'Save a checkpoint before deleting, or move files aside instead of deleting them.',
  system_modification: 'Change system state only with a human in the loop; prefer project-local settings.',
  process_creation: 'Track background processes and stop them when done.',
  privilege_escalation: 'Run without sudo unless the task really needs administrator rights.',
  history_rewrite: 'Use --force-with-lease and a branch of your own; never rewrite shared history.',
  network_egress: 'Send nothing confidential; prefer read-only requests.',
  package_installation: 'Pin the version, install into the project (not globally) and check why it is needed.',
  external_call: 'Prefer read-only calls of external tools; confirm writes.',
  resource_consumption: 'Bound the command (timeout, limits) so it cannot run away.',
};

/** Commands that change machine state beyond the project. */
const SYSTEM_COMMANDS = new Set([
  'systemctl', 'service', 'kill', 'pkill', 'killall', 'chown', 'mount', 'umount', 'iptables', 'ip6tables', 'ufw', 'crontab',
  'useradd', 'userdel', 'usermod', 'groupadd', 'passwd', 'sysctl', 'modprobe', 'reboot', 'shutdown', 'halt', 'poweroff', 'launchctl',
  'update-alternatives', 'ldconfig', 'setenforce', 'visudo', 'chattr',
]);
const SERVER_SCRIPTS = /^(dev|start|serve|watch)(:|$)/;
const UPLOAD_FLAGS = new Set(['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '-F', '--form', '-T', '--upload-file', '--post-data', '--post-file']);
const READ_ONLY_EXTERNAL = /^(get|list|search|read|fetch|find|query_read|describe|show)/i;

function worst(effects: readonly SideEffect[]): Severity | null {
  let result: Severity | null = null;
  for (const effect of effects) if (!result || SEVERITY_ORDER[effect.severity] > SEVERITY_ORDER[result]) result = effect.severity;
  return result;
}

const REMOTE_COPIERS = new Set(['scp', 'rsync']);
const SYSTEM_PACKAGE_MANAGERS = new Set(['apt', 'apt-get', 'brew', 'dnf', 'yum', 'apk', 'snap', 'choco']);

/** An install for the whole machine: a system package manager, or `-g`. */
function installsGlobally(segment: ShellSegment): boolean {
  return segment.argv.includes('-g') || segment.argv.includes('--global') || SYSTEM_PACKAGE_MANAGERS.has(commandName(segment));
}
const sendsData = (arg: string) => UPLOAD_FLAGS.has(arg) || arg.startsWith('--data');

/** A command that sends data: a body or upload flag, or a copy to a remote (`scp x host:`). */
function sendsUpload(segment: ShellSegment): boolean {
  const { argv } = segment;
  return argv.some(sendsData) || (REMOTE_COPIERS.has(commandName(segment)) && (argv[argv.length - 1] ?? '').includes(':'));
}

/**
 * Seed 001's side-effect analyzer: the file, system, network and resource effects of an action, each
 * reversible or not, with a severity and a mitigation. Critical effects (destroying the system, a disk,
 * or running unread code) make the decision engine block whatever else it concluded.
 */
export class SideEffectAnalyzer {
  analyze(action: ParsedAction, session: ReviewSession, inScope: (path: string) => boolean): SideEffectAnalysis {
    const effects: SideEffect[] = [];
    this.fileEffects(action, session, inScope, effects);
    this.systemEffects(action, effects);
    this.networkEffects(action, effects);
    this.resourceEffects(action, effects);
    const types = new Set(effects.map((e) => e.type));
    return {
      effects,
      reversible: effects.every((e) => e.reversible),
      severity: worst(effects),
      mitigations: [...types].map((t) => MITIGATIONS[t]),
    };
  }

  private fileEffects(action: ParsedAction, session: ReviewSession, inScope: (path: string) => boolean, effects: SideEffect[]): void {
    const checkpointed = session.checkpoints > 0;
    const deleted = new Set<string>();
    for (const { target, recursive, critical, remoteHost } of shellDeletions(action)) {
      deleted.add(target);
      effects.push({
        type: 'file_deletion',
        target,
        reversible: checkpointed && !critical,
        // The session's scope is this machine's: on another host only a protected path makes it critical.
        severity: critical ? 'critical' : recursive && !remoteHost && !inScope(target) ? 'critical' : 'high',
      });
    }
    const toolDeletion = deletesByTool(action);
    for (const path of action.writtenPaths) {
      if (deleted.has(path)) continue;
      if (toolDeletion) {
        effects.push({ type: 'file_deletion', target: path, reversible: checkpointed, severity: action.input['recursive'] === true && !inScope(path) ? 'critical' : 'high' });
      } else if (action.intent === 'file_creation' || (action.intents.includes('file_creation') && !action.intents.includes('file_modification'))) {
        effects.push({ type: 'file_creation', target: path, reversible: true, severity: inScope(path) ? 'low' : 'medium' });
      } else {
        // Inside the project a change is under version control; outside it only a checkpoint brings it back.
        effects.push({ type: 'file_modification', target: path, reversible: checkpointed || inScope(path), severity: inScope(path) ? 'medium' : 'high' });
      }
    }
  }

  private systemEffects(action: ParsedAction, effects: SideEffect[]): void {
    if (isForkBomb(action.command)) effects.push({ type: 'resource_consumption', target: 'process table', reversible: false, severity: 'critical' });
    const remote = remoteScriptPipe(action.segments);
    if (remote >= 0) effects.push({ type: 'system_modification', target: `${commandName(action.segments[remote]!)} running a downloaded script`, reversible: false, severity: 'critical' });
    if (action.input['run_in_background'] === true) effects.push({ type: 'process_creation', target: action.command ?? action.tool, reversible: true, severity: 'medium' });
    const names = commandNames(action.segments);
    for (let i = 0; i < action.segments.length; i++) {
      const segment = action.segments[i]!;
      const cmd = names[i]!;
      if (writesToDiskDevice(segment)) effects.push({ type: 'system_modification', target: segment.argv.join(' '), reversible: false, severity: 'critical' });
      for (const target of cmd === 'chmod' ? worldWritableTargets(segment) : []) {
        effects.push({ type: 'system_modification', target: `chmod 777 ${target}`, reversible: true, severity: isProtectedPath(target) ? 'critical' : 'medium' });
      }
      if (SYSTEM_COMMANDS.has(cmd) || (cmd === 'git' && segment.argv.includes('--global') && segment.argv[1] === 'config')) {
        effects.push({ type: 'system_modification', target: segment.argv.join(' ').slice(0, 200), reversible: false, severity: 'high' });
      }
      if (segment.privileged) effects.push({ type: 'privilege_escalation', target: segment.argv.join(' ').slice(0, 200), reversible: false, severity: 'high' });
      const push = cmd === 'git' ? forcePush(segment) : null;
      if (push) effects.push({ type: 'history_rewrite', target: 'remote branch', reversible: false, severity: push === 'force' ? 'high' : 'medium' });
      if (cmd === 'git' && segment.argv[1] === 'reset' && segment.argv.includes('--hard')) {
        effects.push({ type: 'history_rewrite', target: 'uncommitted work', reversible: false, severity: 'high' });
      }
      const script = cmd === 'npm' || cmd === 'pnpm' || cmd === 'yarn' ? segment.argv[segment.argv[1] === 'run' ? 2 : 1] ?? '' : '';
      if (segment.background || cmd === 'nohup' || SERVER_SCRIPTS.test(script) || (cmd === 'docker' && segment.argv.includes('-d'))) {
        effects.push({ type: 'process_creation', target: segment.argv.join(' ').slice(0, 200), reversible: true, severity: 'medium' });
      }
    }
    if (action.intents.includes('package_install')) {
      const global = action.segments.some(installsGlobally);
      effects.push({
        type: 'package_installation',
        target: action.packages.join(' ') || 'project dependencies',
        reversible: !global,
        severity: global ? 'high' : 'medium',
      });
    }
    if (action.intent === 'external_tool') {
      const readOnly = READ_ONLY_EXTERNAL.test(action.mcp?.tool ?? '');
      effects.push({ type: 'external_call', target: action.tool, reversible: readOnly, severity: readOnly ? 'low' : 'medium' });
    }
  }

  private networkEffects(action: ParsedAction, effects: SideEffect[]): void {
    if (!action.intents.includes('network_request')) return;
    const uploads = action.segments.some(sendsUpload) || /^(POST|PUT|PATCH|DELETE)$/i.test(String(action.input['method'] ?? ''));
    const target = action.urls[0] ?? (action.searchQuery !== undefined ? 'web search' : action.command?.slice(0, 200) ?? action.tool);
    // Data that left cannot be called back; a plain read changes nothing anywhere.
    effects.push({ type: 'network_egress', target, reversible: !uploads, severity: uploads ? 'medium' : 'low' });
  }

  private resourceEffects(action: ParsedAction, effects: SideEffect[]): void {
    for (const segment of action.segments) {
      const cmd = commandName(segment);
      if (cmd === 'yes' || (cmd === 'find' && isProtectedPath(segment.argv[1] ?? '.')) || (cmd === 'while' && segment.argv[1] === 'true')) {
        effects.push({ type: 'resource_consumption', target: segment.argv.join(' ').slice(0, 200), reversible: true, severity: 'medium' });
      }
    }
  }
}
