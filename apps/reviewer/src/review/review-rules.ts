import type { Severity, VerdictKind } from '@warden/contracts';
import type { ParsedAction } from './action-intent.js';
import { severityOf } from './risk-severity.js';
import { basename, type ShellSegment } from './shell-command.js';

/** What a rule found; the strongest finding decides the verdict. */
export interface RuleFinding {
  rule: string;
  verdict: VerdictKind;
  score: number;
  severity: Severity;
  factors: string[];
  /** Written for the agent (a model) and for people. */
  reason: string;
  alternative?: string;
}

export interface ReviewRule {
  name: string;
  evaluate(action: ParsedAction): RuleFinding | null;
}

/** What a rule's check returns; the rule adds its name and the severity its score implies. */
type Finding = Omit<RuleFinding, 'rule' | 'severity'>;

/** Paths whose recursive deletion destroys the machine or a user's data. */
const PROTECTED_PATHS = new Set([
  '/', '/*', '~', '~/', '~/*', '$HOME', '${HOME}', '$HOME/', '$HOME/*', '/root', '/home', '/etc', '/usr', '/var',
  '/bin', '/sbin', '/lib', '/lib64', '/boot', '/opt', '/srv', '/sys', '/proc', '/dev', '/System', '/Users', '/Applications',
]);

function normalisePath(path: string): string {
  if (path.length > 1 && path.endsWith('/') && !path.endsWith('*/')) return path.replace(/\/+$/, '') || '/';
  return path;
}

interface RmCall {
  recursive: boolean;
  force: boolean;
  noPreserveRoot: boolean;
  targets: string[];
}

/** Reads `rm` flags in any order and combination (-rf, -fr, -r -f, --recursive --force). */
export function readRm(segment: ShellSegment): RmCall | null {
  if (basename(segment.argv[0] ?? '') !== 'rm') return null;
  const call: RmCall = { recursive: false, force: false, noPreserveRoot: false, targets: [] };
  let options = true;
  for (const arg of segment.argv.slice(1)) {
    if (options && arg === '--') options = false;
    else if (options && arg.startsWith('--')) {
      if (arg === '--recursive') call.recursive = true;
      if (arg === '--force') call.force = true;
      if (arg === '--no-preserve-root') call.noPreserveRoot = true;
    } else if (options && arg.startsWith('-') && arg.length > 1) {
      if (/[rR]/.test(arg)) call.recursive = true;
      if (arg.includes('f')) call.force = true;
    } else call.targets.push(arg);
  }
  return call;
}

const rule = (name: string, check: (action: ParsedAction) => Finding | null): ReviewRule => ({
  name,
  evaluate(action) {
    const finding = check(action);
    return finding && { rule: name, severity: severityOf(finding.score), ...finding };
  },
});

function firstSegment(action: ParsedAction, match: (s: ShellSegment) => boolean): ShellSegment | undefined {
  return action.segments.find(match);
}

