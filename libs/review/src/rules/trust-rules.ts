import { commandName } from '../parsing/command-facts.js';
import { segmentsRunning } from '../parsing/segment-index.js';
import { builtInRule } from './built-in-rule.js';

/** Settings and variables that turn TLS certificate checks off. */
const TLS_OFF_TEXT = /NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0|PYTHONHTTPSVERIFY\s*=\s*['"]?0|GIT_SSL_NO_VERIFY\s*=\s*['"]?(?:1|true)|\bstrict-ssl\s*[= ]\s*false|\bsslVerify\s*[= ]\s*false|\bverify_ssl\s*[= ]\s*false|--trusted-host\b|\btrusted-host\s*=/i;
const INSECURE_FLAGS = new Set(['-k', '--insecure', '--no-check-certificate']);
const DOWNLOADERS = new Set(['curl', 'wget']);

export const tlsVerificationRule = builtInRule({
  name: 'tls_verification_disabled',
  description: 'Turning off TLS certificate checks for a tool or the whole user needs approval; a one-off insecure request warns.',
  reads: 'action',
  check({ action }) {
    const text = action.command ?? (typeof action.input['content'] === 'string' ? action.input['content'] : typeof action.input['new_string'] === 'string' ? action.input['new_string'] : '');
    if (TLS_OFF_TEXT.test(text)) {
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['security_setting', 'tls'],
        reason: 'This turns off TLS certificate checks: every later download or push could be intercepted without anyone noticing. A person must approve it.',
        alternative: 'Fix the certificate problem instead (install the CA certificate, set NODE_EXTRA_CA_CERTS or the tool’s cafile setting).',
      };
    }
    const insecure = segmentsRunning(action.segments, DOWNLOADERS).find((s) => s.argv.some((a) => INSECURE_FLAGS.has(a)));
    if (!insecure) return null;
    return {
      verdict: 'warn',
      score: 0.55,
      factors: ['security_setting', 'tls'],
      reason: `${commandName(insecure)} without certificate checks accepts any server that answers; do not send or trust anything important over it.`,
    };
  },
});
