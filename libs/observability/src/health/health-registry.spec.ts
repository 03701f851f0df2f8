import { HealthRegistry } from './health-registry.js';

describe('HealthRegistry', () => {
  it('is ready when every check is up', async () => {
    const health = new HealthRegistry();
    health.register('nats', () => ({ up: true }));
    expect(await health.readiness()).toEqual({ status: 'ok', checks: { nats: { up: true } } });
  });

  it('reports the failing check, including one that throws', async () => {
    const health = new HealthRegistry();
    health.register('nats', () => ({ up: true }));
    health.register('database', async () => {
      throw new Error('connection refused');
    });
    expect(await health.readiness()).toEqual({
      status: 'unavailable',
      checks: { nats: { up: true }, database: { up: false, detail: 'connection refused' } },
    });
  });
});
