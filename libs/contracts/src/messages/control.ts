import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { SubjectToken } from '../vocabulary.js';

export const CONTROL_KINDS = [
  'soft_correction',
  'context_reinforcement',
  'resource_throttling',
  'checkpoint_rollback',
  'emergency_stop',
  'operator_message',
  'resume',
] as const;

export const ResourceLimits = Type.Object({
  max_file_operations: Type.Optional(Type.Integer({ minimum: 0 })),
  max_memory_mb: Type.Optional(Type.Integer({ minimum: 0 })),
  max_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
  max_execution_time_ms: Type.Optional(Type.Integer({ minimum: 0 })),
  batch_size: Type.Optional(Type.Integer({ minimum: 1 })),
  max_iterations: Type.Optional(Type.Integer({ minimum: 0, description: 'Actions per phase; the breaker enforces it.' })),
  max_cost_usd: Type.Optional(Type.Number({ minimum: 0, description: 'USD the run may spend from this throttle on; the breaker enforces it.' })),
});

export const ControlIssued = defineMessage({
  type: 'control.issued',
  version: 1,
  channel: 'control',
  summary: 'An order or guidance for a running agent.',
  payload: Type.Object({
    control_id: SubjectToken('Id the agent acknowledges.'),
    kind: Type.Enum([...CONTROL_KINDS]),
    message: Type.Optional(Type.String({ maxLength: 16000, description: 'Text to add to the agent conversation.' })),
    limits: Type.Optional(ResourceLimits),
    checkpoint_id: Type.Optional(Type.String({ maxLength: 128 })),
    incident_id: Type.Optional(Type.String({ maxLength: 128 })),
    intervention_id: Type.Optional(Type.String({ maxLength: 128 })),
    issue_type: Type.Optional(Type.String({ maxLength: 128, description: 'Pattern type, breaker kind or verdict that caused it.' })),
    object_store: Type.Optional(
      Type.Object(
        { bucket: Type.String({ maxLength: 128 }), key: Type.String({ maxLength: 512 }) },
        { description: 'checkpoint_rollback: where the snapshot to restore lives.' },
      ),
    ),
    conversation_position: Type.Optional(
      Type.Integer({ minimum: 0, description: 'checkpoint_rollback: the conversation position to return to.' }),
    ),
    recovery_plan: Type.Optional(
      Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 32, description: 'checkpoint_rollback without a safe checkpoint: steps to recover.' }),
    ),
    requires_ack: Type.Boolean(),
  }),
});

export const ControlAcknowledged = defineMessage({
  type: 'control.acknowledged',
  version: 1,
  channel: 'control_ack',
  summary: 'The agent applied (or failed to apply) a control message.',
  payload: Type.Object({
    control_id: SubjectToken('The control message acknowledged.'),
    status: Type.Enum(['applied', 'failed', 'stopped']),
    detail: Type.Optional(Type.String({ maxLength: 4000 })),
    restored_files: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 10000 })),
  }),
});
