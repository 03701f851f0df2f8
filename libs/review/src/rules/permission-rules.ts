import { isProtectedPath, worldWritableTargets } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { resolvePath } from '@warden/actions';
import { segmentsRunning } from '../parsing/segment-index.js';
import { basename, parseShellCommand } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';
import { withCommand } from './command-input.js';
import { applyEdits, commandStart, shellCommands, type TextEdit } from './shell-words.js';

/** Below these, world-writable files let any user change the system or log in as someone else. */
const SYSTEM_TREE = /^(?:\/(?:etc|usr|bin|sbin|lib|lib64|lib32|boot|sys|proc|dev|root|System|Library)(?:\/|$)|~\/\.ssh(?:\/|$))/;
const WORLD_WRITABLE_MODE = /^(?:0?777|a\+rwx|ugo\+rwx)$/;
const CHMOD = new Set(['chmod']);

export function isSystemPath(path: string): boolean {
  return isProtectedPath(path) || SYSTEM_TREE.test(resolvePath(path));
}

function worldWritable(action: ParsedAction): string[] {
  return segmentsRunning(action.segments, CHMOD).flatMap(worldWritableTargets);
}

/** `chmod 777 x` → `chmod 755 x`, or null when the mode cannot be found in the line as written. */
export function withoutWorldWrite(command: string): string | null {
  const edits: TextEdit[] = [];
  for (const words of shellCommands(command)) {
    const start = commandStart(words);
    if (start < 0 || basename(words[start]!.value) !== 'chmod') continue;
    for (const word of words.slice(start + 1)) {
      if (WORLD_WRITABLE_MODE.test(word.value)) edits.push({ start: word.start, end: word.end, text: '755' });
    }
  }
  if (!edits.length) return null;
  const rewritten = applyEdits(command, edits);
  return parseShellCommand(rewritten).some((s) => worldWritableTargets(s).length > 0) ? null : rewritten;
}

export const worldWritableSystemRule = builtInRule({
  name: 'world_writable_system',
  description: 'Making a system directory (or ~/.ssh) writable by everyone is never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    const hit = worldWritable(action).find(isSystemPath);
    if (hit === undefined) return null;
    return {
      verdict: 'block',
      score: 0.95,
      factors: ['system_modification', 'privilege'],
      reason: `Making ${hit} writable by everyone breaks the security of the machine: any user or process could change it. This command is never allowed.`,
      alternative: 'Give the one file or directory that needs it the narrowest permission, e.g. chmod 644 ./file',
    };
  },
});

export const worldWritablePermissionsRule = builtInRule({
  name: 'world_writable_permissions',
  description: 'chmod 777 on a project path becomes chmod 755.',
  reads: 'action',
  check({ action }) {
    const targets = worldWritable(action);
    // System paths are world_writable_system's: blocked, not rewritten.
    if (!targets.length || targets.some(isSystemPath)) return null;
    const reason = `chmod 777 makes ${targets.join(', ')} writable by every user and process on the machine.`;
    const rewritten = action.command === undefined ? null : withoutWorldWrite(action.command);
    if (rewritten !== null) {
      return {
        verdict: 'modify',
        score: 0.7,
        factors: ['permissions'],
        reason: `${reason} The command was changed to chmod 755: the owner can write, everyone else can read and enter directories. For plain files that need no execution, 644 is enough.`,
        modifiedInput: withCommand(action, rewritten),
      };
    }
    return {
      verdict: 'warn',
      score: 0.65,
      factors: ['permissions'],
      reason,
      alternative: 'Use the narrowest mode that works, e.g. chmod 755 for directories and scripts, chmod 644 for files.',
    };
  },
});
