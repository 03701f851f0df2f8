import { loadConsoleConfig } from './config.js';

describe('console configuration', () => {
  it('has documented defaults', () => {
    expect(loadConsoleConfig({})).toEqual({
      http: { host: '127.0.0.1', port: 3109 },
      nats: { servers: 'nats://127.0.0.1:4222', user: undefined, password: undefined, name: 'warden-console' },
      logLevel: 'info',
      gateUrl: 'http://127.0.0.1:3105',
      reviewerUrl: 'http://127.0.0.1:3101',
      historyHours: 24,
      maxSessions: 20_000,
      liveIntervalMs: 250,
      cookieSecure: 'auto',
      partitions: 8,
      trustProxy: false,
    });
  });

  it('reads overrides and refuses bad values', () => {
    expect(loadConsoleConfig({ CONSOLE_GATE_URL: 'http://gate:3105/', CONSOLE_REVIEWER_URL: 'http://reviewer:3101/', CONSOLE_COOKIE_SECURE: 'true', HTTP_PORT: '0' })).toMatchObject({
      gateUrl: 'http://gate:3105',
      reviewerUrl: 'http://reviewer:3101',
      cookieSecure: true,
      http: { port: 0 },
    });
    expect(() => loadConsoleConfig({ CONSOLE_GATE_URL: 'gate:3105' })).toThrow(/CONSOLE_GATE_URL/);
    expect(() => loadConsoleConfig({ CONSOLE_REVIEWER_URL: 'reviewer' })).toThrow(/CONSOLE_REVIEWER_URL/);
    expect(() => loadConsoleConfig({ CONSOLE_HISTORY_HOURS: '-1' })).toThrow(/CONSOLE_HISTORY_HOURS/);
    expect(() => loadConsoleConfig({ CONSOLE_COOKIE_SECURE: 'maybe' })).toThrow(/CONSOLE_COOKIE_SECURE/);
  });

  it('trusts the proxies named in CONSOLE_TRUST_PROXY, and refuses what is not an address, a subnet or a hop count', () => {
    expect(loadConsoleConfig({ CONSOLE_TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1']);
    expect(loadConsoleConfig({ CONSOLE_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(() => loadConsoleConfig({ CONSOLE_TRUST_PROXY: 'true' })).toThrow(/"true" is not an address/);
    expect(() => loadConsoleConfig({ CONSOLE_TRUST_PROXY: 'ingress.local' })).toThrow(/CONSOLE_TRUST_PROXY/);
    expect(() => loadConsoleConfig({ CONSOLE_TRUST_PROXY: '0' })).toThrow(/hops must be 1-10/);
  });
});
