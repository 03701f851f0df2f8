import { commandName, findDeletesProtected, INTERPRETERS, isForkBomb, isProtectedPath, readRm, remoteScriptPipe, writesToDiskDevice } from '../parsing/command-facts.js';
import { resolvePath } from '@warden/actions';
import { segmentsRunning, type CommandNames } from '../parsing/segment-index.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';
import { inlineCodeText } from './harm-catalogue.js';

/** Commands that run the code they are given: interpreters, `eval` and `source`. */
const RUNNERS = new Set([...INTERPRETERS, 'eval', 'source', '.']);
const DOWNLOAD_SUBSTITUTION = /^(?:\$\(|`)\s*(?:curl|wget)\b/;
const DOWNLOAD_PROCESS = /^<\(\s*(?:curl|wget)\b/;

/** `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget -O- …)"`: a download run without a pipe. */
function runsSubstitutedDownload(segment: ShellSegment): boolean {
  if (!RUNNERS.has(commandName(segment))) return false;
  return segment.argv.some((a, i) => i > 0 && (DOWNLOAD_SUBSTITUTION.test(a) || DOWNLOAD_PROCESS.test(a))) || segment.redirects.some((r) => r.operator === '<' && DOWNLOAD_PROCESS.test(r.target));
}

/**
 * A command whose program is what a download printed: `$(curl -s https://x.io/cmd)`, or a variable set to it
 * (`CMD=$(curl …) && $CMD`, which the shell's reading expands): the shell runs whatever the server sends.
 */
function runsDownloadAsCommand(segment: ShellSegment): boolean {
  return DOWNLOAD_SUBSTITUTION.test(segment.argv[0] ?? '');
}

/** Interpreters whose inline code (`-c`, `-e`, `eval`) is read for a deleted tree. */
const INLINE_CODE_RUNNERS: ReadonlySet<string> = new Set(['python', 'python3', 'node', 'perl', 'ruby', 'deno', 'bun']);
/** Library calls that delete a tree. */
const TREE_DELETION = /\b(?:shutil\.rmtree|rmSync|rmdirSync|fs\.rm\b|fs\.promises\.rm|rimraf|FileUtils\.rm_r[f]?|File\.rm_rf|remove_tree|rmtree)\b/;
/** A protected target written as code: the home directory, the root or a system directory. */
const PROTECTED_IN_CODE = /homedir\(\)|expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|ENV\[['"]HOME['"]\]|process\.env\.HOME|os\.environ\[['"]HOME['"]\]|['"](?:\/|~\/?|\/home(?:\/[^/'"]+)?\/?|\/Users(?:\/[^/'"]+)?\/?|\/(?:etc|usr|var|root|bin|boot|opt)\/?)['"]/;

/** What destructiveRootDeletionRule reads: rm, find, and the interpreters of inline code. */
const ROOT_DELETERS: CommandNames = { has: (name) => name === 'rm' || name === 'find' || INLINE_CODE_RUNNERS.has(name) };

/** The code a `python -c`, `node -e` (…) runs, when it deletes a protected tree. */
function inlineCodeDeletion(segment: ShellSegment): string | null {
  if (!INLINE_CODE_RUNNERS.has(commandName(segment))) return null;
  const code = inlineCodeText(segment);
  return code && TREE_DELETION.test(code) && PROTECTED_IN_CODE.test(code) ? code : null;
}

export const destructiveRootDeletionRule = builtInRule({
  name: 'destructive_root_deletion',
  description: "Recursive deletion of the filesystem root, a system directory or the user's home is never allowed.",
  essential: true,
  reads: 'action',
  check({ action }) {
    for (const segment of segmentsRunning(action.segments, ROOT_DELETERS)) {
      const rm = readRm(segment);
      const hit = rm?.recursive ? rm.targets.find((t) => isProtectedPath(t) || isProtectedPath(resolvePath(t))) : undefined;
      if (hit !== undefined) {
        return {
          verdict: 'block',
          score: 1,
          factors: ['file_deletion', 'recursive', 'protected_path'],
          reason: `Recursive deletion of ${hit} would destroy the system or the user's files. This command is never allowed.`,
          alternative: 'Delete only the directory you mean, inside the project, e.g. rm -rf ./dist',
        };
      }
      if (inlineCodeDeletion(segment)) {
        return {
          verdict: 'block',
          score: 1,
          factors: ['file_deletion', 'recursive', 'protected_path'],
          reason: `This ${commandName(segment)} code deletes the home directory, the filesystem root or a system directory. It is never allowed.`,
          alternative: 'Delete only the directory you mean, inside the project.',
        };
      }
      if (findDeletesProtected(segment)) {
        return {
          verdict: 'block',
          score: 1,
          factors: ['file_deletion', 'recursive', 'protected_path'],
          reason: `find ${segment.argv[1]} with -delete would remove files across the system. This command is never allowed.`,
          alternative: 'Search inside the project directory only, and list the matches before deleting them.',
        };
      }
    }
    return null;
  },
});

export const diskDestructionRule = builtInRule({
  name: 'disk_destruction',
  description: 'mkfs, wipefs, dd or shred onto a disk device is never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    const hit = action.segments.find(writesToDiskDevice);
    if (!hit) return null;
    return {
      verdict: 'block',
      score: 1,
      factors: ['system_modification', 'irreversible', 'device_write'],
      reason: `${commandName(hit) || 'This command'} writes to a disk device and destroys its data. This command is never allowed.`,
      alternative: 'If you need a disk image for a test, write to a file inside the project instead of a device.',
    };
  },
});

export const forkBombRule = builtInRule({
  name: 'fork_bomb',
  description: 'A function that forks itself without end exhausts the machine; never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    if (!isForkBomb(action.command)) return null;
    return {
      verdict: 'block',
      score: 1,
      factors: ['resource_exhaustion'],
      reason: 'This is a fork bomb: it exhausts the machine. It is never allowed.',
    };
  },
});

export const remoteScriptExecutionRule = builtInRule({
  name: 'remote_script_execution',
  description: 'A downloaded script piped (or substituted) straight into an interpreter, or what a download prints run as a command, is never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    if (remoteScriptPipe(action.segments) < 0 && !segmentsRunning(action.segments, RUNNERS).some(runsSubstitutedDownload) && !action.segments.some(runsDownloadAsCommand)) return null;
    return {
      verdict: 'block',
      score: 0.9,
      factors: ['network_request', 'code_execution', 'unreviewed_code'],
      reason: 'Running a downloaded script straight in an interpreter runs code nobody has read.',
      alternative: 'Download the script to a file, read it, then run it if it is what you expect.',
    };
  },
});

