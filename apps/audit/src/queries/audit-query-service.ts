import type { DataSource } from 'typeorm';
import { encodeCursor, type AuditQueryRequest, type Position } from '../domain/query-request.js';
import type { ChainVerification } from './chain-verification.js';
import type { RetentionRunner } from '../retention/retention-runner.js';

export interface QueryPage {
  rows: Record<string, unknown>[];
  next_cursor?: string;
}

/** Where a SQL filter collects its conditions and parameters. */
class Filter {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  add(condition: (placeholder: string) => string, value: unknown): this {
    this.params.push(value);
    this.conditions.push(condition(`$${this.params.length}`));
    return this;
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  get where(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? new Date(v).toISOString() : null);

/** What a timeline row is, for a session drill-down: one node kind per family of events. */
export function timelineKind(type: string): string {
  if (type === 'action.proposed') return 'action';
  if (type === 'action.outcome') return 'outcome';
  if (type === 'review.verdict') return 'verdict';
  if (type === 'decision.made') return 'decision';
  if (type === 'pattern.detected') return 'pattern';
  if (type === 'hitl.intervention_recorded') return 'hitl_intervention';
  if (type.startsWith('intervention.') || type === 'incident.created' || type.startsWith('control.')) return 'intervention';
  if (type.startsWith('gate.') || type.startsWith('hitl.')) return 'gate';
  return type.slice(0, type.indexOf('.'));
}

/** An event row as the queries return it. */
function eventRow(r: Record<string, unknown>): Record<string, unknown> {
  return {
    id: r.id,
    type: r.type,
    session_id: r.session_id,
    agent_id: r.agent_id,
    trace_id: r.trace_id,
    ...(r.causation_id ? { causation_id: r.causation_id } : {}),
    at: iso(r.at ?? r.occurred_at),
    ...(r.chain_seq != null ? { chain_seq: Number(r.chain_seq) } : {}),
    payload: r.payload,
  };
}

/**
 * The audit store's read side (seed 002 §10.2 and the session drill-down), shared by the HTTP API and
 * the `warden.query.audit` request/reply subject: each query takes checked parameters, returns at most
 * `limit` rows and a cursor for the next page (keyset pagination on the sort key).
 */
export class AuditQueryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainVerification,
    private readonly retention: RetentionRunner,
  ) {}

  async run(request: AuditQueryRequest): Promise<QueryPage> {
    switch (request.query) {
      case 'session_timeline':
        return this.sessionTimeline(request);
      case 'trace_events':
        return this.events(request, 'audit_event', (f) => f.add((p) => `trace_id = ${p}`, request.params.trace_id), 'asc');
      case 'gate_events':
        return this.events(request, 'audit_gate_event', (f) => this.common(f, request.params), 'asc', ['gate_id', 'request_id']);
      case 'gate_stats':
        return this.gateStats(request);
      case 'cost_breakdown':
        return this.costBreakdown(request);
      case 'breaker_history':
        return this.events(request, 'audit_breaker_trip', (f) => this.common(f, request.params), 'desc', ['breaker', 'reason', 'current_value', 'threshold', 'phase']);
      case 'paused_sessions':
        return this.pausedSessions(request);
      case 'incidents':
        return this.events(request, 'audit_incident', (f) => this.common(f, request.params), 'desc', ['incident_id', 'severity', 'summary']);
      case 'chain_verify':
        return { rows: [{ ...(await this.chain.verify(request.params.session_id)) }] };
      case 'retention_run':
        return { rows: [{ ...(await this.retention.run()) }] };
    }
  }

  private common(f: Filter, params: Record<string, string>): void {
    if (params.session_id) f.add((p) => `session_id = ${p}`, params.session_id);
    if (params.trace_id) f.add((p) => `trace_id = ${p}`, params.trace_id);
    if (params.gate_id) f.add((p) => `gate_id = ${p}`, params.gate_id);
    if (params.breaker) f.add((p) => `breaker = ${p}`, params.breaker);
    if (params.severity) f.add((p) => `severity = ${p}`, params.severity);
    if (params.since) f.add((p) => `occurred_at >= ${p}::timestamptz`, params.since);
    if (params.until) f.add((p) => `occurred_at < ${p}::timestamptz`, params.until);
  }

