import Type, { type Static, type TSchema } from 'typebox';
import { PHASES, VERDICTS } from '@warden/contracts';

const OneOrMany = <T extends TSchema>(item: T) => Type.Union([item, Type.Array(item, { minItems: 1, maxItems: 100 })]);

/**
 * A rule written in the reviewer's configuration instead of code. Every condition under `match` that is
 * given must hold (a list means "any of these"), and `when`, a CEL expression over the action and its
 * session (see policy-expression.ts), must be true; a rule needs at least one of them.
 */
export const CustomRuleDefinition = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'Unique, snake_case; also the metric label.' }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    shadow: Type.Optional(Type.Boolean({ description: 'Evaluated and counted, never enforced. Default false.' })),
    when: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4000, description: 'CEL expression over action, agent and session; the rule fires when it is true (and match holds).' }),
    ),
    match: Type.Optional(Type.Object(
      {
        kind: Type.Optional(OneOrMany(Type.String())),
        tool: Type.Optional(OneOrMany(Type.String({ description: 'Glob on the tool name, e.g. Bash, mcp__github__*.' }))),
        intent: Type.Optional(OneOrMany(Type.String({ description: 'file_read, file_creation, file_modification, file_deletion, system_command, command_execution, network_request, package_install, delegation, external_tool, message, unknown.' }))),
        command: Type.Optional(OneOrMany(Type.String({ description: 'Glob on each simple command of a shell line, e.g. "terraform apply*".' }))),
        command_regex: Type.Optional(OneOrMany(Type.String({ description: 'Regular expression on the whole command line.' }))),
        path: Type.Optional(OneOrMany(Type.String({ description: 'Glob on each path the action touches, e.g. "**/migrations/**".' }))),
        written_path: Type.Optional(OneOrMany(Type.String({ description: 'Glob on each path the action writes, creates or deletes.' }))),
        url: Type.Optional(OneOrMany(Type.String({ description: 'Glob on each URL, e.g. "https://*.prod.example.com/**".' }))),
        package: Type.Optional(OneOrMany(Type.String({ description: 'Glob on each package the action installs.' }))),
        input: Type.Optional(Type.Record(Type.String(), Type.String({ description: 'Regular expression on an input field (non-strings as JSON).' }))),
        phase: Type.Optional(OneOrMany(Type.Enum([...PHASES]))),
        environment: Type.Optional(OneOrMany(Type.String())),
        agent: Type.Optional(OneOrMany(Type.String({ description: 'Glob on the agent id.' }))),
        privileged: Type.Optional(Type.Boolean()),
        out_of_scope: Type.Optional(Type.Boolean({ description: 'A path lies outside the session’s expected paths.' })),
      },
      { additionalProperties: false },
    )),
    verdict: Type.Enum([...VERDICTS]),
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Written for the agent: what is wrong and what to do.' }),
    score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Risk this finding implies; default by verdict.' })),
    alternative: Type.Optional(Type.String({ maxLength: 2000 })),
    factors: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 16 })),
    modify: Type.Optional(
      Type.Object(
        {
          set: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Input fields to set.' })),
          replace: Type.Optional(
            Type.Array(
              Type.Object({ field: Type.String(), pattern: Type.String(), with: Type.String() }, { additionalProperties: false }),
              { maxItems: 16, description: 'Regular-expression replacements in string input fields.' },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type CustomRuleDefinition = Static<typeof CustomRuleDefinition>;
