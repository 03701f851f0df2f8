import { OPERATOR_ID_HEADER, OPERATOR_REJECTION_PROMPT } from '@warden/contracts';

/**
 * OpenAPI 3.1 description of the gate's operator API, served at GET /gateway/openapi.json. A test
 * compares its operations with the routes of the controllers, so that neither changes alone.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const sessionParam = { name: 'session_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } };
const requestParam = { name: 'request_id', in: 'path', required: true, schema: { type: 'string' } };

const unauthorized = {
  description:
    'Checked before the body is read: `missing_credentials` (no `Authorization: Bearer <token>`; the ' +
    `${OPERATOR_ID_HEADER} header alone proves nothing), \`malformed_authorization\`, \`invalid_token\` (unknown, revoked or expired), ` +
    `\`session_expired\`, \`operator_id_mismatch\` (${OPERATOR_ID_HEADER} names another operator than the token authenticates).`,
  content: json(ref('Error')),
};
const forbidden = { description: '`forbidden`: the operator\'s role may not do this (reading needs viewer, every command approver).', content: json(ref('Error')) };

const common = {
  '401': unauthorized,
  '403': forbidden,
  '400': { description: 'The body is not JSON (`invalid_json`).', content: json(ref('Error')) },
  '413': { description: 'The body is over 1 MiB (`payload_too_large`).', content: json(ref('Error')) },
  '503': { description: 'NATS is unreachable.', content: json(ref('Error')) },
};

const commandResponses = (extra: Record<string, string>) => ({
  '200': { description: 'Applied by the replica that owns the session: `{"status":"ok"}`, with a `note` when nothing had to change.', content: json(ref('Ok')) },
  '202': { description: 'Stored on the gate_command channel; the owner of the session applies it when it is back.', content: json(ref('Accepted')) },
  '422': {
    description: [
      'Refused, with the reason: `missing_required_field: <name>`, `invalid_field: <name> (...)`, `unknown_command_type`, `command_type_mismatch: ...`, `session_id_mismatch: ...`',
      ...Object.values(extra),
    ].join('; '),
    content: json(ref('Error')),
  },
  ...common,
});

const command = (summary: string, description: string, body: string, extra: Record<string, string> = {}, responses = commandResponses(extra)) => ({
  post: {
    summary,
    description,
    tags: ['hitl'],
    parameters: [sessionParam],
    requestBody: { required: true, content: json(ref(body)) },
    responses,
  },
});

const base = {
  agent_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$', description: 'The agent whose messages of the session the command addresses (FR-11.2 buffers per session and agent). May also be given as the `agent_id` query parameter.' },
  timestamp: { type: 'string', format: 'date-time', description: 'When the operator issued the command, ISO 8601 UTC.' },
  type: { type: 'string', description: 'Optional here (the endpoint gives it); when present it must match.' },
  session_id: { type: 'string', description: 'Optional here (the path gives it); when present it must match.' },
};

export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Warden gate: operator API',
    version: '1.0.0',
    description:
      'Human-in-the-loop control of agent sessions (FRD-011) and human gate approvals (seed 002 §6). Every call authenticates its operator with ' +
      '`Authorization: Bearer <token>` (`warden operator token <id>`); reading needs the viewer role, every command approver. The ' +
      `${OPERATOR_ID_HEADER} header of FR-11.6 is accepted beside the token when it names the operator the token authenticates. ` +
      "A command is applied by the gate replica that owns the session, in order with the session's messages; any replica accepts it.",
  },
  security: [{ operatorToken: [] }],
  tags: [
    { name: 'hitl', description: 'Pause, rewrite, inject, unpause (FR-11.4, FR-11.5) and the operator actions of FR-11.10.' },
    { name: 'gates', description: 'Human gates and their approval requests.' },
  ],
  paths: {
    '/gateway/sessions': {
      get: {
        summary: 'Paused sessions',
        description: 'Every paused session with what paused it, how many messages it holds and its pending gate requests.',
        tags: ['hitl'],
        responses: { '200': { description: 'The paused sessions.', content: json({ type: 'object', properties: { sessions: { type: 'array', items: ref('SessionSummary') } } }) }, '401': common['401'], '403': common['403'] },
      },
    },
    '/gateway/sessions/{session_id}': {
      get: {
        summary: 'A session and its buffered messages',
        description: 'The relay state of a session and agent and the buffered messages in arrival order, each with the content a rewrite replaces and its SHA-256.',
        tags: ['hitl'],
        parameters: [sessionParam, { name: 'agent_id', in: 'query', required: false, schema: { type: 'string' }, description: 'Needed only when the session is paused for several agents.' }],
        responses: {
          '200': { description: 'The session (status `normal` when it is not paused).', content: json(ref('SessionView')) },
          '422': { description: '`agent_id_required` when several agents of the session are paused.', content: json(ref('Error')) },
          '401': common['401'],
          '403': common['403'],
        },
      },
    },
    '/gateway/sessions/{session_id}/pause': command(
      'Pause a session (hitl_pause)',
      'Normal → Paused: the session\'s decisions are held in its durable buffer until unpause. A second pause is a no-op: `{"status":"ok","note":"already_paused"}`.',
      'PauseBody',
    ),
    '/gateway/sessions/{session_id}/unpause': command(
      'Unpause a session (hitl_unpause)',
      'Paused → Normal: the buffer is flushed in arrival order with rewrites applied; held actions that needed approval are approved (or, with `resolution: reject`, denied after the rejection prompt). An empty buffer is fine; a session that is not paused answers `{"status":"ok","note":"not_paused"}`.',
      'UnpauseBody',
      { request: '`unknown_request` (404) or `request_already_answered: <status>` (409) for a `request_id` that is not pending' },
    ),
    '/gateway/sessions/{session_id}/rewrite': command(
      'Rewrite a buffered message (hitl_rewrite)',
      'Replaces the content of the buffered message whose trace id is `original_trace_id` before the flush: a held action gets the tool input to run instead (a JSON object in `new_content`), an injected message new text.',
      'RewriteBody',
      { trace: '`trace_id_not_found_in_buffer` when no buffered message has that trace id (nothing changes)' },
    ),
    '/gateway/sessions/{session_id}/inject': command(
      'Inject a message for the agent (hitl_inject)',
      'A synthetic operator message (control.issued, kind operator_message) with the prompt: buffered when the session is paused, sent at once when it is not.',
      'InjectBody',
    ),
    '/gateway/sessions/{session_id}/commands': command(
      'Any HITL command, its type in the body',
      'The command file format of FR-11.4 over HTTP: `type` is one of hitl_pause, hitl_unpause, hitl_rewrite, hitl_inject.',
      'CommandBody',
      { trace: '`trace_id_not_found_in_buffer`' },
    ),
    '/gateway/sessions/{session_id}/approve': command('Approve (FR-11.10)', 'Unpause: flush the buffer as it is, approving what waited for approval.', 'UnpauseBody'),
    '/gateway/sessions/{session_id}/rewrite-and-approve': command(
      'Rewrite and approve (FR-11.10)',
      'The rewrite and the unpause as one command: when the rewrite cannot be applied nothing happens.',
      'RewriteBody',
      { trace: '`trace_id_not_found_in_buffer`' },
    ),
    '/gateway/sessions/{session_id}/reject': command(
      'Reject (FR-11.10)',
      `Inject the rejection prompt ("${OPERATOR_REJECTION_PROMPT}" unless \`prompt\` says otherwise) before anything else, deny the held actions that needed approval, then flush the rest.`,
      'RejectBody',
    ),
    '/gateway/sessions/{session_id}/stop': command(
      'Emergency stop',
      "Pause the session and tell its agent to stop (control emergency_stop): the SDK refuses to propose and confirms with control.acknowledged `stopped`. Approving the pause resumes the agent (control resume); rejecting it leaves it stopped. On a paused session: `note: already_paused`, the agent is still stopped.",
      'StopBody',
    ),
    '/gateway/gates': {
      get: {
        summary: 'The human gates in effect',
        tags: ['gates'],
        responses: { '200': { description: 'Standard and configured gates with their conditions.', content: json({ type: 'object', properties: { gates: { type: 'array', items: { type: 'object' } } } }) }, '401': common['401'], '403': common['403'] },
      },
    },
    '/gateway/requests': {
      get: {
        summary: 'Gate approval requests',
        tags: ['gates'],
        parameters: [{ name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['pending', 'approved', 'approved_with_conditions', 'rejected', 'timed_out', 'all'], default: 'pending' } }],
        responses: {
          '200': { description: 'The requests, oldest first.', content: json({ type: 'object', properties: { requests: { type: 'array', items: ref('GateRequest') } } }) },
          '422': { description: 'Unknown status.', content: json(ref('Error')) },
          '401': common['401'],
          '403': common['403'],
        },
      },
    },
    '/gateway/requests/{request_id}': {
      get: {
        summary: 'One gate request',
        tags: ['gates'],
        parameters: [requestParam],
        responses: { '200': { description: 'The request.', content: json(ref('GateRequest')) }, '404': { description: '`unknown_request`', content: json(ref('Error')) }, '401': common['401'], '403': common['403'] },
      },
    },
    '/gateway/requests/{request_id}/respond': {
      post: {
        summary: 'Answer a gate request',
        description: 'Approve, approve with conditions, or reject (the agent is told first). The approver is the authenticated operator. The request must be pending.',
        tags: ['gates'],
        parameters: [requestParam],
        requestBody: { required: true, content: json(ref('AnswerBody')) },
        responses: {
          '200': { description: 'Answered; the session resumed.', content: json(ref('Ok')) },
          '202': { description: 'Stored; applied when the owner of the session is back.', content: json(ref('Accepted')) },
          '404': { description: '`unknown_request`', content: json(ref('Error')) },
          '409': { description: '`request_already_answered: <status>` (a stale request), `digest_mismatch: …` (the action changed since it was shown)', content: json(ref('Error')) },
          '422': { description: '`missing_required_field: approved`, `missing_required_field: digest` (an approval), `invalid_field: ...`', content: json(ref('Error')) },
          ...common,
        },
      },
    },
    '/gateway/approvals/slack/{channel}': {
      post: {
        summary: "Slack's interactivity Request URL: a click on Approve or Reject of a request's message",
        description:
          'Authenticated by Slack\'s request signature (X-Slack-Signature v0, X-Slack-Request-Timestamp within approvals.delivery.slack_tolerance_s), not an operator token. The Slack user must map to an operator with the approver role; the button carries the request id and its digest.',
        tags: ['gates'],
        security: [],
        parameters: [{ name: 'channel', in: 'path', required: true, schema: { type: 'string' }, description: 'The Slack channel name in approvals.channels.' }],
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { payload: { type: 'string', description: 'The block_actions payload, JSON.' } } } } } },
        responses: {
          '200': { description: 'Answered.', content: json(ref('Ok')) },
          '202': { description: 'Stored; applied when the owner of the session is back.', content: json(ref('Accepted')) },
          '400': { description: '`invalid_payload`', content: json(ref('Error')) },
          '401': { description: '`missing_signature`, `stale_timestamp`, `invalid_signature`', content: json(ref('Error')) },
          '403': { description: '`unmapped_slack_user`, `forbidden: …` (told to the user in Slack)', content: json(ref('Error')) },
          '404': { description: '`unknown_channel`, `unknown_request`', content: json(ref('Error')) },
          '409': { description: '`request_already_answered: …`, `digest_mismatch: …`', content: json(ref('Error')) },
          '422': { description: '`unsupported_interaction`, `unknown_action`, `invalid_field: value`', content: json(ref('Error')) },
        },
      },
    },
    '/gateway/openapi.json': {
      get: { summary: 'This document', tags: ['hitl'], security: [], responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } } },
    },
  },
  components: {
    securitySchemes: {
      operatorToken: {
        type: 'http',
        scheme: 'bearer',
        description: `An operator's API token (\`wdn_…\`) or console login (\`wds_…\`). ${OPERATOR_ID_HEADER} may accompany it and must then name the same operator.`,
      },
    },
    schemas: {
      Ok: { type: 'object', required: ['status'], properties: { status: { const: 'ok' }, note: { type: 'string', enum: ['already_paused', 'not_paused'] } } },
      Accepted: { type: 'object', required: ['status', 'note', 'command_id'], properties: { status: { const: 'accepted' }, note: { type: 'string' }, command_id: { type: 'string' } } },
      Error: { type: 'object', required: ['status', 'reason'], properties: { status: { const: 'error' }, reason: { type: 'string' }, detail: { type: 'string' } } },
      StopBody: { type: 'object', required: ['agent_id', 'timestamp'], properties: { ...base, reason: { type: 'string', maxLength: 2000, default: 'Emergency stop by an operator' } } },
      PauseBody: { type: 'object', required: ['agent_id', 'reason', 'timestamp'], properties: { ...base, reason: { type: 'string', maxLength: 2000 } } },
      UnpauseBody: {
        type: 'object',
        required: ['agent_id', 'timestamp'],
        properties: {
          ...base,
          resolution: { type: 'string', enum: ['approve', 'reject'], default: 'approve', description: 'What becomes of held actions that needed approval.' },
          prompt: { type: 'string', maxLength: 16000, description: 'With resolution reject: the message injected first.' },
          reason: { type: 'string', maxLength: 2000 },
          request_id: { type: 'string', description: 'The gate request this answers (must be pending).' },
          digest: { type: 'string', pattern: '^[a-f0-9]{64}$', description: 'With request_id: the approval digest of the request as shown; required to approve; a stale one is 409 `digest_mismatch`.' },
          channel: { type: 'string', description: 'The approval channel the answer came through (default api), kept in the audit trail.' },
          conditions: { type: 'array', items: { type: 'string', maxLength: 1000 }, maxItems: 32, description: 'Approval with conditions.' },
          original_trace_id: { type: 'string', description: 'With new_content: rewrite this buffered message first (rewrite-and-approve).' },
          new_content: { type: 'string' },
        },
      },
      RewriteBody: {
        type: 'object',
        required: ['agent_id', 'original_trace_id', 'new_content', 'timestamp'],
        properties: {
          ...base,
          original_trace_id: { type: 'string', description: 'Trace id of a buffered message (GET /gateway/sessions/{session_id} lists them).' },
          new_content: { type: 'string', maxLength: 100000, description: 'For a held action: the tool input to run instead, as a JSON object. For an injected message: its new text.' },
        },
      },
      InjectBody: { type: 'object', required: ['agent_id', 'prompt', 'timestamp'], properties: { ...base, prompt: { type: 'string', maxLength: 16000 } } },
      RejectBody: {
        type: 'object',
        required: ['agent_id', 'timestamp'],
        properties: { ...base, prompt: { type: 'string', maxLength: 16000, default: OPERATOR_REJECTION_PROMPT }, reason: { type: 'string', maxLength: 2000 } },
      },
      CommandBody: {
        type: 'object',
        required: ['type', 'agent_id', 'operator_id', 'timestamp'],
        description: 'An FR-11.4 command: hitl_pause needs reason; hitl_rewrite original_trace_id and new_content; hitl_inject prompt. operator_id comes from the header.',
        properties: {
          ...base,
          type: { type: 'string', enum: ['hitl_pause', 'hitl_unpause', 'hitl_rewrite', 'hitl_inject'] },
          reason: { type: 'string' },
          original_trace_id: { type: 'string' },
          new_content: { type: 'string' },
          prompt: { type: 'string' },
        },
      },
      AnswerBody: {
        type: 'object',
        required: ['approved'],
        properties: {
          approved: { type: 'boolean' },
          reason: { type: 'string', maxLength: 2000 },
          conditions: { type: 'array', items: { type: 'string', maxLength: 1000 }, maxItems: 32, description: 'Only with approved: true.' },
          digest: { type: 'string', pattern: '^[a-f0-9]{64}$', description: 'The approval digest of the request as shown (GET gives it); required with approved: true; a stale one is 409 `digest_mismatch`.' },
          channel: { type: 'string', description: 'The approval channel the answer came through (default api).' },
        },
      },
      SessionSummary: {
        type: 'object',
        properties: {
          session_id: { type: 'string' },
          agent_id: { type: 'string' },
          status: { type: 'string', enum: ['paused', 'flushing'] },
          paused_at: { type: 'string', format: 'date-time' },
          paused_by: { type: 'string' },
          reason: { type: 'string' },
          trigger: { type: 'string', enum: ['operator', 'hitl_required_flag', 'require_approval', 'gate'] },
          buffered: { type: 'integer' },
          pending_requests: { type: 'integer' },
        },
      },
      SessionView: {
        type: 'object',
        properties: {
          session_id: { type: 'string' },
          agent_id: { type: 'string' },
          status: { type: 'string', enum: ['normal', 'paused', 'flushing'] },
          messages: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                seq: { type: 'integer' },
                kind: { type: 'string', enum: ['decision', 'inject'] },
                trace_id: { type: 'string' },
                action_id: { type: 'string' },
                verdict: { type: 'string' },
                needs_approval: { type: 'boolean' },
                rewritten: { type: 'boolean' },
                content: { type: 'object' },
                content_sha256: { type: 'string' },
              },
            },
          },
          pending_requests: { type: 'array', items: { type: 'object' } },
        },
      },
      GateRequest: {
        type: 'object',
        properties: {
          request_id: { type: 'string' },
          gate_id: { type: 'string' },
          session_id: { type: 'string' },
          agent_id: { type: 'string' },
          prompt: { type: 'string' },
          summary: { type: 'string' },
          details: { type: 'object' },
          timeout_ms: { type: 'integer', description: 'The final deadline after the request: unanswered then, it is denied (nothing is approved by silence).' },
          escalation: { type: 'string', description: 'The escalation target whose steps ask more approval channels.' },
          requested_at: { type: 'string', format: 'date-time' },
          expires_at: { type: 'string', format: 'date-time', description: 'The final deadline.' },
          asked: { type: 'array', items: { type: 'string' }, description: 'The approval channels asked so far: at once, then by escalation steps.' },
          escalations: {
            type: 'array',
            description: 'The escalation steps that ran.',
            items: {
              type: 'object',
              properties: { step: { type: 'integer' }, at: { type: 'string', format: 'date-time' }, after_ms: { type: 'integer' }, channels: { type: 'array', items: { type: 'string' } } },
            },
          },
          escalated_at: { type: 'string', format: 'date-time' },
          status: { type: 'string', enum: ['pending', 'approved', 'approved_with_conditions', 'rejected', 'timed_out'], description: 'timed_out: nobody answered by the final deadline; the action was denied.' },
          approver: { type: 'string' },
          reason: { type: 'string' },
          conditions: { type: 'array', items: { type: 'string' } },
          digest: { type: 'string', description: 'Approval digest: SHA-256 of the canonical JSON of what an approver is shown (session, agent, gate, tool, input, reason).' },
          channel: { type: 'string', description: 'The channel the answer came through.' },
          answered_digest: { type: 'string' },
        },
      },
    },
  },
} as const;
