import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { Probability, SeveritySchema, SubjectToken, VerdictKindSchema, VERDICTS } from '../vocabulary.js';

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
    decided_by: Type.Optional(
      Type.Enum(['matrix', 'rule', 'validator', 'breaker', 'ladder', 'error', 'disabled'], {
        description: 'What settled the verdict: the risk × rationality matrix, a rule, a tool validator, an open breaker, the automation ladder.',
      }),
    ),
    mode: Type.Optional(Type.Enum(['blocking', 'async'], { description: 'async: the verdict is advisory and the action proceeds.' })),
    observed_verdict: Type.Optional(
      Type.Enum([...VERDICTS], { description: 'What the review concluded when it is not enforced (async mode, or risk below the async threshold).' }),
    ),
    rationality: Type.Optional(
      Type.Object({
        score: Probability('Overall rationality.'),
        components: Type.Object({
          goal_alignment: Probability('Serves the declared goal.'),
          logical_progression: Probability('Follows from what the session did before.'),
          efficiency: Probability('No clearly better way exists.'),
          completeness: Probability('Has what it needs to work.'),
        }),
        issues: Type.Array(Type.String({ maxLength: 128 }), { maxItems: 16 }),
      }),
    ),
    side_effects: Type.Optional(
      Type.Object({
        effects: Type.Array(
          Type.Object({
            type: Type.String({ maxLength: 64 }),
            target: Type.String({ maxLength: 1024 }),
            reversible: Type.Boolean(),
            severity: SeveritySchema,
          }),
          { maxItems: 32 },
        ),
        reversible: Type.Boolean(),
        severity: Type.Optional(SeveritySchema),
      }),
    ),
    validations: Type.Optional(
      Type.Array(
        Type.Object({
          validator: Type.String({ maxLength: 128 }),
          result: Type.Enum(['caution', 'require_confirmation', 'block', 'require_prerequisites']),
          reason: Type.String({ maxLength: 2000 }),
          shadow: Type.Boolean(),
          checks: Type.Optional(
            Type.Array(
              Type.Object({
                description: Type.String({ maxLength: 1000 }),
                method: Type.Record(Type.String(), Type.Unknown(), { description: 'network_ping | service_status | config_check | endpoint_test | user_confirmation, with its fields.' }),
                success_criteria: Type.String({ maxLength: 1000 }),
                priority: Type.Integer({ minimum: 0, maximum: 255 }),
              }),
              { maxItems: 16 },
            ),
          ),
          risks: Type.Optional(Type.Array(Type.Object({ kind: Type.String({ maxLength: 128 }), description: Type.String({ maxLength: 1000 }) }), { maxItems: 16 })),
        }),
        { maxItems: 16, description: 'Supervisory tool-call validation (seed 004) that did not simply approve.' },
      ),
    ),
    shadow_rule_hits: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 64, description: 'Rules in shadow mode that matched: counted, not enforced.' })),
    rule_errors: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 16, description: 'Rules that failed; the review went on without them.' })),
    automation_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
    session_spend_usd: Type.Optional(Type.Number({ minimum: 0, description: "The session's spend the review read (policies' session.spend_usd), when it had spent something." })),
    pipeline: Type.Optional(Type.String({ maxLength: 128, description: 'Configuration pipeline whose overrides applied.' })),
    cache_hit: Type.Optional(Type.Boolean()),
  }),
});
