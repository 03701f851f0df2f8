import { commandName } from '../parsing/command-facts.js';
import { namesIn, segmentsRunning } from '../parsing/segment-index.js';
import { optionValues } from '../parsing/segment-paths.js';
import { builtInRule } from './built-in-rule.js';
import { ownEntry } from '../own-entry.js';

const PUBLISHERS: Record<string, (argv: readonly string[]) => boolean> = {
  npm: (argv) => argv[1] === 'publish' || argv[1] === 'unpublish' || (argv[1] === 'dist-tag' && argv[2] === 'add'),
  yarn: (argv) => argv[1] === 'publish' || (argv[1] === 'npm' && argv[2] === 'publish'),
  pnpm: (argv) => argv[1] === 'publish',
  bun: (argv) => argv[1] === 'publish',
  cargo: (argv) => argv[1] === 'publish' || argv[1] === 'yank',
  twine: (argv) => argv[1] === 'upload',
  gem: (argv) => argv[1] === 'push' || argv[1] === 'yank',
  poetry: (argv) => argv[1] === 'publish',
  docker: (argv) => argv[1] === 'push',
  gh: (argv) => argv[1] === 'release' && argv[2] === 'create',
  mvn: (argv) => argv.includes('deploy'),
};

export const packagePublishRule = builtInRule({
  name: 'package_publish',
  description: 'Publishing a package, image or release is public and cannot be taken back; it needs approval.',
  reads: 'action',
  check({ action }) {
    const hit = segmentsRunning(action.segments, namesIn(PUBLISHERS)).find((s) => ownEntry(PUBLISHERS, commandName(s))?.(s.argv));
    if (!hit) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['publication', 'irreversible'],
      reason: `${hit.argv.slice(0, 3).join(' ')} publishes to a registry for everyone; a published version cannot be withdrawn cleanly. A person must approve it.`,
      alternative: 'Prepare the release (version, changelog, a dry run such as npm publish --dry-run) and let the user publish.',
    };
  },
});

const PRODUCTION_HOST = /(?:^|[.@-])(?:prod|production|live)(?:[.-]|\d|$)/i;
const SSH = new Set(['ssh']);

export const remoteShellRule = builtInRule({
  name: 'remote_shell',
  description: 'Running commands on another machine over ssh warns; on a production host it needs approval.',
  reads: 'action',
  check({ action }) {
    const hit = segmentsRunning(action.segments, SSH).find((s) => s.argv.slice(1).some((a) => !a.startsWith('-')));
    if (!hit) return null;
    const operands = hit.argv.slice(1).filter((a, i, all) => !a.startsWith('-') && !/^-[bcDEeFIiJLlmOopQRSWw]$/.test(all[i - 1] ?? ''));
    const host = operands[0] ?? '';
    // The `git` user of a Git host (GitHub, GitLab, a Gitea server) has no shell: `ssh -T git@github.com` checks a key.
    if (/^git@/i.test(host)) return null;
    const production = PRODUCTION_HOST.test(host);
    // The remote command itself is reviewed as if it ran here (its segments carry the host); a login is not reviewable.
    if (!production && operands.length > 1) return null;
    return {
      verdict: production ? 'require_approval' : 'warn',
      score: production ? 0.85 : 0.6,
      factors: ['remote_execution', ...(production ? ['production'] : [])],
      reason: production
        ? `This runs commands on ${host}, a production machine. A person must approve changes there.`
        : `This opens a shell on ${host}: what is typed there is outside the project and Warden does not see it.`,
      alternative: 'Describe the change for the operator of that machine, or use the deployment pipeline.',
    };
  },
});

/** The programs systemShutdownRule reads. */
const STOPPERS = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit', 'systemctl', 'kill']);

export const systemShutdownRule = builtInRule({
  name: 'system_shutdown',
  description: 'Shutting down or rebooting the machine, or killing every process, is never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    // Another machine, container or pod stopped over ssh or exec is remote_shutdown's (remote-host-rules.ts).
    const hit = segmentsRunning(action.segments, STOPPERS).find((s) => {
      if (s.remoteHost !== undefined) return false;
      const cmd = commandName(s);
      if (['shutdown', 'reboot', 'halt', 'poweroff'].includes(cmd)) return true;
      if ((cmd === 'init' || cmd === 'telinit') && ['0', '6'].includes(s.argv[1] ?? '')) return true;
      if (cmd === 'systemctl' && ['poweroff', 'reboot', 'halt', 'kexec'].includes(s.argv[1] ?? '')) return true;
      return cmd === 'kill' && s.argv.slice(1).includes('-1');
    });
    if (!hit) return null;
    return {
      verdict: 'block',
      score: 1,
      factors: ['system_modification', 'availability'],
      reason: `${hit.argv.join(' ')} stops the whole machine or every process on it, including the user's work. It is never allowed.`,
      alternative: 'Stop only the process you started, by its PID.',
    };
  },
});

