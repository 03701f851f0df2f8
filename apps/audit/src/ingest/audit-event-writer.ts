import { TransientError } from '@warden/messaging';
import type { DataSource, QueryDeepPartialEntity } from 'typeorm';
import { AuditEvent } from '../database/audit-event.entity.js';
import { isConnectionError } from '../database/audit-data-source.js';

export type AuditEventRow = Omit<AuditEvent, 'recordedAt'>;

export interface WriteResult {
  /** Rows that could not be stored, with the database's reason. */
  refused: Map<string, Error>;
}

/**
 * Writes audit rows with one multi-row insert per batch, ignoring ids already stored (a redelivered
 * message never makes a second row). When the database is unreachable it throws TransientError, so the
 * messages stay unacknowledged and are redelivered later. When the database refuses the batch, rows are
 * retried one by one so that one bad row does not hold back the others.
 */
export class AuditEventWriter {
  constructor(private readonly dataSource: DataSource) {}

  async write(rows: AuditEventRow[]): Promise<WriteResult> {
    const refused = new Map<string, Error>();
    try {
      await this.insert(rows);
    } catch (error) {
      if (isConnectionError(error)) throw new TransientError(`database unavailable: ${(error as Error).message}`, { cause: error });
      for (const row of rows) {
        try {
          await this.insert([row]);
        } catch (rowError) {
          if (isConnectionError(rowError)) throw new TransientError(`database unavailable: ${(rowError as Error).message}`, { cause: rowError });
          refused.set(row.id, rowError as Error);
        }
      }
    }
    return { refused };
  }

  private async insert(rows: AuditEventRow[]): Promise<void> {
    // jsonb columns hold arbitrary JSON, which TypeORM's deep-partial typing cannot express.
    const values = rows as QueryDeepPartialEntity<AuditEvent>[];
    await this.dataSource.createQueryBuilder().insert().into(AuditEvent).values(values).orIgnore().execute();
  }
}
