import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/free-port.js';
import { WardenNatsServer } from '../src/warden-nats-server.js';

describe('WardenNatsServer', () => {
  it("serves Go's CPU profile on the profiling port when asked, on loopback", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-nats-prof-'));
    const profPort = await freePort();
    const server = await WardenNatsServer.start({
      dir,
      port: await freePort(),
      profPort,
      partitions: 2,
      service: { user: 'warden', password: 'service-secret' },
      agents: [],
    });
    try {
      const response = await fetch(`http://127.0.0.1:${profPort}/debug/pprof/profile?seconds=1`);
      expect(response.status).toBe(200);
      // A pprof profile is a gzipped protocol buffer.
      const body = new Uint8Array(await response.arrayBuffer());
      expect([body[0], body[1]]).toEqual([0x1f, 0x8b]);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
