import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { BREAKER_KINDS, BREAKER_STATES, PhaseSchema } from '../vocabulary.js';

const BreakerKind = Type.Enum([...BREAKER_KINDS]);
const BreakerStateSchema = Type.Enum([...BREAKER_STATES]);

const BreakerModeSchema = Type.Enum(['enforce', 'metrics_only'], {
  description: 'metrics_only: the breaker is evaluated and reported but blocks nothing.',
});

const Measurement = {
  breaker: BreakerKind,
  reason: Type.String({ maxLength: 2000 }),
  current_value: Type.Number(),
  threshold: Type.Number(),
  phase: Type.Optional(PhaseSchema),
  suggestion: Type.Optional(Type.String({ maxLength: 2000 })),
  mode: Type.Optional(BreakerModeSchema),
};

export const BreakerTripped = defineMessage({
  type: 'breaker.tripped',
  version: 1,
  channel: 'breaker',
  summary: 'A breaker of the session opened: its threshold was exceeded.',
  payload: Type.Object({ ...Measurement }),
});

export const BreakerWarning = defineMessage({
  type: 'breaker.warning',
  version: 1,
  channel: 'breaker',
  summary: 'A breaker passed its warning fraction of the threshold.',
  payload: Type.Object({ ...Measurement }),
});

export const BreakerStateChanged = defineMessage({
  type: 'breaker.state_changed',
  version: 1,
  channel: 'breaker',
  summary: 'A breaker moved between closed, open and half-open.',
  payload: Type.Object({
    breaker: BreakerKind,
    from: BreakerStateSchema,
    to: BreakerStateSchema,
    reason: Type.String({ maxLength: 2000 }),
    cause: Type.Enum(['threshold', 'reset_timeout', 'probe_succeeded', 'probe_failed', 'operator', 'resolved'], {
      description: "resolved: the one action a repeated failure held back was dealt with (the agent read or rewrote what it kept failing on).",
    }),
    operator_id: Type.Optional(Type.String({ maxLength: 256, description: 'Set when cause is operator.' })),
    retry_at: Type.Optional(Type.String({ format: 'date-time', description: 'When an OPEN breaker will start probing.' })),
    mode: Type.Optional(BreakerModeSchema),
  }),
});

export const BreakerCostRecorded = defineMessage({
  type: 'breaker.cost_recorded',
  version: 1,
  channel: 'breaker',
  summary: 'The cost of one model call, priced from the model table.',
  payload: Type.Object({
    action_id: Type.Optional(Type.String({ maxLength: 128 })),
    phase: Type.Optional(PhaseSchema),
    model: Type.String({ maxLength: 128 }),
    prompt_tokens: Type.Integer({ minimum: 0 }),
    completion_tokens: Type.Integer({ minimum: 0 }),
    cost_usd: Type.Number({ minimum: 0 }),
    operation: Type.String({ maxLength: 128 }),
    source: Type.Optional(
      Type.Enum(['outcome', 'telemetry_event', 'telemetry_metric', 'transcript'], {
        description: "Where the usage came from: an action's outcome (the SDK), the agent's telemetry events or metrics, or its transcript.",
      }),
    ),
    priced_by: Type.Optional(Type.Enum(['agent', 'pricing_table'], { description: "agent: the cost the agent reported; pricing_table: Warden's prices." })),
  }),
});

export const BreakerError = defineMessage({
  type: 'breaker.error',
  version: 1,
  channel: 'breaker',
  summary: 'The breaker could not account for an event (e.g. a model missing from the pricing table).',
  payload: Type.Object({
    code: Type.Enum(['unknown_model', 'invalid_measurement']),
    message: Type.String({ maxLength: 2000 }),
    action_id: Type.Optional(Type.String({ maxLength: 128 })),
  }),
});

/** What an operator asks of a session's breakers; the command and its audit record both carry it. */
const OperatorCommand = {
  command: Type.Enum(['force_open', 'disable', 'enable', 'reset']),
  breaker: Type.Union([BreakerKind, Type.Literal('all')]),
  operator_id: Type.String({ minLength: 1, maxLength: 256 }),
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
};

export const BreakerCommand = defineMessage({
  type: 'breaker.command',
  version: 1,
  channel: 'breaker_command',
  summary: 'An operator command for a breaker of a session.',
  payload: Type.Object({ ...OperatorCommand }),
});

export const BreakerCommandApplied = defineMessage({
  type: 'breaker.command_applied',
  version: 1,
  channel: 'breaker',
  summary: "The audit record of an operator's breaker command: what was asked, by whom, and what it did.",
  payload: Type.Object({
    ...OperatorCommand,
    command_message_id: Type.String({ maxLength: 128 }),
    changed: Type.Array(BreakerKind, { description: 'Breakers whose state or disabled flag the command changed.' }),
  }),
});
