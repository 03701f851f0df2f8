import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { INTERVENTION_TYPES, SeveritySchema, SubjectToken } from '../vocabulary.js';

export const InterventionTrigger = Type.Object({
  kind: Type.Enum(['pattern', 'breaker', 'verdict', 'gate']),
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
  }),
});
