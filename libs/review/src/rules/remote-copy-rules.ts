import { commandName, copierOperands, isProtectedPath } from '../parsing/command-facts.js';
import { describesOnly } from '../parsing/parsed-action.js';
import { segmentsRunning } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';

/** System directories of a machine: copying onto them replaces what the machine runs. */
const SYSTEM_PATH = /^(?:\/etc|\/boot|\/lib|\/lib64|\/usr|\/bin|\/sbin|\/root|\/var\/lib|\/sys|\/proc|\/dev)(?:\/|$)|(?:^|\/)\.ssh\/authorized_keys\d?$/;
/** The copies remoteSystemCopyRule reads. */
const COPIERS = new Set(['scp', 'rsync']);

/** The destination of scp/rsync when it is on another host (`user@host:/etc/`), split in host and path. */
function remoteDestination(segment: ShellSegment): { host: string; path: string } | null {
  const cmd = commandName(segment);
  if (cmd !== 'scp' && cmd !== 'rsync') return null;
  const operands = segment.argv.slice(1).filter((a, i, all) => !a.startsWith('-') && !/^-[ioPFSJlc]$|^-e$/.test(all[i - 1] ?? ''));
  const last = operands.at(-1);
  const match = last && operands.length >= 2 ? /^(?:[\w.-]+@)?([\w.-]+):(.*)$/.exec(last) : null;
  return match ? { host: match[1]!, path: match[2] || '~' } : null;
}

export const remoteSystemCopyRule = builtInRule({
  name: 'remote_system_copy',
  description: 'Copying files onto system paths of another host (scp/rsync to host:/etc, /boot, /usr, authorized_keys …) needs approval; rsync that deletes at its destination warns (approval outside the project).',
  reads: 'session',
  check({ action, inScope }) {
    for (const segment of segmentsRunning(action.segments, COPIERS)) {
      if (describesOnly(segment)) continue;
      const remote = remoteDestination(segment);
      if (remote && SYSTEM_PATH.test(remote.path)) {
        return {
          verdict: 'require_approval',
          score: 0.85,
          factors: ['remote_execution', 'system_modification'],
          reason: `${commandName(segment)} copies onto ${remote.path} on ${remote.host}, a system path: it replaces what that machine runs or who may log in. A person must approve it.`,
          alternative: 'Copy to your own directory on that host and let its operator install the file.',
        };
      }
      const deleting = commandName(segment) === 'rsync' ? segment.argv.find((a) => /^--(?:delete(?:-\w+)?|remove-source-files)$/.test(a)) : undefined;
      if (!deleting) continue;
      // Its operands without option values (`--exclude pattern` names no destination).
      const destination = copierOperands(segment).at(-1) ?? '';
      if (!remote && isProtectedPath(destination)) {
        return {
          verdict: 'block',
          score: 1,
          factors: ['file_deletion', 'recursive', 'protected_path'],
          reason: `rsync ${deleting} onto ${destination} deletes every file there that the source does not have: the system or a home directory would be emptied. It is never allowed.`,
          alternative: 'Sync into a directory of the project, and run it with -n (--dry-run) first.',
        };
      }
      const local = !remote && action.cwd !== undefined;
      const inside = local && inScope(destination.startsWith('/') ? destination : `${action.cwd}/${destination}`);
      return {
        verdict: inside ? 'warn' : 'require_approval',
        score: inside ? 0.6 : 0.85,
        factors: ['file_deletion'],
        reason: `rsync ${deleting} deletes files at ${destination} that the source does not have${deleting === '--remove-source-files' ? ' (here: the source files once copied)' : ''}.${inside ? '' : ' The destination is outside the project: a person must approve it.'}`,
        alternative: 'Run it with -n (--dry-run) first to list what would be deleted.',
      };
    }
    return null;
  },
});