  private page(rows: Record<string, unknown>[], limit: number, position: (row: Record<string, unknown>) => Position): QueryPage {
    if (rows.length <= limit) return { rows };
    const kept = rows.slice(0, limit);
    return { rows: kept, next_cursor: encodeCursor(position(kept[kept.length - 1]!)) };
  }

  /** Events of a table or view, ordered by time then id, with the view's typed columns beside the payload. */
  private async events(request: AuditQueryRequest, table: string, filter: (f: Filter) => void, order: 'asc' | 'desc', columns: string[] = []): Promise<QueryPage> {
    const f = new Filter();
    filter(f);
    if (request.cursor) {
      const at = f.param(request.cursor.at);
      const key = f.param(request.cursor.key);
      f.conditions.push(`(occurred_at, id) ${order === 'asc' ? '>' : '<'} (${at}::timestamptz, ${key})`);
    }
    const limit = f.param(request.limit + 1);
    const rows = (await this.dataSource.query(
      `SELECT * FROM ${table} ${f.where} ORDER BY occurred_at ${order}, id ${order} LIMIT ${limit}`,
      f.params,
    )) as Record<string, unknown>[];
    return this.page(
      rows.map((r) => ({ ...eventRow(r), ...Object.fromEntries(columns.map((c) => [c, r[c] ?? null])) })),
      request.limit,
      (r) => ({ at: r.at as string, key: r.id as string }),
    );
  }

  /**
   * Everything of a session in the order it happened. HITL intervention records sit at the time the
   * command took effect (FR-11.11), not when their record was published; rows inside a pause (from
   * hitl.paused to hitl.resumed, with the pause and unpause records) carry the pause's number in
   * `pause_window`, so that a drill-down groups them into one node between the last decision before
   * the pause and the first after it.
   */
  private async sessionTimeline(request: AuditQueryRequest): Promise<QueryPage> {
    const params: unknown[] = [request.params.session_id, request.cursor?.at ?? null, request.cursor?.key ?? null, request.limit + 1];
    const rows = (await this.dataSource.query(
      `WITH t AS (
         SELECT id, type, session_id, agent_id, trace_id, causation_id, chain_seq, payload,
                CASE WHEN type = 'hitl.intervention_recorded' AND payload ? 'occurred_at'
                     THEN (payload->>'occurred_at')::timestamptz ELSE occurred_at END AS at
         FROM audit_event WHERE session_id = $1
       ), w AS (
         SELECT t.*, sum(CASE WHEN type = 'hitl.paused' THEN 1 ELSE 0 END) OVER o AS pauses,
                     sum(CASE WHEN type = 'hitl.resumed' THEN 1 ELSE 0 END) OVER o AS resumes
         FROM t WINDOW o AS (ORDER BY at, chain_seq NULLS FIRST, id ROWS UNBOUNDED PRECEDING)
       )
       SELECT w.*, CASE
           WHEN pauses > resumes OR type = 'hitl.resumed' THEN pauses
           WHEN type = 'hitl.intervention_recorded' AND payload->>'command_type' = 'hitl_pause' THEN pauses + 1
           WHEN type = 'hitl.intervention_recorded' AND payload->>'command_type' = 'hitl_unpause' AND pauses > 0 THEN pauses
         END AS pause_window
       FROM w
       WHERE $2::timestamptz IS NULL OR (at, COALESCE(chain_seq, 0), id) > ($2::timestamptz, split_part($3, '|', 1)::bigint, split_part($3, '|', 2))
       ORDER BY at, COALESCE(chain_seq, 0), id LIMIT $4`,
      params,
    )) as Record<string, unknown>[];
    return this.page(
      rows.map((r) => ({ ...eventRow(r), kind: timelineKind(r.type as string), pause_window: r.pause_window == null ? null : Number(r.pause_window) })),
      request.limit,
      (r) => ({ at: r.at as string, key: `${r.chain_seq ?? 0}|${r.id as string}` }),
    );
  }