/** Programs many unrelated processes run as: killing them by name ends the user's shells, editors and servers too. */
const SHARED_PROGRAM = /^(?:zsh|bash|sh|fish|node|nodejs|python\d?(?:\.\d+)?|java|ruby|perl|php|go|dotnet|docker|dockerd|containerd|chrome|chromium|firefox|code|electron|ssh|sshd|sudo|systemd|launchd|login|tmux|screen|vim|nvim|emacs|postgres|mysqld|redis-server|nginx|httpd|Finder|Dock|WindowServer|explorer|tail|less|more|top|htop|watch|sleep|cat|make|git|\.)$/i;

/** A pattern that names a program and only its options (`tail -f`, `python -u`) matches every run of that program, whoever started it. */
function namesOnlyAProgram(pattern: string): boolean {
  const [program, ...rest] = pattern.trim().split(/\s+/);
  return SHARED_PROGRAM.test(program ?? '') && rest.every((word) => word.startsWith('-'));
}

const KILLERS_BY_NAME = new Set(['killall', 'pkill']);

export const massProcessKillRule = builtInRule({
  name: 'mass_process_kill',
  description:
    'killall and pkill by a program name shared by everything the user runs (zsh, node, python, java …) need approval; by a pattern naming what the agent started (pkill -f "vite --port 5173") they warn.',
  reads: 'action',
  check({ action }) {
    const killers = segmentsRunning(action.segments, KILLERS_BY_NAME);
    if (!killers.length) return null;
    const patterns = killers.map((segment) => segment.argv.slice(1).filter((a, i, all) => !a.startsWith('-') && !/^-[usUGPtgF]$|^--signal$/.test(all[i - 1] ?? '')).join(' '));
    // The broadest of the line's kills decides (`pkill -f my-run; pkill -f "tail -f"` ends every tail -f).
    const broadest = patterns.findIndex((pattern) => namesOnlyAProgram(pattern) || pattern.trim().length < 4);
    const hit = killers[Math.max(0, broadest)]!;
    const pattern = patterns[Math.max(0, broadest)]!;
    if (broadest < 0) {
      return {
        verdict: 'warn',
        score: 0.55,
        factors: ['process_termination'],
        reason: `${hit.argv.join(' ')} ends every process matching "${pattern}"; make sure that is only what this session started.`,
        alternative: 'Stop the process you started by its PID (kill <pid>).',
      };
    }
    return {
      verdict: 'require_approval',
      score: 0.75,
      factors: ['process_termination'],
      reason: `${hit.argv.join(' ')} ends every matching process, including the user's editor, servers and other sessions. A person must approve it.`,
      alternative: 'Stop the process you started by its PID (kill <pid>), or use the job control of the tool that started it.',
    };
  },
});

/** docker and podman, and compose as its own program: the only commands the container rules read. */
const CONTAINER_COMMANDS = new Set(['docker', 'podman', 'docker-compose', 'podman-compose']);

/** docker commands that delete volumes (data) rather than containers or images. */
function deletesContainerData(argv: readonly string[]): boolean {
  // Compose v1 is its own program: `docker-compose down -v` is `docker compose down -v`.
  const words = argv[0] === 'docker-compose' || argv[0] === 'podman-compose' ? ['compose', ...argv.slice(1)] : argv.slice(1);
  if (words[0] === 'volume' && ['rm', 'prune'].includes(words[1] ?? '')) return true;
  if (words[0] === 'system' && words[1] === 'prune') return words.includes('--volumes');
  return words[0] === 'compose' && words.includes('down') && (words.includes('-v') || words.includes('--volumes'));
}

