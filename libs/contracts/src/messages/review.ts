import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { Probability, SeveritySchema, SubjectToken, VerdictKindSchema } from '../vocabulary.js';

export const RiskAssessment = Type.Object({
  score: Probability('Risk score after modifiers.'),
  severity: SeveritySchema,
  factors: Type.Array(Type.String({ maxLength: 128 }), { maxItems: 64, description: 'e.g. file_deletion, out_of_scope, privileged.' }),
});

export const ReviewVerdict = defineMessage({
  type: 'review.verdict',
  version: 1,
  channel: 'verdict',
  summary: "The reviewer's verdict on a proposed action.",
  payload: Type.Object({
    action_id: SubjectToken('The action under review.'),
    verdict: VerdictKindSchema,
    reasons: Type.Array(Type.String({ maxLength: 2000 }), {
      maxItems: 32,
      description: 'Why, most important first; written so that the agent (a model) understands it.',
    }),
    risk: RiskAssessment,
    confidence: Probability('How sure the reviewer is of the verdict.'),
    alternatives: Type.Optional(Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 16 })),
    modified_input: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'For verdict `modify`: the input to run instead.' }),
    ),
    rule_hits: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 64 })),
    action: Type.Object(
      {
        kind: Type.String({ maxLength: 64 }),
        tool: Type.String({ maxLength: 256 }),
        input: Type.Record(Type.String(), Type.Unknown()),
      },
      { description: 'The reviewed action, so that the gate can show and rewrite it without a lookup.' },
    ),
    review_ms: Type.Optional(Type.Number({ minimum: 0 })),
  }),
});
