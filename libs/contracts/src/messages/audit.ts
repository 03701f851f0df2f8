import Type from 'typebox';
import { defineMessage } from '../envelope.js';

export const AUDIT_QUERIES = [
  'session_timeline',
  'trace_events',
  'gate_events',
  'gate_stats',
  'cost_breakdown',
  'breaker_history',
  'paused_sessions',
  'incidents',
  'chain_verify',
  'retention_run',
] as const;

export const AuditQuery = defineMessage({
  type: 'audit.query',
  version: 1,
  channel: 'audit_query',
  summary:
    'A query against the audit store, answered with audit.result. chain_verify checks the hash chain (of one session with params.session_id, else of all) and retention_run deletes what is past its retention, in bounded batches.',
  payload: Type.Object({
    query: Type.Enum([...AUDIT_QUERIES]),
    params: Type.Record(Type.String(), Type.Unknown()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  }),
});

export const AuditResult = defineMessage({
  type: 'audit.result',
  version: 1,
  channel: 'audit_query',
  summary: 'The answer to an audit.query.',
  payload: Type.Object({
    query: Type.Enum([...AUDIT_QUERIES]),
    rows: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 1000 }),
    next_cursor: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 2000 })),
  }),
});