export const containerDataDestructionRule = builtInRule({
  name: 'container_data_destruction',
  description: 'Deleting container volumes (docker volume rm/prune, system prune --volumes, compose down -v) destroys data and needs approval.',
  reads: 'action',
  check({ action }) {
    const hit = segmentsRunning(action.segments, CONTAINER_COMMANDS).find((s) => deletesContainerData([commandName(s), ...s.argv.slice(1)]));
    if (!hit) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['data_deletion', 'irreversible'],
      reason: `${hit.argv.join(' ')} deletes container volumes: databases and other data kept there are gone for good. A person must approve it.`,
      alternative: 'Remove only the containers and images you created (docker container prune, docker image prune), and keep the volumes.',
    };
  },
});

/** Capabilities that let a process in a container reach past it: mount, load kernel modules, trace or read the host's processes and devices. */
const ESCAPING_CAPABILITIES = /^(?:cap_)?(?:all|sys_admin|sys_module|sys_ptrace|sys_rawio|dac_read_search)$/i;
/** The host's paths that make a container the host when mounted: its root's parts, every device, a container runtime's socket. */
const HOST_PATHS = /^\/(?:etc|root|boot|home|dev|proc|sys|(?:var\/)?run\/(?:docker|containerd\/containerd|crio\/crio|podman\/podman)\.sock)\/?$/;
/** The host's disks and memory as devices. */
const HOST_DEVICE = /^\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|dm-\d|md\d|mapper\/|disk\/|mem$|kmem$|port$)/;
/** Switching off the confinement of the container: seccomp, AppArmor, SELinux labels, the masked /proc and /sys paths. */
const UNCONFINED = /^(?:seccomp[=:]unconfined|apparmor[=:]unconfined|label[=:]disable|systempaths=unconfined)$/i;

/**
 * `docker run --privileged`, the host's root or docker socket mounted, the host's namespaces, its disks as
 * devices, capabilities or unconfined profiles that reach past the container, a build allowed insecure
 * entitlements: the container is the host.
 */
function hostAccess(argv: readonly string[]): string | null {
  if (argv[0] !== 'docker' && argv[0] !== 'podman') return null;
  if (argv.includes('build') && optionValues(argv, { long: '--allow' }).some((v) => /^security\.insecure$/i.test(v))) return '--allow=security.insecure';
  if (!argv.includes('run') && !argv.includes('create') && !argv.includes('exec')) return null;
  if (argv.some((a) => a === '--privileged' || /^--privileged=(?:true|1)$/i.test(a))) return '--privileged';
  const capability = optionValues(argv, { long: '--cap-add' }).find((v) => v.split(',').some((c) => ESCAPING_CAPABILITIES.test(c)));
  if (capability) return `--cap-add ${capability}`;
  const device = optionValues(argv, { long: '--device' }).find((v) => HOST_DEVICE.test(v.split(':')[0] ?? ''));
  if (device) return `--device ${device}`;
  const unconfined = optionValues(argv, { long: '--security-opt' }).find((v) => UNCONFINED.test(v));
  if (unconfined) return `--security-opt ${unconfined}`;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    const mount = a === '-v' || a === '--volume' || a === '--mount' ? argv[i + 1] ?? '' : /^(?:-v|--volume=|--mount=)/.test(a) ? a.replace(/^-v|^--volume=|^--mount=/, '') : '';
    const source = /(?:^|,)(?:src|source)=([^,]+)/.exec(mount)?.[1] ?? mount.split(':')[0] ?? '';
    if (mount && (source === '/' || HOST_PATHS.test(source))) return `a mount of ${source}`;
    if (/^--(?:pid|net|ipc|uts|userns)=host$/.test(a)) return a;
  }
  return null;
}

export const containerHostAccessRule = builtInRule({
  name: 'container_host_access',
  description: 'Containers run with --privileged, the host namespaces, the host root, /etc, /dev, /proc or a container runtime socket (docker, containerd, CRI-O, podman) mounted, host disks as devices, capabilities such as SYS_ADMIN, or seccomp or AppArmor switched off, and builds allowed security.insecure, need approval: they are root on the host.',
  reads: 'action',
  check({ action }) {
    for (const segment of segmentsRunning(action.segments, CONTAINER_COMMANDS)) {
      const access = hostAccess([commandName(segment), ...segment.argv.slice(1)]);
      if (!access) continue;
      return {
        verdict: 'require_approval',
        score: 0.85,
        factors: ['privileged', 'system_modification'],
        reason: `${commandName(segment)} with ${access} gives the container root access to this machine (its files, processes or docker daemon). A person must approve it.`,
        alternative: 'Mount only the project directory, without --privileged.',
      };
    }
    return null;
  },
});
