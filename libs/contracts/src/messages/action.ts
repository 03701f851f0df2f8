import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { PhaseProgress } from '../phase-progress.js';
import { PhaseSchema, SubjectToken } from '../vocabulary.js';

/**
 * The longest goal a session declares, in characters. A plan the user approved ("Implement the following
 * plan: …") runs to 10,000 characters and names the files it changes throughout: a shorter cut would make the
 * files it names last look like work outside the task.
 */
export const GOAL_MAX_LENGTH = 16_000;

/** What the agent declared about its task; the reviewer scores scope and rationality against it. */
export const SessionContext = Type.Object(
  {
    goal: Type.Optional(Type.String({ maxLength: GOAL_MAX_LENGTH, description: 'The task the agent was given.' })),
    expected_paths: Type.Optional(
      Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 100, description: 'Globs of paths the task should touch.' }),
    ),
    constraints: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 100 })),
    cwd: Type.Optional(Type.String({ maxLength: 1024, description: 'Working directory of the agent.' })),
  },
  { description: 'Session context declared by the agent.' },
);

export const ActionProposed = defineMessage({
  type: 'action.proposed',
  version: 1,
  channel: 'action',
  summary: 'An action the agent is about to take. It waits for one decision with the same action_id.',
  payload: Type.Object({
    action_id: SubjectToken('Correlates the action with its verdict, decision and outcome (e.g. a tool_use id).'),
    kind: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'tool_use | message | file_operation | system_command; unknown kinds get an error verdict.',
    }),
    tool: Type.String({ minLength: 1, maxLength: 256, description: 'Tool name, e.g. Bash, Read, Edit, mcp__github__create_issue.' }),
    input: Type.Record(Type.String(), Type.Unknown(), {
      description: "The tool's input as the agent would run it, with its secrets (keys, tokens, passwords) as `[REDACTED:<kind>]`; what they were is in `sealed`.",
    }),
    description: Type.Optional(Type.String({ maxLength: 4000, description: 'Why the agent wants to do this.' })),
    phase: Type.Optional(PhaseSchema),
    context: Type.Optional(SessionContext),
    subagent: Type.Optional(
      Type.Object(
        {
          id: Type.Optional(Type.String({ maxLength: 128, description: 'The subagent instance, e.g. Claude Code agent_id.' })),
          type: Type.Optional(Type.String({ maxLength: 128, description: 'What kind of subagent, e.g. Claude Code agent_type (Explore, Plan, a custom agent).' })),
        },
        { description: "Set when a subagent of the session's agent proposes the action, so that its work can be told apart from its parent's." },
      ),
    ),
    cwd: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: "The directory the action runs in when the agent's shell has moved (cd) since the session was declared: relative paths are read from here; the project stays the declared one.",
      }),
    ),
    turn: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          "The model response the call came in (e.g. Claude Code's message id): the calls of one turn were proposed together, before the results of any of them came back, so a failure of one is no retry of another.",
      }),
    ),
    sealed: Type.Optional(
      Type.String({
        maxLength: 1_000_000,
        description:
          "What the `[REDACTED:…]` markers of this action stand for, encrypted for the reviewer (X25519 and AES-256-GCM, with the key in the warden_seal bucket): the reviewer judges the action as the agent sent it; every other reader, and the stream, has the markers only.",
      }),
    ),
  }),
});