export const BUILT_IN_RULES: ReviewRule[] = [
  rule('destructive_root_deletion', (action) => {
    for (const segment of action.segments) {
      const rm = readRm(segment);
      const hit = rm?.recursive && rm.targets.map(normalisePath).find((t) => PROTECTED_PATHS.has(t));
      if (hit) {
        return {
          verdict: 'block',
          score: 1,
          factors: ['file_deletion', 'recursive', 'protected_path'],
          reason: `Recursive deletion of ${hit} would destroy the system or the user's files. This command is never allowed.`,
          alternative: 'Delete only the directory you mean, inside the project, e.g. rm -rf ./dist',
        };
      }
      const find = basename(segment.argv[0] ?? '') === 'find' && PROTECTED_PATHS.has(normalisePath(segment.argv[1] ?? ''));
      if (find && (segment.argv.includes('-delete') || segment.argv.some((a, i) => a === '-exec' && basename(segment.argv[i + 1] ?? '') === 'rm'))) {
        return {
          verdict: 'block',
          score: 1,
          factors: ['file_deletion', 'recursive', 'protected_path'],
          reason: `find ${segment.argv[1]} with -delete would remove files across the system. This command is never allowed.`,
          alternative: 'Search inside the project directory only, and list matches before deleting them.',
        };
      }
    }
    return null;
  }),
  rule('disk_destruction', (action) => {
    const hit = firstSegment(action, (s) => {
      const cmd = basename(s.argv[0] ?? '');
      if (/^mkfs(\.|$)/.test(cmd) || cmd === 'wipefs') return true;
      if (cmd === 'dd' && s.argv.some((a) => /^of=\/dev\/(sd|nvme|hd|vd|xvd|disk|mmcblk)/.test(a))) return true;
      if (cmd === 'shred' && s.argv.some((a) => a.startsWith('/dev/'))) return true;
      return s.redirects.some((r) => r.operator.includes('>') && /^\/dev\/(sd|nvme|hd|vd|xvd|disk|mmcblk)/.test(r.target));
    });
    if (!hit) return null;
    return {
      verdict: 'block',
      score: 1,
      factors: ['system_modification', 'irreversible', 'device_write'],
      reason: `${basename(hit.argv[0] ?? 'This command')} writes to a disk device and destroys its data. This command is never allowed.`,
    };
  }),
  rule('fork_bomb', (action) => {
    // A function that pipes itself into itself in the background: :(){ :|:& };: and renamed variants.
    if (!/([\w:]+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(action.command ?? '')) return null;
    return {
      verdict: 'block',
      score: 1,
      factors: ['resource_exhaustion'],
      reason: 'This is a fork bomb: it exhausts the machine. It is never allowed.',
    };
  }),
  rule('remote_script_execution', (action) => {
    const index = action.segments.findIndex(
      (s, i) =>
        s.pipedFrom &&
        ['sh', 'bash', 'zsh', 'dash', 'python', 'python3', 'node', 'perl', 'ruby'].includes(basename(s.argv[0] ?? '')) &&
        ['curl', 'wget'].includes(basename(action.segments[i - 1]?.argv[0] ?? '')),
    );
    if (index < 0) return null;
    return {
      verdict: 'block',
      score: 0.9,
      factors: ['network_request', 'code_execution', 'unreviewed_code'],
      reason: 'Piping a downloaded script straight into an interpreter runs code nobody has read.',
      alternative: 'Download the script to a file, read it, then run it if it is what you expect.',
    };
  }),
  rule('world_writable_system', (action) => {
    const hit = firstSegment(
      action,
      (s) =>
        basename(s.argv[0] ?? '') === 'chmod' &&
        s.argv.some((a) => /^(0?777|a\+rwx|ugo\+rwx)$/.test(a)) &&
        s.argv.some((a) => PROTECTED_PATHS.has(normalisePath(a))),
    );
    if (!hit) return null;
    return {
      verdict: 'block',
      score: 0.95,
      factors: ['system_modification', 'privilege'],
      reason: 'Making system directories writable by everyone breaks the security of the machine.',
      alternative: 'Give the one file or directory that needs it the narrowest permission, e.g. chmod 644 ./file',
    };
  }),
  rule('recursive_deletion', (action) => {
    const hit = action.segments.map(readRm).find((rm) => rm?.recursive);
    if (!hit) return null;
    return {
      verdict: 'warn',
      score: 0.8,
      factors: ['file_deletion', 'recursive'],
      reason: `Recursive deletion of ${hit.targets.join(' ') || 'the given paths'}: make sure nothing in it is needed.`,
    };
  }),
  rule('privileged_command', (action) => {
    const hit = firstSegment(action, (s) => s.privileged);
    if (!hit) return null;
    return {
      verdict: 'warn',
      score: 0.75,
      factors: ['privileged'],
      reason: `${hit.argv[0] ?? 'The command'} runs with administrator rights.`,
    };
  }),
  rule('force_push', (action) => {
    const hit = firstSegment(
      action,
      (s) =>
        basename(s.argv[0] ?? '') === 'git' &&
        s.argv[1] === 'push' &&
        s.argv.some((a) => a === '-f' || a === '--force' || a.startsWith('--force-with-lease') || /^\+/.test(a)),
    );
    if (!hit) return null;
    return {
      verdict: 'warn',
      score: 0.7,
      factors: ['history_rewrite'],
      reason: 'A force push rewrites history that others may have pulled.',
    };
  }),
  rule('secret_file_write', (action) => {
    if (!['file_creation', 'file_modification', 'system_command'].includes(action.intent)) return null;
    const hit = action.paths.find((p) => /(^|\/)(\.env(\.[\w-]+)?|id_(rsa|ed25519|ecdsa)|\.npmrc|\.netrc|credentials(\.json)?|\.pgpass)$|(^|\/)\.ssh\//.test(p));
    if (!hit) return null;
    return {
      verdict: 'warn',
      score: 0.7,
      factors: ['secrets', 'file_modification'],
      reason: `${hit} holds credentials; writing it changes how things authenticate.`,
    };
  }),
];
