import pg from 'pg';
import { BusConnection } from '@warden/messaging';
import { BusRecorder } from './bus-recorder.js';
import { TestNatsServer } from './nats-server.js';
import { TestPostgres } from './postgres.js';

describe('TestNatsServer', () => {
  it('starts provisioned, and keeps JetStream data across a crash and restart', async () => {
    const server = await TestNatsServer.start({ partitions: 2 });
    try {
      let bus = await BusConnection.open(server.service);
      const ack = await bus.js.publish('warden.action.agent-1.sess-1', '{}', { msgID: 'kept' });
      expect(ack.stream).toBe('WARDEN_ACTION');
      await bus.close();
      await server.kill();
      await server.start();
      bus = await BusConnection.open(server.service);
      const stored = await bus.jsm.streams.getMessage('WARDEN_ACTION', { seq: ack.seq });
      expect(stored?.header?.get('Nats-Msg-Id')).toBe('kept');
      await bus.close();
    } finally {
      await server.stop();
    }
  });

  it('refuses to hand out credentials of an agent it does not know', async () => {
    const server = await TestNatsServer.start({ provision: false, agents: ['agent-1'] });
    try {
      expect(server.agent('agent-1').inboxPrefix).toBe('_INBOX_agent-1');
      expect(() => server.agent('agent-9')).toThrow('no agent user agent-9');
    } finally {
      await server.stop();
    }
  });
});

describe('BusRecorder', () => {
  it('waits for the messages a test expects and times out with a count', async () => {
    const server = await TestNatsServer.start({ provision: false });
    const bus = await BusConnection.open(server.service);
    try {
      const recorder = await BusRecorder.start(bus.nc, 'warden.test.>');
      setTimeout(() => bus.nc.publish('warden.test.a', JSON.stringify({ n: 1 })), 20);
      expect((await recorder.waitFor((m) => m.body.n === 1)).subject).toBe('warden.test.a');
      await expect(recorder.waitForCount(2, 100)).rejects.toThrow('1 of 2 messages');
      recorder.stop();
    } finally {
      await bus.close();
      await server.stop();
    }
  });
});

describe('TestPostgres', () => {
  it('serves fresh databases and keeps their data across stop and start', async () => {
    const postgres = await TestPostgres.start();
    try {
      const url = await postgres.createDatabase('harness');
      const query = async (sql: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(sql)).rows;
        } finally {
          await client.end();
        }
      };
      await query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
      await postgres.stop();
      await expect(query('SELECT 1')).rejects.toThrow();
      await postgres.start();
      expect(await query('SELECT n FROM kept')).toEqual([{ n: 42 }]);
    } finally {
      await postgres.destroy();
    }
  });
});
