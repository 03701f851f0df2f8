import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * PostgreSQL without installing PostgreSQL: PGlite (PostgreSQL compiled to WebAssembly) served over the
 * wire protocol on a loopback port. It serves one connection at a time, so clients use a pool of one.
 * For the demo and development; production points DATABASE_URL at a real server.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly port: number,
  ) {}

  static async start(options: { dataDir: string; port: number }): Promise<EmbeddedPostgres> {
    mkdirSync(options.dataDir, { recursive: true });
    const db = await PGlite.create(options.dataDir);
    const server = new PGLiteSocketServer({ db, port: options.port, host: '127.0.0.1' });
    try {
      await server.start();
    } catch (error) {
      // The data directory is free again for a start on another port.
      await db.close();
      throw error;
    }
    return new EmbeddedPostgres(db, server, options.port);
  }

  /** Any user, password and database name work; PGlite has one database. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}
