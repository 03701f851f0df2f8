import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { EmbeddedPostgres, freePort } from '../src/index.js';

describe('EmbeddedPostgres', () => {
  it('serves PostgreSQL over the wire protocol, with jsonb and ON CONFLICT, and keeps data across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'warden-pglite-'));
    const port = await freePort();
    let db = await EmbeddedPostgres.start({ dataDir, port });
    try {
      let client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('CREATE TABLE event (id text PRIMARY KEY, payload jsonb NOT NULL)');
      await client.query(`INSERT INTO event VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING`, ['a', { n: 1 }, 'a', { n: 2 }]);
      expect((await client.query(`SELECT payload->>'n' AS n FROM event`)).rows).toEqual([{ n: '1' }]);
      await client.end();
      await db.stop();

      db = await EmbeddedPostgres.start({ dataDir, port });
      client = new pg.Client({ connectionString: db.url });
      await client.connect();
      expect((await client.query('SELECT count(*)::int AS n FROM event')).rows).toEqual([{ n: 1 }]);
      await client.end();
    } finally {
      await db.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
