import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TestNatsServer } from '@warden/testing';
import { BusConnection } from '../src/index.js';

const require = createRequire(import.meta.url);
/** nats.js's own errors module, as its request code reads it (a property looked up at each use). */
const natsErrors = require(join(dirname(require.resolve('@nats-io/nats-core')), 'errors.js')) as { RequestError: new (...args: unknown[]) => Error };

/** Requests through a service's bus connection, over a real nats-server. */
describe('requests on the bus', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  const built: Error[] = [];
  const original = natsErrors.RequestError;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 1 });
    bus = await BusConnection.open(nats.service);
    // Counts the RequestErrors nats.js builds, without changing them.
    natsErrors.RequestError = class extends original {
      constructor(...args: unknown[]) {
        super(...args);
        built.push(this);
      }
    };
  }, 60_000);

  afterAll(async () => {
    natsErrors.RequestError = original;
    await bus?.close();
    await nats?.stop();
  });

  it('are answered without building an error each', async () => {
    const echo = bus.nc.subscribe('bench.echo', { callback: (_error, m) => void m.respond(m.data) });
    try {
      built.length = 0;
      for (let i = 0; i < 200; i++) expect(new TextDecoder().decode((await bus.nc.request('bench.echo', `ping ${i}`)).data)).toBe(`ping ${i}`);
      const acks = await Promise.all(Array.from({ length: 50 }, (_, i) => bus.js.publish(`warden.bus-test.${i}`, 'x').catch((error: Error) => error)));
      // No stream listens there: JetStream answers nothing, and each publish still fails as nats.js says.
      expect(acks.every((a) => a instanceof Error)).toBe(true);
      expect(built.filter((e) => e.message === 'cancelled')).toEqual([]);
    } finally {
      echo.unsubscribe();
    }
  });

  it('that get no answer still fail with the reason', async () => {
    await expect(bus.nc.request('bench.nobody-listens', 'x', { timeout: 500 })).rejects.toThrow(/no responders/i);
    const slow = bus.nc.subscribe('bench.slow', { callback: () => undefined });
    try {
      await expect(bus.nc.request('bench.slow', 'x', { timeout: 200 })).rejects.toThrow(/timeout/i);
    } finally {
      slow.unsubscribe();
    }
  });
});