  /** Approval statistics per gate and over all gates (`gate_id: "*"`), seed 002 §10.2 getGateStats. */
  private async gateStats(request: AuditQueryRequest): Promise<QueryPage> {
    const f = new Filter();
    f.conditions.push('gate_id IS NOT NULL');
    this.common(f, request.params);
    const rows = (await this.dataSource.query(
      `SELECT gate_id,
              count(*) FILTER (WHERE type = 'gate.requested')::int AS requested,
              count(*) FILTER (WHERE type = 'gate.responded' AND approved)::int AS approved,
              count(*) FILTER (WHERE type = 'gate.responded' AND NOT approved)::int AS rejected,
              count(*) FILTER (WHERE type = 'gate.responded' AND outcome = 'timed_out')::int AS timed_out,
              count(*) FILTER (WHERE type = 'gate.escalated')::int AS escalated,
              avg(response_ms) FILTER (WHERE type = 'gate.responded')::float8 AS mean_response_ms
       FROM audit_gate_event ${f.where} GROUP BY ROLLUP (gate_id) ORDER BY gate_id NULLS FIRST`,
      f.params,
    )) as { gate_id: string | null; requested: number; approved: number; rejected: number; timed_out: number; escalated: number; mean_response_ms: number | null }[];
    const all = rows.length ? rows : [{ gate_id: null, requested: 0, approved: 0, rejected: 0, timed_out: 0, escalated: 0, mean_response_ms: null }];
    return {
      rows: all.slice(0, request.limit).map((r) => {
        const total = r.approved + r.rejected;
        return { ...r, gate_id: r.gate_id ?? '*', total, approval_rate: total > 0 ? r.approved / total : 0 };
      }),
    };
  }

  /** Spending of a trace, a session or a period: total, by phase and by model (seed 002 §10.2). */
  private async costBreakdown(request: AuditQueryRequest): Promise<QueryPage> {
    const f = new Filter();
    this.common(f, request.params);
    const rows = (await this.dataSource.query(
      `SELECT GROUPING(phase) AS g_phase, GROUPING(model) AS g_model, phase, model,
              sum(cost_usd)::float8 AS cost_usd, count(*)::int AS events,
              sum(prompt_tokens)::float8 AS prompt_tokens, sum(completion_tokens)::float8 AS completion_tokens
       FROM audit_cost ${f.where} GROUP BY GROUPING SETS ((phase), (model), ())`,
      f.params,
    )) as { g_phase: number; g_model: number; phase: string | null; model: string | null; cost_usd: number; events: number; prompt_tokens: number; completion_tokens: number }[];
    const byPhase: Record<string, number> = {};
    const byModel: Record<string, number> = {};
    let total = { cost_usd: 0, events: 0, prompt_tokens: 0, completion_tokens: 0 };
    for (const r of rows) {
      if (r.g_phase === 1 && r.g_model === 1) total = { cost_usd: r.cost_usd ?? 0, events: r.events, prompt_tokens: r.prompt_tokens ?? 0, completion_tokens: r.completion_tokens ?? 0 };
      else if (r.g_phase === 0) byPhase[r.phase ?? 'unknown'] = r.cost_usd;
      else byModel[r.model ?? 'unknown'] = r.cost_usd;
    }
    return { rows: [{ total_usd: total.cost_usd, events: total.events, prompt_tokens: total.prompt_tokens, completion_tokens: total.completion_tokens, by_phase: byPhase, by_model: byModel }] };
  }

  /** Sessions whose last HITL state change was a pause, oldest pause first. */
  private async pausedSessions(request: AuditQueryRequest): Promise<QueryPage> {
    const rows = (await this.dataSource.query(
      `SELECT * FROM (
         SELECT DISTINCT ON (session_id) session_id, agent_id, type, occurred_at, payload
         FROM audit_event WHERE type IN ('hitl.paused', 'hitl.resumed')
         ORDER BY session_id, occurred_at DESC, chain_seq DESC NULLS LAST
       ) last WHERE type = 'hitl.paused' AND ($1::timestamptz IS NULL OR (occurred_at, session_id) > ($1::timestamptz, $2))
       ORDER BY occurred_at, session_id LIMIT $3`,
      [request.cursor?.at ?? null, request.cursor?.key ?? null, request.limit + 1],
    )) as { session_id: string; agent_id: string; occurred_at: Date; payload: Record<string, unknown> }[];
    return this.page(
      rows.map((r) => ({ session_id: r.session_id, agent_id: r.agent_id, paused_at: iso(r.occurred_at), operator_id: r.payload.operator_id, reason: r.payload.reason, trigger: r.payload.trigger ?? null })),
      request.limit,
      (r) => ({ at: r.paused_at as string, key: r.session_id as string }),
    );
  }
}
