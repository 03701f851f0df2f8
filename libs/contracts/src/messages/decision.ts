import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { SubjectToken, VerdictKindSchema } from '../vocabulary.js';

export const DecisionMade = defineMessage({
  type: 'decision.made',
  version: 1,
  channel: 'decision',
  summary: 'The final decision for one proposed action. Exactly one per action id.',
  payload: Type.Object({
    action_id: SubjectToken('The proposed action this decides.'),
    decision: Type.Enum(['allow', 'deny']),
    verdict: VerdictKindSchema,
    reason: Type.String({ maxLength: 4000, description: 'The main reason, for the agent and for people.' }),
    reasons: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 32 }),
    updated_input: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Run this input instead of the proposed one.' }),
    ),
    decided_by: Type.Enum(['reviewer', 'operator', 'gate_timeout', 'policy']),
    operator_id: Type.Optional(Type.String({ maxLength: 256 })),
    ask_user: Type.Optional(
      Type.Boolean({
        description:
          "The action needs an approval that the person at the agent's terminal gives (the proposal named them as approver): the agent runs it only if its user agrees.",
      }),
    ),
  }),
});
