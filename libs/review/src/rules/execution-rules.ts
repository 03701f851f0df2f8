import { commandName, INTERPRETERS } from '../parsing/command-facts.js';
import { commandNames, positionsRunning } from '../parsing/segment-index.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { windowsCommands, type WindowsCommand } from '../parsing/windows-commands.js';
import { builtInRule } from './built-in-rule.js';
import { downloadedCodeRun } from './line-flows.js';
import { linesAddedBy } from './edited-text.js';
import { ownEntry } from '../own-entry.js';

const DECODERS: Record<string, (argv: readonly string[]) => boolean> = {
  base64: (argv) => argv.some((a) => a === '-d' || a === '--decode' || a === '-D'),
  xxd: (argv) => argv.includes('-r'),
  openssl: (argv) => argv.includes('-d') || argv.includes('base64'),
  gunzip: () => true,
  zcat: () => true,
  rev: () => true,
};
/** `curl … | sh` written as text (a crontab line, an echo into a file): it runs later, unread. */
const REMOTE_SCRIPT_TEXT = /\b(?:curl|wget)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/;
const DOCUMENTATION = /\.(?:md|mdx|markdown|rst|txt|adoc|html?)$/i;
/** Programs that print their text: a line of one of them alone, writing no file, runs nothing of what it prints (`cat <<EOF`). */
const PRINTERS = new Set(['cat', 'echo', 'printf']);
const onlyPrints = (action: ParsedAction) => action.segments.length === 1 && PRINTERS.has(commandName(action.segments[0]!)) && action.writtenPaths.length === 0;

export const obfuscatedExecutionRule = builtInRule({
  name: 'obfuscated_execution',
  description: 'Decoding text (base64, xxd -r, …) straight into a shell runs code nobody can read; never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    const names = commandNames(action.segments);
    const index = positionsRunning(action.segments, INTERPRETERS).find((i) => {
      if (i === 0 || !action.segments[i]!.pipedFrom) return false;
      const previous = action.segments[i - 1]!;
      return ownEntry(DECODERS, names[i - 1]!)?.(previous.argv) === true;
    });
    if (index === undefined) return null;
    return {
      verdict: 'block',
      score: 0.95,
      factors: ['code_execution', 'obfuscation'],
      reason: 'This decodes hidden text and runs it as a program; nobody can review what it does. It is never allowed.',
      alternative: 'Write the commands out in plain text so that they can be reviewed.',
    };
  },
});

export const downloadAndRunRule = builtInRule({
  name: 'download_and_run',
  description: 'Downloading a script and running it in the same command runs code nobody has read.',
  essential: true,
  reads: 'action',
  check({ action }) {
    // One reading of what a line downloads and runs (line-flows.ts), shared with hidden_code_execution.
    const run = downloadedCodeRun(action.segments);
    if (run) {
      return {
        verdict: 'block',
        score: 0.9,
        factors: ['network_request', 'code_execution', 'unreviewed_code'],
        reason: `This downloads code and runs it straight away (${run.argv.slice(0, 2).join(' ') || 'through a descriptor'}): code nobody has read runs with your rights.`,
        alternative: 'Download the script, read it (or show it to the user), then run it as a separate step.',
      };
    }
    // Documentation tells a person how to install (a README's `curl … | sh`); it runs nothing by itself.
    const documentation = action.writtenPaths.length > 0 && action.writtenPaths.every((p) => DOCUMENTATION.test(p));
    const content = action.input['content'];
    // A patch installs only what it adds: a line it restates was there before.
    const patch = action.segments.length > 0 && action.segments.every((s) => s.program === 'apply_patch');
    const written = patch && action.command !== undefined ? linesAddedBy(action.command) : (action.command ?? '');
    if ((REMOTE_SCRIPT_TEXT.test(written) && !onlyPrints(action)) || (action.intent !== 'file_read' && !documentation && typeof content === 'string' && REMOTE_SCRIPT_TEXT.test(content))) {
      return {
        verdict: 'block',
        score: 0.9,
        factors: ['network_request', 'code_execution', 'unreviewed_code'],
        reason: 'This installs a command that pipes a download into a shell: it would run code nobody has read, later and repeatedly.',
        alternative: 'Download the script into the project, review it, and run that copy.',
      };
    }
    return null;
  },
});

