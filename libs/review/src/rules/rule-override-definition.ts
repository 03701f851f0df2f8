import Type, { type Static, type TSchema } from 'typebox';

const OneOrMany = <T extends TSchema>(item: T) => Type.Union([item, Type.Array(item, { minItems: 1, maxItems: 100 })]);

/** What an override makes of a built-in rule's finding: another verdict, or none (`off`). */
export const OVERRIDE_VERDICTS = ['allow', 'warn', 'require_approval', 'block', 'off'] as const;
export type OverrideVerdict = (typeof OVERRIDE_VERDICTS)[number];

/**
 * An override of one built-in rule, written in the policy file beside the custom rules: where its
 * conditions hold, the rule's finding gets `verdict` instead of its own (`off`: the rule finds nothing).
 * Every condition given must hold; an override without conditions holds everywhere. See rule-overrides.ts.
 */
export const RuleOverrideDefinition = Type.Object(
  {
    rule: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'The built-in rule (its name, as in the README\'s packs and in rule hits).' }),
    verdict: Type.Enum([...OVERRIDE_VERDICTS]),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Why, added to the finding’s reason for the agent and the audit.' })),
    paths: Type.Optional(OneOrMany(Type.String({ minLength: 1, description: 'Path globs: the action touches at least one path, and every one matches.' }))),
    agents: Type.Optional(OneOrMany(Type.String({ minLength: 1, description: 'Globs on the agent id.' }))),
    environments: Type.Optional(OneOrMany(Type.String({ minLength: 1, description: 'The session’s environment (any case).' }))),
    when: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description: 'CEL expression over action, agent and session, as a custom rule’s.' })),
  },
  { additionalProperties: false },
);

export type RuleOverrideDefinition = Static<typeof RuleOverrideDefinition>;
