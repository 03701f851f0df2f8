import { redactText } from '@warden/secrets';
import { builtInRule } from './built-in-rule.js';
import { isExternalUrl } from './network-destination.js';

export const warnExternalNetworkRule = builtInRule({
  name: 'warn_external_network',
  description: 'A network request that leaves the machine and its private network (web searches included).',
  reads: 'action',
  check({ action }) {
    if (!action.intents.includes('network_request')) return null;
    let target = action.urls.find(isExternalUrl);
    if (target === undefined && action.searchQuery !== undefined) {
      const query = action.searchQuery;
      target = query ? `a web search ("${query.slice(0, 120)}")` : 'a web search';
    }
    if (target === undefined) return null;
    return {
      verdict: 'warn',
      score: 0.5,
      factors: ['network_request', 'external'],
      // A URL may carry a token: the reason never repeats it.
      reason: `External network request to ${redactText(target).value}. Make sure the task needs it, and send nothing private (code, data, credentials).`,
    };
  },
});
