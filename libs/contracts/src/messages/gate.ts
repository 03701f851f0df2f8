import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { HITL_COMMANDS, PhaseSchema, SubjectToken, Timestamp } from '../vocabulary.js';

export const GateRequested = defineMessage({
  type: 'gate.requested',
  version: 1,
  channel: 'gate',
  summary: 'A human gate asks an operator for approval (seed 002 §6).',
  payload: Type.Object({
    request_id: SubjectToken('Gate request id.'),
    gate_id: Type.String({ maxLength: 128 }),
    prompt: Type.String({ maxLength: 4000 }),
    summary: Type.String({ maxLength: 4000 }),
    timeout_ms: Type.Integer({ minimum: 0 }),
    escalation: Type.Optional(Type.String({ maxLength: 256 })),
    action_id: Type.Optional(Type.String({ maxLength: 128 })),
    phase: Type.Optional(PhaseSchema),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'What the operator needs to decide: phase, environment, the action and its review.' }),
    ),
    on_timeout: Type.Optional(
      Type.Enum(['deny', 'approve'], { description: 'No longer sent (kept for messages stored before): a request nobody answers by expires_at is always denied.' }),
    ),
    expires_at: Type.Optional(Timestamp),
    digest: Type.Optional(
      Type.String({ pattern: '^[a-f0-9]{64}$', description: 'Approval digest: SHA-256 of what an approver is shown (session, agent, gate, tool, input, reason); an approval must carry it.' }),
    ),
  }),
});

export const GateResponded = defineMessage({
  type: 'gate.responded',
  version: 1,
  channel: 'gate',
  summary: 'An operator (or the timeout) answered a gate request.',
  payload: Type.Object({
    request_id: SubjectToken('The gate request answered.'),
    gate_id: Type.String({ maxLength: 128 }),
    approved: Type.Boolean(),
    approver: Type.String({ maxLength: 256, description: 'Operator id, or `system` on timeout.' }),
    reason: Type.Optional(Type.String({ maxLength: 4000 })),
    conditions: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 32 })),
    response_ms: Type.Number({ minimum: 0 }),
    outcome: Type.Optional(Type.Enum(['approved', 'approved_with_conditions', 'rejected', 'timed_out'])),
    channel: Type.Optional(Type.String({ maxLength: 32, description: 'The approval channel the operator answered through (api, console, slack, …).' })),
    digest: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$', description: 'The approval digest the answer carried.' })),
    asked_channels: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64, description: 'Timed out: the approval channels that were asked, none of which answered in time.' }),
    ),
  }),
});

export const GateEscalated = defineMessage({
  type: 'gate.escalated',
  version: 1,
  channel: 'gate',
  summary: 'Nobody answered a gate request in time: an escalation step asked more approval channels, or its final deadline passed and it is denied.',
  payload: Type.Object({
    request_id: SubjectToken('The gate request escalated.'),
    gate_id: Type.String({ maxLength: 128 }),
    escalation: Type.String({ maxLength: 256 }),
    reason: Type.Optional(
      Type.String({ maxLength: 256, description: 'ESCALATION_DEADLINE (an escalation step), or TIMEOUT (the final deadline: the request is denied).' }),
    ),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'The final deadline after the request.' })),
    step: Type.Optional(Type.Integer({ minimum: 1, description: 'The escalation step (from 1); absent at the final deadline.' })),
    after_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'An escalation step: how long after the request it was due.' })),
    channels: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        maxItems: 64,
        description: 'An escalation step: the approval channels it asks; the final deadline: every channel that was asked.',
      }),
    ),
  }),
});

export const HitlPaused = defineMessage({
  type: 'hitl.paused',
  version: 1,
  channel: 'gate',
  summary: 'The session went from Normal to Paused (HITLGateOpenEvent, FR-11.8).',
  payload: Type.Object({
    operator_id: Type.String({ maxLength: 256 }),
    reason: Type.String({ maxLength: 2000 }),
    trigger: Type.Optional(
      Type.Enum(['operator', 'hitl_required_flag', 'require_approval', 'gate'], {
        description: 'An operator command, or an automatic pause (FR-11.9) by the control flag, a reviewer verdict or a human gate.',
      }),
    ),
    request_id: Type.Optional(Type.String({ maxLength: 128, description: 'The gate request that paused the session.' })),
  }),
});

export const HitlResumed = defineMessage({
  type: 'hitl.resumed',
  version: 1,
  channel: 'gate',
  summary: 'The session went from Paused to Normal and its buffer was flushed (HITLGateCloseEvent, FR-11.8).',
  payload: Type.Object({
    operator_id: Type.String({ maxLength: 256 }),
    flushed: Type.Integer({ minimum: 0 }),
    resolution: Type.Optional(Type.Enum(['approve', 'reject'], { description: 'What became of the held actions that needed approval.' })),
  }),
});

export const HitlInterventionRecorded = defineMessage({
  type: 'hitl.intervention_recorded',
  version: 1,
  channel: 'gate',
  summary: 'Audit record of one processed HITL command (HITLInterventionEvent, FR-11.7).',
  payload: Type.Object({
    intervention_id: SubjectToken('Record id.'),
    operator_id: Type.String({ maxLength: 256 }),
    command_type: Type.Enum([...HITL_COMMANDS]),
    before_state: Type.Union([Type.String({ pattern: '^[a-f0-9]{64}$' }), Type.Null()]),
    after_state: Type.Union([Type.String({ pattern: '^[a-f0-9]{64}$' }), Type.Null()]),
    reversed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    occurred_at: Type.String({ format: 'date-time', description: 'When the command took effect; a later record with reversed_at keeps it.' }),
    target_trace_id: Type.Optional(Type.String({ maxLength: 128, description: 'Trace of the buffered message the command changed.' })),
    command_id: Type.Optional(Type.String({ maxLength: 128, description: 'Id of the gate.command message processed.' })),
  }),
});

export const GateCommand = defineMessage({
  type: 'gate.command',
  version: 1,
  channel: 'gate_command',
  summary: 'A HITL command for a session (FR-11.4).',
  payload: Type.Object({
    command_type: Type.Enum([...HITL_COMMANDS]),
    operator_id: Type.String({ minLength: 1, maxLength: 256 }),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
    original_trace_id: Type.Optional(Type.String({ maxLength: 128 })),
    new_content: Type.Optional(Type.String({ maxLength: 100000 })),
    prompt: Type.Optional(Type.String({ maxLength: 16000 })),
    resolution: Type.Optional(
      Type.Enum(['approve', 'reject'], {
        description: 'hitl_unpause: approve (default) or reject the held actions that need approval; reject injects the rejection prompt first.',
      }),
    ),
    request_id: Type.Optional(Type.String({ maxLength: 128, description: 'hitl_unpause: the gate request this answers.' })),
    conditions: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 32, description: 'hitl_unpause: approval with conditions.' })),
    digest: Type.Optional(
      Type.String({ pattern: '^[a-f0-9]{64}$', description: 'hitl_unpause of a request: the approval digest of what the operator was shown; a stale one is refused.' }),
    ),
    channel: Type.Optional(Type.String({ maxLength: 32, description: 'hitl_unpause: the approval channel the answer came through (api, console, slack, …).' })),
    stop_agent: Type.Optional(
      Type.Boolean({ description: "hitl_pause: an operator's emergency stop: the agent is told to stop (control emergency_stop) until the pause is approved." }),
    ),
  }),
});
