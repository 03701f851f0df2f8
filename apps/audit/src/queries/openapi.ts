/**
 * OpenAPI 3.1 description of the audit query API, served at GET /audit/openapi.json. A test compares
 * its operations with the controller's routes, so that neither changes alone.
 */
const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const q = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }, required = false) => ({ name, in: 'query', required, description, schema });
const path = (name: string, pattern: string) => ({ name, in: 'path', required: true, schema: { type: 'string', pattern } });

const TOKEN = '^[A-Za-z0-9_-]{1,128}$';
const page = [
  q('limit', 'Rows per page, 1-1000.', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
  q('cursor', 'The next_cursor of the previous page.', { type: 'string', maxLength: 512 }),
];
const since = q('since', 'Only events at or after this time (ISO 8601).', { type: 'string', format: 'date-time' });
const until = q('until', 'Only events before this time (ISO 8601).', { type: 'string', format: 'date-time' });
const session = q('session_id', 'Only this session.', { type: 'string', pattern: TOKEN });
const trace = q('trace_id', 'Only this trace.');

const AUTH_RESPONSES = {
  '401': {
    description: 'No or bad credentials: `missing_credentials`, `malformed_authorization`, `invalid_token`, `session_expired`, `operator_id_mismatch`.',
    content: json(ref('Error')),
  },
  '403': { description: "`forbidden`: the operator's role may not (queries need viewer, retention admin).", content: json(ref('Error')) },
};

const get = (summary: string, description: string, parameters: unknown[], paged = true) => ({
  get: {
    summary,
    description,
    tags: ['audit'],
    parameters: [...parameters, ...(paged ? page : [])],
    responses: {
      '200': { description: 'The rows, oldest first unless said otherwise; `next_cursor` when there are more.', content: json(ref('Page')) },
      '400': { description: 'A parameter is unknown, missing or malformed: `{"status":"error","reason":"invalid_param: ..."}`.', content: json(ref('Error')) },
      ...AUTH_RESPONSES,
    },
  },
});

export const AUDIT_OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Warden audit: query API',
    version: '1.0.0',
    description:
      'Read side of the audit store (seed 002 §10.2): session timelines, trace events, gate events and approval statistics, cost ' +
      'breakdowns, breaker trip history, paused sessions, incidents; the hash chain check and a retention run. The same queries ' +
      'are answered over NATS request/reply on `warden.query.audit` (audit.query / audit.result). Every call authenticates an operator ' +
      'with `Authorization: Bearer <token>` (on the bus: the same header on the request); queries need the viewer role, retention admin.',
  },
  security: [{ operatorToken: [] }],
  paths: {
    '/audit/sessions/{session_id}/timeline': get(
      "A session's timeline",
      'Every event of the session in the order it happened (actions, verdicts, decisions, outcomes, patterns, interventions, gate and HITL events). ' +
        'HITL intervention records sit at the time the command took effect (FR-11.11); rows of one pause carry the same `pause_window`.',
      [path('session_id', TOKEN)],
    ),
    '/audit/traces/{trace_id}/events': get('Events of a trace', 'The proposal, verdict, decision, outcome and what else shares the trace id.', [path('trace_id', '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$')]),
    '/audit/gates/events': get('Gate events', 'gate.requested / responded / escalated and hitl.paused / resumed.', [session, trace, q('gate_id', 'Only this gate.'), since, until]),
    '/audit/gates/stats': get(
      'Gate approval statistics',
      'Per gate and over all gates (`gate_id: "*"`): requested, approved, rejected, timed out, escalated, approval rate, mean response time.',
      [q('gate_id', 'Only this gate.'), since, until],
      false,
    ),
    '/audit/costs': get('Cost breakdown', 'Total, by phase and by model, of a trace, a session or a period (one of session_id, trace_id, since is required).', [session, trace, since, until], false),
    '/audit/breakers/trips': get('Breaker trip history', 'Newest first.', [q('breaker', 'iteration, cost, time or error_rate.', { type: 'string', enum: ['iteration', 'cost', 'time', 'error_rate'] }), session, since, until]),
    '/audit/sessions/paused': get('Paused sessions', 'Sessions whose last HITL change was a pause, oldest first.', []),
    '/audit/incidents': get('Incidents', 'Incident reports of emergency stops, newest first.', [session, q('severity', 'low, medium, high or critical.', { type: 'string', enum: ['low', 'medium', 'high', 'critical'] }), since, until]),
    '/audit/chain/verify': get(
      'Verify the hash chain',
      'Recomputes the hash chain of one session (session_id) or of all; the row reports ok, what was checked, and the first broken link of each broken session.',
      [session],
      false,
    ),
    '/audit/retention/run': {
      post: {
        summary: 'Run retention now',
        description: 'Deletes what is past its table’s retention, in bounded batches; reports what was deleted per table.',
        tags: ['audit'],
        responses: { '200': { description: 'What the run deleted.', content: json(ref('Page')) }, ...AUTH_RESPONSES },
      },
    },
    '/audit/openapi.json': { get: { summary: 'This document', tags: ['audit'], security: [], responses: { '200': { description: 'OpenAPI 3.1' } } } },
  },
  components: {
    securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer', description: "An operator's API token (`warden operator token <id>`) or console login." } },
    schemas: {
      Page: {
        type: 'object',
        required: ['query', 'rows'],
        properties: {
          query: { type: 'string' },
          rows: { type: 'array', items: { type: 'object' } },
          next_cursor: { type: 'string' },
        },
      },
      Error: { type: 'object', required: ['status', 'reason'], properties: { status: { const: 'error' }, reason: { type: 'string' }, detail: { type: 'string' } } },
    },
  },
};
