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
