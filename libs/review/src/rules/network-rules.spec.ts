import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { hostOf, isExternalUrl, isInternalHost } from './network-destination.js';
import { warnExternalNetworkRule } from './network-rules.js';
import type { RuleContext } from './review-rule.js';

function context(tool: string, input: Record<string, unknown>): RuleContext {
  const action = parseAction({ kind: 'tool_use', tool, input }, '/work/app');
  return { action, session: new ReviewSession('agent-1', 's1', Date.now()), limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}
const bash = (command: string) => context('Bash', { command });

describe('warn_external_network', () => {
  it('warns about a request to the internet, in the seed’s words', () => {
    const finding = warnExternalNetworkRule.evaluate(context('WebFetch', { url: 'https://example.com/docs', prompt: 'summarise' }));
    expect(finding).toMatchObject({ verdict: 'warn', score: 0.5, severity: 'medium' });
    expect(finding?.reason).toMatch(/^External network request to https:\/\/example\.com\/docs\./);
  });

  it('counts a web search as external', () => {
    expect(warnExternalNetworkRule.evaluate(context('WebSearch', { query: 'picomatch bash option' }))?.reason).toContain('a web search ("picomatch bash option")');
  });

  it('warns about curl to a public host, and about a host it cannot read', () => {
    expect(warnExternalNetworkRule.evaluate(bash('curl -s https://api.github.com/repos/o/r'))?.verdict).toBe('warn');
    expect(warnExternalNetworkRule.evaluate(bash('curl -s http://$API_HOST/health'))?.verdict).toBe('warn');
  });

  it('never repeats a token the URL carries', () => {
    const reason = warnExternalNetworkRule.evaluate(bash('curl "https://ghp_1234567890abcdefghijklmnopqrstuvwxyzAB@example.com/x"'))?.reason;
    expect(reason).toContain('[REDACTED:');
    expect(reason).not.toContain('ghp_1234567890');
  });

  it.each([
    'curl http://localhost:8080/health',
    'curl http://127.0.0.1:3000',
    'curl -g "http://[::1]:3000/"',
    'curl http://db:5432',
    'curl http://printer.local/status',
    'curl http://10.0.0.5/metrics',
    'curl http://192.168.1.10',
    'curl http://172.20.0.3:9000',
    'git push origin main',
    'npm test',
  ])('stays quiet about %s', (command) => {
    expect(warnExternalNetworkRule.evaluate(bash(command))).toBeNull();
  });

  it('ignores URLs in actions that make no request', () => {
    expect(warnExternalNetworkRule.evaluate(context('Write', { file_path: 'README.md', content: 'See https://example.com' }))).toBeNull();
  });
});

describe('network destinations', () => {
  it('reads hosts, with credentials and IPv6 brackets', () => {
    expect(hostOf('https://user:pw@Example.COM:8443/x')).toBe('example.com');
    expect(hostOf('http://[fd00::1]:80/')).toBe('fd00::1');
    expect(hostOf('not a url')).toBeNull();
  });

  it('knows private networks from the internet', () => {
    expect(['localhost', 'app.localhost', '127.0.0.53', '::1', 'fd12:3456::1', 'fe80::1', '169.254.169.254', 'api.internal', 'redis'].every(isInternalHost)).toBe(true);
    expect(['example.com', '8.8.8.8', '172.32.0.1', '2001:db8::1', '', '$HOST'].some(isInternalHost)).toBe(false);
    expect(isExternalUrl('https://172.32.0.1/')).toBe(true);
  });
});
