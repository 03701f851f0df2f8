import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, WardenNatsServer } from '@warden/local-runtime';
import { onFreePorts } from './suite-ports.js';

/** A port another program holds while warden up starts. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, server };
}

describe('warden up starts its servers on ports another program may take first', () => {
  let held: { port: number; server: Server };
  let dir: string;
  beforeEach(async () => {
    held = await holdPort();
    dir = mkdtempSync(join(tmpdir(), 'warden-ports-'));
  });
  afterEach(async () => {
    await new Promise((resolve) => held.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts nats-server again on free ports when its monitoring port was taken after the look (nats-server's own error)", async () => {
    const starts: number[] = [];
    const start = (port: number, monitorPort: number) => {
      starts.push(monitorPort);
      return WardenNatsServer.start({
        dir,
        port,
        monitorPort,
        partitions: 1,
        service: { user: 'warden', password: 'service-secret' },
        agents: [],
      });
    };
    const nats = await onFreePorts(
      async () => start(await freePort(), held.port),
      async () => start(await freePort(), await freePort()),
    );
    try {
      expect(starts).toHaveLength(2);
      expect(starts[0]).toBe(held.port);
      expect(starts[1]).not.toBe(held.port);
      const response = await fetch(`http://127.0.0.1:${starts[1]}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      await nats.stop();
    }
  });

  it("tries a listener's EADDRINUSE again on a free port", async () => {
    const listen = (port: number) =>
      new Promise<Server>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve(server));
      });
    const server = await onFreePorts(() => listen(held.port), async () => listen(await freePort()));
    expect((server.address() as { port: number }).port).not.toBe(held.port);
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives up after three starts, and never retries a failure that is not a taken port', async () => {
    let calls = 0;
    const taken = () => {
      calls++;
      return Promise.reject(Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${held.port}`), { code: 'EADDRINUSE' }));
    };
    await expect(onFreePorts(taken, taken)).rejects.toThrow(/EADDRINUSE/);
    expect(calls).toBe(3);

    calls = 0;
    const broken = () => {
      calls++;
      return Promise.reject(new Error('nats-server exited with 1: bad configuration'));
    };
    await expect(onFreePorts(broken, broken)).rejects.toThrow(/bad configuration/);
    expect(calls).toBe(1);
  });
});
