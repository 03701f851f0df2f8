export const INGEST_OPTIONS = Symbol('warden.audit.ingest');

export interface IngestOptions {
  batchSize: number;
  batchWaitMs: number;
}