export const ActionOutcome = defineMessage({
  type: 'action.outcome',
  version: 1,
  channel: 'outcome',
  summary: 'What happened when the agent ran an action.',
  payload: Type.Object({
    action_id: SubjectToken('The action this outcome reports on.'),
    tool: Type.Optional(Type.String({ maxLength: 256 })),
    status: Type.Enum(['success', 'error']),
    error: Type.Optional(
      Type.Object({
        message: Type.String({ maxLength: 8000 }),
        class: Type.Optional(Type.String({ maxLength: 128, description: 'Normalised error class, e.g. ENOENT, ECONNREFUSED.' })),
      }),
    ),
    duration_ms: Type.Optional(Type.Number({ minimum: 0 })),
    model: Type.Optional(Type.String({ maxLength: 128 })),
    tokens: Type.Optional(
      Type.Object({
        prompt: Type.Integer({ minimum: 0, description: 'Input tokens neither read from nor written to the prompt cache.' }),
        completion: Type.Integer({ minimum: 0 }),
        cache_read: Type.Optional(Type.Integer({ minimum: 0, description: 'Input tokens read from the prompt cache (priced lower).' })),
        cache_write: Type.Optional(Type.Integer({ minimum: 0, description: 'Input tokens written to the prompt cache (priced higher).' })),
      }),
    ),
    files_touched: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 1000 })),
    output_excerpt: Type.Optional(Type.String({ maxLength: 4000 })),
    phase: Type.Optional(PhaseSchema),
    progress: Type.Optional(PhaseProgress),
    turn: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: "The model response the action came in, when the agent could tell it only once the action had run (Claude Code records a response after its calls' PreToolUse): as action.proposed's `turn`.",
      }),
    ),
  }),
});

export const ActionFallback = defineMessage({
  type: 'action.fallback',
  version: 1,
  channel: 'outcome',
  summary: "What the agent was answered without Warden's decision: Warden could not be reached, or did not decide in time.",
  payload: Type.Object({
    action_id: SubjectToken('The action the agent was answered about.'),
    tool: Type.Optional(Type.String({ maxLength: 256 })),
    decision: Type.Enum(['allow', 'deny'], { description: 'deny when Warden fails closed (the default); allow for a tool the fail-open setting names.' }),
    reason: Type.String({ maxLength: 4000 }),
    answered_by: Type.Enum(['sdk', 'hook', 'gateway'], { description: "Who answered: the agent's SDK, the command hook, or the agent gateway." }),
    answered_at: Type.String({ format: 'date-time', description: 'When the agent was answered (the record may be sent later, once Warden can be reached).' }),
  }),
});

/** What Warden had said of an action that ran anyway. */
export const OVERRIDDEN_DECISIONS = ['denied', 'stopped', 'held', 'never_proposed'] as const;

export const ActionRanAgainstDecision = defineMessage({
  type: 'action.ran_against_decision',
  version: 1,
  channel: 'outcome',
  summary: "An action ran although Warden denied it, still held it, or never saw it proposed: the agent reported it ran (a PostToolUse or its equivalent). An incident.",
  payload: Type.Object({
    action_id: SubjectToken('The tool call that ran (e.g. a tool_use id).'),
    tool: Type.String({ minLength: 1, maxLength: 256 }),
    input: Type.Record(Type.String(), Type.Unknown(), { description: 'The input it ran with, as the agent reported it.' }),
    warden_decision: Type.Enum([...OVERRIDDEN_DECISIONS], {
      description:
        'denied: Warden decided deny; stopped: the session was stopped (emergency stop) and the call was denied for it; held: no decision yet (held for an approval, or undecided when the hook answered); never_proposed: Warden never saw the call proposed (no hook ran before it).',
    }),
    reason: Type.Optional(Type.String({ maxLength: 4000, description: "Warden's reason for the denial or the hold." })),
    decided_by: Type.Optional(Type.String({ maxLength: 64 })),
    decision_message_id: Type.Optional(Type.String({ maxLength: 128 })),
    status: Type.Enum(['success', 'error'], { description: 'How it ran.' }),
    reported_by: Type.String({ maxLength: 128, description: "The agent's event that reported it, e.g. claude-code PostToolUse." }),
    subagent: Type.Optional(
      Type.Object({
        id: Type.Optional(Type.String({ maxLength: 128 })),
        type: Type.Optional(Type.String({ maxLength: 128 })),
      }),
    ),
  }),
});
