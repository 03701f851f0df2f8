import { inTempDirectory } from '@warden/actions';
import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';
import { deletionsOf } from './file-operation-rules.js';

/**
 * Commands that run on another machine, container or pod (`ssh host 'cmd'`, `docker exec`, `kubectl exec`,
 * read by @warden/actions' remoteCommand): their segments carry the host. What destroys there is still
 * judged by the rules of its kind (rm -rf / is blocked wherever it runs); what is about THIS machine is not
 * said of them: its project and the paths this session works on (the scope rules leave remote segments
 * alone), and shutting down the user's own machine. This module says what they get instead.
 */

/** Whether a segment runs on another host, container or pod. */
export const runsElsewhere = (segment: ShellSegment): boolean => segment.remoteHost !== undefined;

/** Segments of the line that run here, on the user's machine. */
export function localSegments(action: ParsedAction): readonly ShellSegment[] {
  return action.segments.some(runsElsewhere) ? action.segments.filter((s) => !runsElsewhere(s)) : action.segments;
}

/** Shutting down, rebooting or halting a machine. */
export function stopsMachine(segment: ShellSegment): boolean {
  const cmd = commandName(segment);
  const first = segment.argv[1] ?? '';
  if (cmd === 'shutdown' || cmd === 'reboot' || cmd === 'halt' || cmd === 'poweroff') return true;
  if ((cmd === 'init' || cmd === 'telinit') && (first === '0' || first === '6')) return true;
  return cmd === 'systemctl' && ['poweroff', 'reboot', 'halt', 'kexec'].includes(first);
}

const KIND: Record<string, string> = { ssh: 'machine', container: 'container', pod: 'pod' };

/** `root@router (over ssh)`, `the container web`: the place a remote segment runs. */
function place(segment: ShellSegment): string {
  const via = segment.via ?? '';
  const kind = via.startsWith('ssh ') ? KIND['ssh'] : /^(?:kubectl|oc) /.test(via) ? KIND['pod'] : KIND['container'];
  return `the ${kind} ${segment.remoteHost}`;
}

export const remoteShutdownRule = builtInRule({
  name: 'remote_shutdown',
  description: 'Rebooting or shutting down another machine, container or pod (over ssh, docker exec, kubectl exec) needs approval; the user’s own machine is system_shutdown’s.',
  reads: 'action',
  check({ action }) {
    const hit = action.segments.find((s) => runsElsewhere(s) && stopsMachine(s));
    if (!hit) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['remote_execution', 'availability'],
      reason: `${hit.argv.join(' ')} on ${place(hit)} stops it: whatever runs there, and whoever relies on it, is down until it is back. This is not your own machine, but a person must approve taking it down.`,
      alternative: 'Say that the change needs a reboot of that machine and let the user reboot it.',
    };
  },
});

export const remoteDeletionRule = builtInRule({
  name: 'remote_deletion',
  description: 'Deleting a file on another machine, container or pod warns (its scratch directories are quiet); a whole tree, or with administrator rights there, needs approval; recursive deletion of its root or system directories is destructive_root_deletion’s.',
  reads: 'action',
  check({ action }) {
    if (!action.segments.some(runsElsewhere)) return null;
    const remote = deletionsOf(action, undefined).filter((d) => runsElsewhere(d.segment) && !(d.path !== undefined && inTempDirectory(d.path)));
    if (!remote.length) return null;
    // A whole tree, or a deletion made with administrator rights there (a database's data, a server's configuration), needs approval.
    const grave = remote.find((d) => d.recursive || d.segment.privileged);
    const hit = grave ?? remote[0]!;
    const segment = hit.segment;
    if (grave) {
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['file_deletion', 'remote_execution', hit.recursive ? 'recursive' : 'privileged'],
        reason: `This deletes ${hit.raw}${hit.recursive ? ' and everything in it' : ' with administrator rights'} on ${place(segment)}: nothing there can be restored from here, and what runs there may depend on it. A person must approve it.`,
        alternative: 'List what would be deleted first, or move it aside instead of deleting it.',
      };
    }
    return {
      verdict: 'warn',
      score: 0.6,
      factors: ['file_deletion', 'remote_execution'],
      reason: `This deletes ${hit.raw} on ${place(segment)}: nothing there can be restored from here. Make sure it is what the user asked for.`,
      alternative: 'List what would be deleted first, or move it aside instead of deleting it.',
    };
  },
});

export const REMOTE_HOST_RULES = [remoteShutdownRule, remoteDeletionRule];
