// What the suite's benchmark runs of the audit in its own process (test/bench/src/in-process/audit-benchmark.ts):
// the service's module and configuration, its database set-up, and the rows its ingest inserts, for a raw
// INSERT baseline of the same rows. Exported as @warden/audit/in-process for the benchmark only (eslint.config.mjs).
export { AuditAppModule } from './app.module.js';
export { loadAuditConfig } from './config.js';
export { createAuditDataSource, migrate } from './database/audit-data-source.js';
export { linkEvents } from './domain/chain-links.js';
export { canonicalTexts } from './domain/event-hash.js';
export { EVENT_COLUMNS, EVENT_ROWS_SOURCE, eventRowParameters } from './ingest/event-rows.js';
