import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, nodeOptionsOf, ServiceProcess, WORKSPACE_ROOT } from '@warden/local-runtime';
import { eventually, TestNatsServer, TestPostgres } from '@warden/testing';

/** Every process of the suite: the seven services, the agent gateway and the console. */
const APPS = ['reviewer', 'pattern-detector', 'intervention-controller', 'breaker', 'gate', 'ladder', 'audit', 'gateway', 'console'] as const;

/**
 * A service stops when told, whatever its dependencies do: under systemd, Docker or Kubernetes a stop
 * that hangs is a stop timeout and a SIGKILL every time. A graceful stop ends with exit status 0; the
 * shutdown timeout's exit is status 1, so 0 shows the stop completed within it.
 */
describe('a service told to stop', () => {
  it('stops gracefully on SIGTERM with NATS and PostgreSQL gone', async () => {
    const nats = await TestNatsServer.start({ partitions: 2 });
    const postgres = await TestPostgres.start();
    const services: ServiceProcess[] = [];
    try {
      const database = await postgres.createDatabase('shutdown');
      for (const app of APPS) {
        const env: Record<string, string> = { LOG_LEVEL: 'warn' };
        if (app === 'audit') env.DATABASE_URL = database;
        // The console only calls the gate when an operator acts.
        if (app === 'console') env.CONSOLE_GATE_URL = 'http://127.0.0.1:9';
        services.push(await ServiceProcess.start({ app, nats: nats.service, partitions: 2, env, readyTimeoutMs: 60_000 }));
      }
      await nats.kill();
      await postgres.stop();
      for (const service of services) process.kill(service.pid!, 'SIGTERM');
      const exits = await Promise.all(services.map(async (service) => [service.app, await service.whenExited()] as const));
      expect(Object.fromEntries(exits)).toEqual(Object.fromEntries(APPS.map((app) => [app, 0])));
    } finally {
      for (const service of services) await service.kill();
      await nats.stop();
      await postgres.destroy();
    }
  }, 180_000);

  it('exits at once on SIGTERM during start-up, while it cannot reach NATS', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...nodeOptionsOf(WORKSPACE_ROOT, 'breaker'), join(WORKSPACE_ROOT, 'apps/breaker/dist/main.js')], {
      env: { ...process.env, NATS_URL: `nats://127.0.0.1:${await freePort()}`, HTTP_PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // It keeps trying to reach NATS, which is not there.
      await eventually('the service to be connecting', () => output, (text) => text.includes('connecting to NATS'), { timeoutMs: 30_000, intervalMs: 50 });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('stopping during start-up');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
