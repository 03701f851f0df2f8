import type { Finding } from './detector.js';
import { confidenceFrom, lastIds } from './detector.js';
import type { Step } from '../action-step.js';
import { shellWords } from '../shell-words.js';
import { isInstall } from '../signals.js';

/** Installs of one package that make a trap: the third is no longer the first attempt and its retry. */
const REINSTALL_AT = 3;
/** The verbs after which an install command names its packages. */
const INSTALL_VERB = /^(?:install|i|add|require|get|-s\w*|-i)$/;
/** What names a file or a source of packages, not a package (`-r requirements.txt`, `./pkg`, `.`). */
const NOT_A_PACKAGE = /[\\/]|^\.+$|\.(?:txt|toml|json|lock|cfg|whl|zip|msi|tgz|gz)$/;

/** The packages one install command names: `winget install --id OpenJS.NodeJS.LTS`, `pip install "requests>=2"`. */
export function installedPackages(cmd: string): string[] {
  const words = shellWords(cmd.toLowerCase());
  const verb = words.findIndex((w) => INSTALL_VERB.test(w));
  if (verb < 0) return [];
  const packages: string[] = [];
  for (let i = verb + 1; i < words.length; i++) {
    const word = words[i]!;
    // The end of the command: an operator, a redirection (`2>&1`, `> log`), a pipe.
    if (/^(?:&&|\|\||;|\|)$|^\d*[<>]|[|;&]$/.test(word)) break;
    // `--id X` names the package (the next word); other options' values are not packages.
    if (word === '--id') continue;
    if (word.startsWith('--id=')) packages.push(word.slice(5));
    else if (word.startsWith('-') || (words[i - 1] ?? '').match(/^-(?:r|c|t|-requirement|-constraint|-target|-location|-source|-s|-version|-index-url|-prefix)$/)) continue;
    else if (!NOT_A_PACKAGE.test(word)) packages.push(word.replace(/(?:@|==|>=|<=|~=|\^|>|<)[^@]*$/, '').replace(/^@$/, ''));
  }
  return packages.filter(Boolean);
}

/**
 * The same package installed again and again (by one manager or several: winget, then a download, then winget
 * again): the agent did not find out why the first install did not give it what it wanted — usually the
 * program is installed and only missing from the PATH, or the wrong thing is looked for.
 */
export function detectReinstall(steps: readonly Step[]): Finding | undefined {
  const installs = new Map<string, Step[]>();
  for (const step of steps) {
    if (!step.cmd || !isInstall(step)) continue;
    for (const name of new Set(installedPackages(step.cmd))) installs.set(name, [...(installs.get(name) ?? []), step]);
  }
  const failures = (run: Step[]) => run.filter((s) => s.status === 'error').length;
  let worst: [string, Step[]] | undefined;
  // Installs that all worked are set-up (one environment after another), not a fight with a failure.
  for (const entry of installs) if (entry[1].length >= REINSTALL_AT && failures(entry[1]) && (!worst || entry[1].length > worst[1].length)) worst = entry;
  if (!worst) return undefined;
  const [name, again] = worst;
  const failed = failures(again);
  return {
    severity: again.length > REINSTALL_AT ? 'high' : 'medium',
    confidence: confidenceFrom(0.6, 0.1 * (again.length - REINSTALL_AT) + 0.05 * failed),
    description: `${name} was installed ${again.length} times (${failed} of them failed): installing it again will not give what is missing. Find out why it is not found or not working (the PATH, the version in use, the error) before installing anything more.`,
    evidence: lastIds(again.map((s) => s.id)),
    details: {
      trap: 'installation',
      package: name,
      installs: again.length,
      failed_installs: failed,
      escalation_actions: again.map((s) => s.cmd!.slice(0, 120)).slice(-10),
    },
    magnitude: again.length,
  };
}

/** Reinstalling without naming a package: `npm rebuild x`, `npm ci`, deleting what installs made (node_modules, a lock file, a virtual environment), `npx --yes pkg@version`. */
const REINSTALLING =
  /\b(?:npm|pnpm|yarn)\s+(?:rebuild|ci)\b|\b(?:rm|remove-item|rmdir|rd|del)\b[^;&|]*?(?:^|[\s\\/'"])(?:node_modules|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|\.?venv)(?=$|[\s\\/'";&|])|\bnpx\s+(?:--yes\s+|-y\s+)?@?[\w./-]+@\S+/i;
/** Reinstalls after each of which the same command still fails: past the third, reinstalling is the agent's answer to everything. */
const REINSTALL_LOOP_AT = 3;

/** A command as the one it runs, whatever its output goes to (`npm run build-dev 2>&1` is `npm run build-dev`). */
function commandKey(cmd: string): string {
  return shellWords(cmd.toLowerCase())
    .filter((w) => !/^\d*[<>]|^&>/.test(w))
    .slice(0, 3)
    .join(' ');
}

/**
 * Reinstalling as the answer to a failure that stays: a command fails, the agent reinstalls (installs again,
 * rebuilds, deletes node_modules or the lock file, runs the package by npx instead), the command fails again,
 * and again after the next reinstall. Each install may work; what they were meant to fix does not. A success
 * of the failing command ends it.
 */
export function detectReinstallLoop(steps: readonly Step[]): Finding | undefined {
  type Loop = { attempts: Step[]; pending?: Step; cmd: string };
  const failing = new Map<string, Loop>();
  let worst: Loop | undefined;
  for (const step of steps) {
    if (!step.cmd || step.blocked) continue;
    if (isInstall(step) || REINSTALLING.test(step.cmd)) {
      for (const loop of failing.values()) loop.pending = step;
      continue;
    }
    const key = commandKey(step.cmd);
    if (step.status === 'success') {
      failing.delete(key);
      continue;
    }
    if (step.status !== 'error') continue;
    const loop = failing.get(key) ?? { attempts: [], cmd: step.cmd };
    if (loop.pending && !loop.attempts.includes(loop.pending)) loop.attempts.push(loop.pending);
    loop.pending = undefined;
    loop.cmd = step.cmd;
    failing.set(key, loop);
    if (loop.attempts.length >= REINSTALL_LOOP_AT && (!worst || loop.attempts.length > worst.attempts.length)) worst = loop;
  }
  if (!worst) return undefined;
  const n = worst.attempts.length;
  return {
    severity: n > REINSTALL_LOOP_AT ? 'high' : 'medium',
    confidence: confidenceFrom(0.6, 0.1 * (n - REINSTALL_LOOP_AT)),
    description: `\`${worst.cmd.slice(0, 100)}\` failed again after each of ${n} reinstalls: reinstalling does not fix it. Read the error and find out what it needs (a version, a platform binary, a setting) before installing anything more.`,
    evidence: lastIds(worst.attempts.map((s) => s.id)),
    details: {
      trap: 'installation',
      command: worst.cmd.slice(0, 200),
      reinstalls: n,
      escalation_actions: worst.attempts.map((s) => s.cmd!.slice(0, 120)).slice(-10),
    },
    magnitude: n,
  };
}
