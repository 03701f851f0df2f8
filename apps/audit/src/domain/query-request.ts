import { AUDIT_QUERIES } from '@warden/contracts';

export type AuditQueryName = (typeof AUDIT_QUERIES)[number];

const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;
const TRACE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const NAME = /^[A-Za-z0-9_.:-]{1,128}$/;
const SEVERITIES = ['low', 'medium', 'high', 'critical'];
const BREAKERS = ['iteration', 'cost', 'time', 'error_rate'];

type ParamKind = 'session' | 'trace' | 'name' | 'time' | 'severity' | 'breaker';

/** The parameters each query takes; `required` ones must be given. */
export const QUERY_PARAMS: Record<AuditQueryName, { optional: Record<string, ParamKind>; required?: Record<string, ParamKind>; oneOf?: string[] }> = {
  session_timeline: { required: { session_id: 'session' }, optional: {} },
  trace_events: { required: { trace_id: 'trace' }, optional: {} },
  gate_events: { optional: { session_id: 'session', trace_id: 'trace', gate_id: 'name', since: 'time', until: 'time' } },
  gate_stats: { optional: { gate_id: 'name', since: 'time', until: 'time' } },
  cost_breakdown: { optional: { session_id: 'session', trace_id: 'trace', since: 'time', until: 'time' }, oneOf: ['session_id', 'trace_id', 'since'] },
  breaker_history: { optional: { breaker: 'breaker', session_id: 'session', since: 'time', until: 'time' } },
  paused_sessions: { optional: {} },
  incidents: { optional: { session_id: 'session', severity: 'severity', since: 'time', until: 'time' } },
  chain_verify: { optional: { session_id: 'session' } },
  retention_run: { optional: {} },
};

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export interface AuditQueryRequest {
  query: AuditQueryName;
  params: Record<string, string>;
  limit: number;
  cursor: Position | null;
}

/** Where a page ended: the sort time and a tiebreaker of the last row. */
export interface Position {
  at: string;
  key: string;
}

export class InvalidQueryError extends Error {}

function checkParam(name: string, kind: ParamKind, raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') throw new InvalidQueryError(`invalid_param: ${name} must be a string`);
  const value = String(raw);
  const ok =
    kind === 'session'
      ? TOKEN.test(value)
      : kind === 'trace'
        ? TRACE.test(value)
        : kind === 'name'
          ? NAME.test(value)
          : kind === 'severity'
            ? SEVERITIES.includes(value)
            : kind === 'breaker'
              ? BREAKERS.includes(value)
              : /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && !Number.isNaN(Date.parse(value));
  if (!ok) {
    const expected =
      kind === 'time'
        ? 'an ISO 8601 date or date-time'
        : kind === 'severity'
          ? SEVERITIES.join(', ')
          : kind === 'breaker'
            ? BREAKERS.join(', ')
            : '1-128 letters, digits, - or _';
    throw new InvalidQueryError(`invalid_param: ${name} must be ${expected}`);
  }
  return kind === 'time' ? new Date(value).toISOString() : value;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.at, position.key])).toString('base64url');
}

export function decodeCursor(cursor: string): Position {
  try {
    const [at, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof key === 'string' && !Number.isNaN(Date.parse(at)) && key.length <= 256) return { at, key };
  } catch {
    // falls through to the error below
  }
  throw new InvalidQueryError('invalid_param: cursor is not one this service returned');
}

/**
 * Checks a query as HTTP or NATS received it: known query, known parameters of the right shape, a limit
 * in 1..1000 and a cursor this service made. Throws InvalidQueryError with the reason.
 */
export function parseQueryRequest(query: unknown, params: Record<string, unknown>, limit?: unknown, cursor?: unknown): AuditQueryRequest {
  if (typeof query !== 'string' || !(AUDIT_QUERIES as readonly string[]).includes(query)) {
    throw new InvalidQueryError(`unknown_query: use ${AUDIT_QUERIES.join(', ')}`);
  }
  const spec = QUERY_PARAMS[query as AuditQueryName];
  const known = { ...spec.optional, ...(spec.required ?? {}) };
  const checked: Record<string, string> = {};
  for (const [name, raw] of Object.entries(params)) {
    if (raw === undefined || raw === '') continue;
    const kind = known[name];
    if (!kind) throw new InvalidQueryError(`unknown_param: ${name} (${query} takes ${Object.keys(known).join(', ') || 'no parameters'})`);
    checked[name] = checkParam(name, kind, raw);
  }
  for (const name of Object.keys(spec.required ?? {})) {
    if (!(name in checked)) throw new InvalidQueryError(`missing_param: ${name}`);
  }
  if (spec.oneOf && !spec.oneOf.some((name) => name in checked)) throw new InvalidQueryError(`missing_param: one of ${spec.oneOf.join(', ')}`);
  if (checked.since && checked.until && checked.since > checked.until) throw new InvalidQueryError('invalid_param: since is after until');
  let pageSize = DEFAULT_LIMIT;
  if (limit !== undefined && limit !== '') {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new InvalidQueryError(`invalid_param: limit must be an integer in 1..${MAX_LIMIT}`);
    pageSize = n;
  }
  if (cursor !== undefined && cursor !== '' && (typeof cursor !== 'string' || cursor.length > 512)) throw new InvalidQueryError('invalid_param: cursor is not one this service returned');
  return { query: query as AuditQueryName, params: checked, limit: pageSize, cursor: typeof cursor === 'string' && cursor ? decodeCursor(cursor) : null };
}