/** Windows' autostart places: the Run keys of the registry and the Startup folders. */
const AUTOSTART_KEY = /\\+currentversion\\+(?:run|runonce|runservices)\b|\\+winlogon\b.*\b(?:userinit|shell)\b|\\+image file execution options\\/i;
const AUTOSTART_PATH = /\/start menu\/programs\/startup(?:\/|$)|^(?:~|\/home\/[^/]+|\/root)\/\.config\/autostart(?:\/|$)|^\/etc\/(?:rc\.local|init\.d\/|xdg\/autostart\/)/i;
/**
 * Where units and agents are read from: the system's, and the user's own under the home (a dotfiles project that
 * keeps `home/.config/systemd/user/` in its tree installs nothing by writing there).
 */
const UNIT_PATH = /^\/etc\/(?:cron[^/]*|systemd)\/|^(?:~|\/home\/[^/]+|\/root)\/\.config\/systemd\/|^(?:~|\/users\/[^/]+)?\/library\/launch(?:agents|daemons)\//i;
/** Windows programs that schedule or register what runs later, and the arguments that make them do it (`schtasks /create`, `sc create`). */
const WINDOWS_SCHEDULERS: Record<string, RegExp> = {
  schtasks: /^\/(?:create|change)\b/i,
  sc: /^(?:create|config)\b/i,
  'register-scheduledtask': /^/,
  'set-scheduledtask': /^/,
  'new-service': /^/,
  'register-wmievent': /^/,
};
const REGISTRY_WRITERS = new Set(['reg', 'new-itemproperty', 'set-itemproperty', 'new-item', 'set-item']);
const writesRegistry = (command: WindowsCommand, key: RegExp) => REGISTRY_WRITERS.has(command.program) && (command.program !== 'reg' || /^add\b/i.test(command.args)) && key.test(command.args);

/** Programs that schedule work on Linux and macOS. */
const SCHEDULERS = new Set(['crontab', 'systemctl', 'launchctl', 'at', 'batch', 'update-rc.d', 'chkconfig']);

/** The scheduler, service manager or autostart entry a line sets up, as it is written. */
function scheduledBy(action: ParsedAction): string | undefined {
  for (const segment of action.segments) {
    const cmd = commandName(segment);
    const windows = ownEntry(WINDOWS_SCHEDULERS, segment.program);
    if (!windows && !SCHEDULERS.has(cmd)) continue;
    const args = segment.argv.slice(1);
    const operands = args.filter((a) => !a.startsWith('-'));
    const enables =
      (cmd === 'crontab' && !args.includes('-l')) ||
      (cmd === 'systemctl' && ['enable', 'link', 'edit'].includes(operands[0] ?? '')) ||
      (cmd === 'launchctl' && ['load', 'bootstrap', 'submit'].includes(operands[0] ?? '')) ||
      // `at -l` lists the queue, `-r`/`-d` remove a job, `-c` prints one: nothing is scheduled.
      (cmd === 'at' && !args.some((a) => /^-[a-zA-Z]*[lrdc]/.test(a) || a === '--help' || a === '-V')) ||
      cmd === 'batch' ||
      (cmd === 'update-rc.d' && operands.some((a) => a === 'defaults' || a === 'enable')) ||
      (cmd === 'chkconfig' && operands.includes('on'));
    // A cmdlet written without a backslash or a variable is not split as a Windows line: bash's reading of it is whole.
    if (enables || (windows && windows.test(args.join(' ')))) return segment.argv.join(' ').slice(0, 120);
  }
  for (const command of windowsCommands(action)) {
    const verb = ownEntry(WINDOWS_SCHEDULERS, command.program);
    if ((verb && verb.test(command.args)) || writesRegistry(command, AUTOSTART_KEY)) return `${command.program} ${command.args}`.slice(0, 120);
  }
  return undefined;
}

