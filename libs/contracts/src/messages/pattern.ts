import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { PATTERN_TYPES, Probability, SeveritySchema, SubjectToken } from '../vocabulary.js';

export const PatternDetected = defineMessage({
  type: 'pattern.detected',
  version: 1,
  channel: 'pattern',
  summary: 'A behaviour pattern in a session, reported once per episode and again when it gets worse.',
  payload: Type.Object({
    pattern_id: SubjectToken('Id of this report.'),
    pattern_type: Type.Enum([...PATTERN_TYPES]),
    severity: SeveritySchema,
    confidence: Probability('Confidence of the detector.'),
    impact_factor: Type.Number({ minimum: 0, maximum: 10 }),
    description: Type.String({ maxLength: 2000 }),
    evidence_action_ids: Type.Array(Type.String({ maxLength: 128 }), { maxItems: 500 }),
    details: Type.Record(Type.String(), Type.Unknown()),
    episode: Type.Integer({ minimum: 1, description: 'Which episode of this pattern in the session.' }),
    shadow: Type.Boolean({ description: 'Detector runs in shadow mode: counted, not actionable.' }),
  }),
});
