import { builtInRule } from './built-in-rule.js';
import { CI_FILE } from './ci-files.js';
import { isCredentialStorePath } from '@warden/actions';
import { editedText } from './edited-text.js';

/** Programs that print a file they are given. */
const PRINTS_FILE = /(?:^|[\s;&|("'])(?:sudo\s+)?(?:cat|head|tail|less|more|type|get-content|gc|base64|xxd|od|strings|jq)(?=\s)/i;
/** Absolute and home paths on a line of a step (`/root/.openclaw/…/auth.json`, `~/.aws/credentials`, `$HOME/.kube/config`). */
const PATHS = /(?:~|\$\{?HOME\}?|\/)[^\s'"`|;&<>()]*/g;

/**
 * A CI step written to print a credential file: on the runner, or on a server it reaches over ssh, the file's
 * contents go to the pipeline's log, which everyone who can see the repository's runs reads (all the world,
 * for a public repository). CI services mask the secrets they were given, not files on a machine.
 */
export const ciLogExposureRule = builtInRule({
  name: 'ci_log_exposure',
  description:
    "A CI step written to print a credential file (`cat ~/.aws/credentials`, a tool's auth.json, on the runner or over ssh) puts it in the pipeline's log, read by everyone who can see the runs: needs approval.",
  reads: 'action',
  check({ action }) {
    const file = action.writtenPaths.find((p) => CI_FILE.test(p));
    if (!file) return null;
    const { before, after } = editedText(action.input);
    const kept = new Set(before.split('\n').map((l) => l.trim()));
    for (const line of after.split('\n')) {
      if (kept.has(line.trim()) || !PRINTS_FILE.test(line)) continue;
      const store = line.match(PATHS)?.find((p) => isCredentialStorePath(p.replace(/^\$\{?HOME\}?/, '~').toLowerCase()));
      if (!store) continue;
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['secrets', 'exfiltration'],
        reason: `A step of ${file} prints ${store}: its credentials go into the pipeline's log, read by everyone who can see the runs. A person must approve it.`,
        alternative: 'Check the file without printing it (test -s, its size, the names of its keys with jq keys), or ask the user to look on the machine.',
      };
    }
    return null;
  },
});