export const privilegedCommandRule = builtInRule({
  name: 'privileged_command',
  description: 'A command run through sudo, doas or su.',
  reads: 'action',
  check({ action }) {
    // sudo ls, sudo git status: reading with raised rights changes nothing.
    if (action.readOnly) return null;
    const hit = action.segments.find((s) => s.privileged);
    if (!hit) return null;
    return {
      verdict: 'warn',
      score: 0.75,
      factors: ['privileged'],
      reason: `${hit.argv[0] ?? 'The command'} runs with administrator rights, which can change the whole machine.`,
      alternative: 'Run it without sudo if it only needs to touch the project; otherwise say why administrator rights are needed.',
    };
  },
});

const SYSTEM_PACKAGE_MANAGERS = new Set(['apt', 'apt-get', 'dnf', 'yum', 'zypper', 'pacman', 'apk', 'snap', 'port', 'emerge', 'nixos-rebuild', 'darwin-rebuild']);
const PACKAGE_CHANGES = /^(?:install|reinstall|remove|purge|autoremove|upgrade|dist-upgrade|full-upgrade|erase|add|del|-S\w*|-R\w*|-U)$/;
/** NixOS and nix-darwin apply a whole system configuration: every package and service of the machine at once. */
const SYSTEM_REBUILDS = /^(?:switch|boot|test)$/;

function changesSystemPackages(segment: ShellSegment): boolean {
  const args = segment.argv.slice(1);
  // darwin-rebuild runs as the user and asks for the rights it needs itself; nixos-rebuild does with `--use-remote-sudo`.
  if (segment.program === 'nixos-rebuild' || segment.program === 'darwin-rebuild') {
    const raised = segment.privileged || !!segment.remoteHost || segment.program === 'darwin-rebuild' || args.some((a) => a === '--use-remote-sudo' || a === '--sudo');
    return raised && args.some((a) => SYSTEM_REBUILDS.test(a));
  }
  return (segment.privileged || !!segment.remoteHost) && args.some((a) => PACKAGE_CHANGES.test(a));
}

/** `sudo apt-get install …`, `sudo apt remove …`: software of the whole machine changed with administrator rights. */
export const systemPackageChangeRule = builtInRule({
  name: 'system_package_change',
  description: "Installing, upgrading or removing the machine's packages with administrator rights (sudo apt-get, dnf, pacman …), or applying a whole system configuration (nixos-rebuild switch, darwin-rebuild switch), needs approval.",
  reads: 'action',
  check({ action }) {
    const hit = segmentsRunning(action.segments, SYSTEM_PACKAGE_MANAGERS).find(changesSystemPackages);
    if (!hit) return null;
    return {
      verdict: 'require_approval',
      score: 0.85,
      factors: ['privileged', 'package_install', 'system_modification'],
      reason: `${hit.argv.slice(0, 4).join(' ')} changes the software of the whole machine with administrator rights. A person must approve it.`,
      alternative: 'Install what the project needs into the project (a virtualenv, node_modules, a container), or ask the user to install it.',
    };
  },
});