export const persistenceInstallRule = builtInRule({
  name: 'persistence_install',
  description:
    'Setting up what runs later or at every login (crontab, systemd units, launchd, init scripts, Windows scheduled tasks, services, Run keys and Startup folders, desktop autostart entries) outlives the session and needs approval.',
  reads: 'action',
  check({ action }) {
    const hit = scheduledBy(action);
    const unit = action.writtenPaths.find((p) => UNIT_PATH.test(p) || AUTOSTART_PATH.test(p));
    if (!hit && !unit) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['persistence', 'system_modification'],
      reason: `${hit ?? unit} sets up work that keeps running after this session ends. A person must approve it.`,
      alternative: 'Run the task once now, or describe the schedule the user should set up.',
    };
  },
});

/** `[Environment]::SetEnvironmentVariable('Path', $p, 'User')` (or Machine): the .NET call that writes the registry's environment. */
const DOTNET_PERSISTENT_VARIABLE = /\[(?:system\.)?environment\]::setenvironmentvariable\s*\((?=[^)]*(?:['"](?:user|machine)['"]|environmentvariabletarget\]::(?:user|machine)))/i;
/** The registry keys Windows reads every program's environment from. */
const ENVIRONMENT_KEY = /\b(?:hkcu|hkey_current_user):?\\+environment\b|\b(?:hklm|hkey_local_machine):?\\+system\\+currentcontrolset\\+control\\+session manager\\+environment\b/i;

/** What changes the environment of every later program of the user or the machine, and whether it rewrites PATH with setx. */
function persistentVariable(action: ParsedAction): { shown: string; setxPath: boolean } | undefined {
  const setx = (args: string, shown: string) => (/\S\s+\S/.test(args) && !args.includes('/?') ? { shown, setxPath: /^(?:\/m\s+)?["']?path["']?\s/i.test(args) } : undefined);
  // A cmd or PowerShell line as they split it first: bash's reading of it drops its backslashes.
  for (const command of windowsCommands(action)) {
    const shown = `${command.program} ${command.args}`.slice(0, 80);
    const set = command.program === 'setx' ? setx(command.args, shown) : undefined;
    if (set) return set;
    if (writesRegistry(command, ENVIRONMENT_KEY)) return { shown, setxPath: false };
  }
  for (const segment of action.segments) {
    const cmd = segment.program;
    if (cmd === 'launchctl' && segment.argv[1] === 'setenv') return { shown: segment.argv.slice(0, 3).join(' '), setxPath: false };
    // `setx NODE_ENV production`, written without a backslash or a variable, is not split as a Windows line.
    const set = cmd === 'setx' ? setx(segment.argv.slice(1).join(' '), segment.argv.join(' ').slice(0, 80)) : undefined;
    if (set) return set;
  }
  return action.command !== undefined && DOTNET_PERSISTENT_VARIABLE.test(action.command) ? { shown: '[Environment]::SetEnvironmentVariable(…, User or Machine)', setxPath: false } : undefined;
}

export const persistentEnvironmentRule = builtInRule({
  name: 'persistent_environment',
  description:
    "Changing the environment of every later program of the user or the machine (setx, [Environment]::SetEnvironmentVariable with User or Machine, the registry's Environment keys, launchctl setenv) warns; rewriting PATH with setx, which cuts it at 1,024 characters and copies the machine's PATH into the user's, needs approval.",
  reads: 'action',
  check({ action }) {
    const hit = persistentVariable(action);
    if (!hit) return null;
    const alternative = 'Set the variable for this command or this session only ($env:NAME = … in PowerShell, set NAME=… in cmd, export NAME=… in a POSIX shell), or tell the user what to add.';
    if (hit.setxPath) {
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['persistence', 'system_modification'],
        reason: `${hit.shown} rewrites the user's PATH for every program from now on: setx cuts it at 1,024 characters and writes the expanded %PATH% (the machine's entries too) into the user's. A person must approve it.`,
        alternative,
      };
    }
    return {
      verdict: 'warn',
      score: 0.6,
      factors: ['persistence'],
      reason: `${hit.shown} changes the environment of every program the user starts from now on, not only this session's. Make sure the task calls for it and tell the user.`,
      alternative,
    };
  },
});
