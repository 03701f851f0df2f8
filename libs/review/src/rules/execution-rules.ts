import { commandName, INTERPRETERS } from '../parsing/command-facts.js';
import { commandNames, positionsRunning, segmentsRunning } from '../parsing/segment-index.js';
import { builtInRule } from './built-in-rule.js';
import { downloadedCodeRun } from './line-flows.js';
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
/** The programs persistenceInstallRule reads. */
const SCHEDULERS = new Set(['crontab', 'systemctl', 'launchctl', 'at', 'batch']);

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
    if (REMOTE_SCRIPT_TEXT.test(action.command ?? '') || (action.intent !== 'file_read' && !documentation && typeof content === 'string' && REMOTE_SCRIPT_TEXT.test(content))) {
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

export const persistenceInstallRule = builtInRule({
  name: 'persistence_install',
  description: 'Scheduling commands (crontab, systemd units, launchd) outlives the session and needs approval.',
  reads: 'action',
  check({ action }) {
    const hit = segmentsRunning(action.segments, SCHEDULERS).find((s) => {
      const cmd = commandName(s);
      if (cmd === 'crontab') return !s.argv.includes('-l');
      if (cmd === 'systemctl') return ['enable', 'link', 'edit'].includes(s.argv[1] ?? '');
      if (cmd === 'launchctl') return ['load', 'bootstrap', 'submit'].includes(s.argv[1] ?? '');
      return cmd === 'at' || cmd === 'batch';
    });
    const unit = action.writtenPaths.find((p) => /^\/etc\/(?:cron[^/]*|systemd)\/|\/\.config\/systemd\/|\/Library\/Launch(?:Agents|Daemons)\//.test(p));
    if (!hit && !unit) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['persistence', 'system_modification'],
      reason: `${hit ? hit.argv.join(' ') : unit} schedules work that keeps running after this session ends. A person must approve it.`,
      alternative: 'Run the task once now, or describe the schedule the user should set up.',
    };
  },
});
