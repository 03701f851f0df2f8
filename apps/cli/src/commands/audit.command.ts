import { AUDIT_QUERIES, createMessage, isSubjectToken, NO_SCOPE, parseMessage, requestSubject, type MessageOf, type PayloadOf } from '@warden/contracts';
import { headers } from '@nats-io/transport-node';
import { integerOption, UsageError, type Command } from '../command.js';
import { operatorToken, TOKEN_HELP } from '../operator-token.js';
import { withOperatorBus, type OperatorBus } from '../operator-bus.js';
import { out, style } from '../output.js';

const DEFAULT_TIMEOUT_MS = 60_000;
type QueryName = (typeof AUDIT_QUERIES)[number];

/** What `warden audit …` was asked to do, checked before anything connects. */
export interface AuditRequest {
  action: 'verify' | 'retention' | 'timeline' | 'query';
  query: QueryName;
  params: Record<string, string>;
  limit?: number;
  cursor?: string;
  json: boolean;
  timeoutMs: number;
}

export function parseAuditRequest(values: Record<string, unknown>, positionals: string[]): AuditRequest {
  const [subcommand, ...rest] = positionals;
  const common = { json: values.json === true, timeoutMs: integerOption(values, 'timeout', DEFAULT_TIMEOUT_MS, 1) };
  const limit = values.limit === undefined ? undefined : integerOption(values, 'limit', 100, 1);
  if (limit !== undefined && limit > 1000) throw new UsageError('--limit must be at most 1000');
  const session = values.session as string | undefined;
  if (session !== undefined && !isSubjectToken(session)) throw new UsageError(`--session "${session}" must be 1-128 letters, digits, - or _`);
  const none = (what: string) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument(s) after ${what}: ${rest.join(' ')}`);
  };
  switch (subcommand) {
    case 'verify':
      none('verify');
      return { action: 'verify', query: 'chain_verify', params: session ? { session_id: session } : {}, ...common };
    case 'retention':
      none('retention');
      return { action: 'retention', query: 'retention_run', params: {}, ...common };
    case 'timeline': {
      const [sessionId, ...extra] = rest;
      if (!sessionId) throw new UsageError('warden audit timeline needs the session id');
      if (!isSubjectToken(sessionId)) throw new UsageError(`"${sessionId}" must be 1-128 letters, digits, - or _`);
      if (extra.length) throw new UsageError(`unexpected argument(s): ${extra.join(' ')}`);
      return { action: 'timeline', query: 'session_timeline', params: { session_id: sessionId }, limit: limit ?? 1000, cursor: values.cursor as string | undefined, ...common };
    }
    case 'query': {
      const [name, ...extra] = rest;
      if (!name || !(AUDIT_QUERIES as readonly string[]).includes(name)) throw new UsageError(`warden audit query needs a query name: ${AUDIT_QUERIES.join(', ')}`);
      if (extra.length) throw new UsageError(`unexpected argument(s): ${extra.join(' ')} (parameters go in --param name=value)`);
      const params: Record<string, string> = {};
      for (const item of (values.param as string[] | undefined) ?? []) {
        const at = item.indexOf('=');
        if (at < 1) throw new UsageError(`--param "${item}" is not name=value`);
        params[item.slice(0, at)] = item.slice(at + 1);
      }
      return { action: 'query', query: name as QueryName, params, limit, cursor: values.cursor as string | undefined, ...common, json: true };
    }
    case undefined:
      throw new UsageError('say what to do: verify, retention, timeline or query. Run `warden audit --help`.');
    default:
      throw new UsageError(`unknown audit command "${subcommand}": use verify, retention, timeline or query`);
  }
}

export const auditCommand: Command = {
  name: 'audit',
  summary: 'Verify the audit hash chain, run retention, read timelines and other audit queries',
  help: `Usage:
  warden audit verify [--session ID] [--json]
  warden audit retention [--json]
  warden audit timeline <session> [--limit N] [--cursor C] [--json]
  warden audit query <name> [--param name=value ...] [--limit N] [--cursor C]

The audit service stores every event of the suite in PostgreSQL, each chained to the one before it in
its session by a SHA-256 hash. These commands ask a running audit service over NATS (request/reply on
${requestSubject('audit_query')}).

  verify     recompute the hash chain of one session (--session) or of all; prints the first broken link
             of each broken session (altered, broken_link or missing) and exits 1 when one is broken
  retention  delete now what is past its table's retention (AUDIT_RETENTION), in bounded batches
  timeline   a session's events in the order they happened; HITL interventions at the point of the pause
  query      any audit query, printed as JSON: ${AUDIT_QUERIES.join(', ')}

Options:
  --session ID        verify: only this session
  --param NAME=VALUE  query: a parameter (repeatable), e.g. --param breaker=cost --param since=2026-11-01
  --limit N           rows per page (1-1000)
  --cursor C          the next_cursor of the previous page
  --timeout MS        how long to wait for the answer [${DEFAULT_TIMEOUT_MS}]
  --token-file PATH   file holding your API token [$WARDEN_OPERATOR_TOKEN]
  --json              print the answer as JSON

${TOKEN_HELP} It travels in the request's Authorization header;
queries need a viewer, retention an admin.

Environment: NATS_URL [nats://127.0.0.1:4222], NATS_USER, NATS_PASSWORD (the operator user may send queries).

Examples:
  warden audit verify
  warden audit timeline sess-42
  warden audit query breaker_history --param breaker=cost --param since=2026-11-20`,
  options: {
    session: { type: 'string' },
    param: { type: 'string', multiple: true },
    limit: { type: 'string' },
    cursor: { type: 'string' },
    timeout: { type: 'string' },
    'token-file': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const request = parseAuditRequest(values, positionals);
    const token = operatorToken(values);
    return withOperatorBus('warden-audit-cli', (bus) => ask(bus, request, token));
  },
};

async function ask(bus: OperatorBus, request: AuditRequest, token: string): Promise<number> {
  const payload: PayloadOf<'audit.query'> = {
    query: request.query,
    params: request.params,
    ...(request.limit !== undefined ? { limit: request.limit } : {}),
    ...(request.cursor ? { cursor: request.cursor } : {}),
  };
  const query = createMessage('audit.query', { session_id: NO_SCOPE, agent_id: NO_SCOPE, payload });
  let data: Uint8Array;
  try {
    const h = headers();
    h.set('Authorization', `Bearer ${token}`);
    data = (await bus.nc.request(requestSubject('audit_query'), new TextEncoder().encode(JSON.stringify(query)), { timeout: request.timeoutMs, headers: h })).data;
  } catch (error) {
    out.error(`no answer from the audit service within ${request.timeoutMs / 1000} s (${(error as Error).message}): is it running?`);
    return 1;
  }
  const parsed = parseMessage(data);
  if (!parsed.ok || parsed.message.type !== 'audit.result') {
    out.error(`the audit service answered with something else than an audit.result: ${new TextDecoder().decode(data).slice(0, 500)}`);
    return 1;
  }
  const result = (parsed.message as MessageOf<'audit.result'>).payload;
  if (result.error) {
    out.error(result.error);
    return 1;
  }
  if (request.json) {
    out.line(JSON.stringify(request.action === 'query' || request.action === 'timeline' ? result : result.rows[0], null, 2));
    return request.action === 'verify' && result.rows[0]?.ok !== true ? 1 : 0;
  }
  if (request.action === 'verify') return printVerify(result.rows[0] as unknown as VerifyRow);
  if (request.action === 'retention') return printRetention(result.rows[0] as unknown as RetentionRow);
  for (const row of result.rows as { at: string; kind: string; type: string; pause_window: number | null; payload: Record<string, unknown> }[]) {
    const pause = row.pause_window ? style.yellow(` [pause ${row.pause_window}]`) : '';
    out.line(`${style.dim(row.at)}  ${row.kind.padEnd(17)} ${row.type}${pause}${summary(row.payload)}`);
  }
  if (result.next_cursor) out.line(style.dim(`more: --cursor ${result.next_cursor}`));
  return 0;
}

interface VerifyRow {
  ok: boolean;
  sessions_checked: number;
  links_checked: number;
  broken: { sessionId: string; chainSeq: number; eventId: string | null; problem: string; detail: string }[];
}

function printVerify(row: VerifyRow): number {
  if (row.ok) {
    out.step(`hash chain holds: ${row.sessions_checked} session(s), ${row.links_checked} link(s)`);
    return 0;
  }
  out.error(`hash chain broken in ${row.broken.length}${row.broken.length >= 100 ? '+' : ''} of ${row.sessions_checked} session(s)`);
  for (const b of row.broken) {
    out.line(`  ${style.bold(b.sessionId)} link ${b.chainSeq}${b.eventId ? ` (event ${b.eventId})` : ''}: ${style.red(b.problem)}, ${b.detail}`);
  }
  return 1;
}

interface RetentionRow {
  ran: boolean;
  skipped?: string;
  deleted: Record<string, number>;
  chains_removed: number;
}

function printRetention(row: RetentionRow): number {
  if (!row.ran) {
    out.line(`retention did not run: ${row.skipped ?? 'unknown reason'}`);
    return 0;
  }
  const parts = Object.entries(row.deleted).map(([table, n]) => `${table} ${n}`);
  out.step(`retention deleted ${parts.join(', ') || 'nothing'}; ${row.chains_removed} empty chain(s) removed`);
  return 0;
}

function summary(payload: Record<string, unknown>): string {
  const keys = ['tool', 'verdict', 'decision', 'pattern_type', 'intervention_type', 'command_type', 'breaker', 'gate_id', 'reason'];
  const parts = keys.filter((k) => typeof payload[k] === 'string').map((k) => `${k}=${String(payload[k]).slice(0, 60)}`);
  return parts.length ? `  ${style.dim(parts.join(' '))}` : '';
}
