import { booleanFromEnv, ConfigurationError, loadServiceRuntime, SERVICE_PORTS } from './service-runtime.js';

describe('the shared service environment', () => {
  it('gives each service its defaults: its own port, info logs, the bus on this machine, 8 partitions', () => {
    const runtime = loadServiceRuntime('breaker', {});
    expect(runtime.http).toEqual({ host: '127.0.0.1', port: SERVICE_PORTS.breaker });
    expect(runtime.logLevel).toBe('info');
    expect(runtime.messaging).toMatchObject({ service: 'breaker', partitions: 8, heartbeatMs: 2_000, leaseMs: 8_000, maxConcurrentHandlers: 256 });
    expect(runtime.messaging.replicaId).toBeUndefined();
    expect(loadServiceRuntime('gate', {}).http.port).toBe(3105);
  });

  it('reads what the environment sets', () => {
    const runtime = loadServiceRuntime('audit', {
      HTTP_HOST: '0.0.0.0',
      HTTP_PORT: '8080',
      LOG_LEVEL: 'debug',
      WARDEN_PARTITIONS: '16',
      WARDEN_REPLICA_ID: 'audit-1',
      WARDEN_LEASE_MS: '2000',
    });
    expect(runtime.http).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(runtime.logLevel).toBe('debug');
    expect(runtime.messaging).toMatchObject({ partitions: 16, replicaId: 'audit-1', leaseMs: 2_000 });
  });

  it('refuses a bad value with the variable and what it got', () => {
    expect(() => loadServiceRuntime('ladder', { WARDEN_PARTITIONS: '0' })).toThrow(new ConfigurationError('WARDEN_PARTITIONS must be an integer >= 1 (got "0")'));
    expect(() => loadServiceRuntime('ladder', { HTTP_PORT: 'http' })).toThrow(ConfigurationError);
    expect(() => loadServiceRuntime('ladder', { LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "loud"\)$/);
    expect(booleanFromEnv({ ON: 'yes', OFF: '0' }, 'ON', false)).toBe(true);
    expect(booleanFromEnv({ ON: 'yes', OFF: '0' }, 'OFF', true)).toBe(false);
    expect(() => booleanFromEnv({ FLAG: 'maybe' }, 'FLAG', true)).toThrow(new ConfigurationError('FLAG must be true or false (got "maybe")'));
  });
});
