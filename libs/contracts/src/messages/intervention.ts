import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { INTERVENTION_TYPES, Probability, SeveritySchema, SubjectToken } from '../vocabulary.js';

export const InterventionTrigger = Type.Object({
  kind: Type.Enum(['pattern', 'breaker', 'verdict', 'gate', 'action'], { description: 'action: an action ran against Warden\'s decision (action.ran_against_decision).' }),
  message_id: Type.String({ maxLength: 128 }),
  issue_type: Type.String({ maxLength: 128, description: 'Pattern type, breaker kind, or verdict.' }),
});

export const InterventionIssued = defineMessage({
  type: 'intervention.issued',
  version: 1,
  channel: 'intervention',
  summary: 'The controller chose an intervention for a session and sent its control message.',
  payload: Type.Object({
    intervention_id: SubjectToken('Intervention id.'),
    intervention_type: Type.Enum([...INTERVENTION_TYPES]),
    trigger: InterventionTrigger,
    severity: SeveritySchema,
    severity_score: Type.Number({ minimum: 0 }),
    escalation_level: Type.Integer({ minimum: 0 }),
    control_id: Type.Optional(Type.String({ maxLength: 128 })),
    strategy: Type.Enum(['progressive', 'pattern_specific', 'custom']),
    limits: Type.Optional(Type.Record(Type.String(), Type.Number())),
    reduction_factors: Type.Optional(
      Type.Object(
        {
          iterations: Type.Optional(Probability('Factor applied to the iteration limits of every phase.')),
          cost: Type.Optional(Probability('Factor applied to the phase and run budgets.')),
          tokens: Type.Optional(Probability('Factor applied to the token limit.')),
          file_operations: Type.Optional(Probability('Factor applied to the file operation limit.')),
        },
        { description: 'resource_throttling: how much each limit shrank; the breaker applies these to its own limits.' },
      ),
    ),
    escalated: Type.Optional(Type.Boolean({ description: 'Chosen above what severity alone gave, because the issue persisted.' })),
    previous_intervention_type: Type.Optional(Type.Enum([...INTERVENTION_TYPES])),
    checkpoint_id: Type.Optional(Type.String({ maxLength: 128, description: 'checkpoint_rollback: the checkpoint ordered.' })),
    recovery_needed: Type.Optional(Type.Boolean({ description: 'checkpoint_rollback found no safe checkpoint: a recovery plan was sent.' })),
    incident_id: Type.Optional(Type.String({ maxLength: 128 })),
    replay: Type.Optional(Type.Boolean({ description: "Issued in a replayed session: the ladder leaves the agent's track record alone." })),
    handler: Type.Optional(Type.String({ maxLength: 128, description: 'strategy custom: the registered handler that chose it.' })),
  }),
});

export const InterventionEvaluated = defineMessage({
  type: 'intervention.evaluated',
  version: 1,
  channel: 'intervention',
  summary: 'How well an intervention worked, measured from what the agent did next.',
  payload: Type.Object({
    intervention_id: SubjectToken('The intervention evaluated.'),
    outcome: Type.Enum(['effective', 'ineffective', 'unknown']),
    effectiveness: Type.Number({ minimum: 0, maximum: 1 }),
    next_step: Type.Enum(['none', 'escalate', 'de_escalate']),
  }),
});

export const IncidentCreated = defineMessage({
  type: 'incident.created',
  version: 1,
  channel: 'intervention',
  summary: 'An incident report written at an emergency stop.',
  payload: Type.Object({
    incident_id: SubjectToken('Incident id.'),
    summary: Type.String({ maxLength: 4000 }),
    severity: SeveritySchema,
    timeline: Type.Array(
      Type.Object({ at: Type.String({ format: 'date-time' }), event: Type.String({ maxLength: 2000 }) }),
      { maxItems: 1000 },
    ),
    impact: Type.Record(Type.String(), Type.Unknown()),
    root_cause: Type.Record(Type.String(), Type.Unknown()),
    recommendations: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 100 }),
    recovery_options: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 100 }),
    recovery_plan: Type.Optional(
      Type.Array(
        Type.Object({
          option: Type.Enum(['resume_with_limits', 'rollback_and_retry', 'manual_intervention', 'abort']),
          description: Type.String({ maxLength: 2000 }),
          details: Type.Record(Type.String(), Type.Unknown()),
        }),
        { maxItems: 16, description: 'The recovery options with what each would change.' },
      ),
    ),
    intervention_id: Type.Optional(Type.String({ maxLength: 128 })),
  }),
});
