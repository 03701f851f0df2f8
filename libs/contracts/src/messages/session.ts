import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { PhaseSchema, Timestamp } from '../vocabulary.js';
import { GOAL_MAX_LENGTH, SessionContext } from './action.js';

export const SessionStarted = defineMessage({
  type: 'session.started',
  version: 1,
  channel: 'session',
  summary: 'An agent session began, with the goal, expected paths and constraints it declared.',
  payload: Type.Object({
    context: SessionContext,
    phase: Type.Optional(PhaseSchema),
    agent_kind: Type.Optional(Type.String({ maxLength: 128, description: 'e.g. claude-code, openhands, custom.' })),
    model: Type.Optional(Type.String({ maxLength: 128 })),
    environment: Type.Optional(Type.String({ maxLength: 64, description: 'e.g. development, staging, production.' })),
    replay: Type.Optional(
      Type.Boolean({ description: "A recorded session fed through Warden again (warden replay): what Warden does in it never counts toward the agent's track record." }),
    ),
  }),
});

export const SessionPhaseChanged = defineMessage({
  type: 'session.phase_changed',
  version: 1,
  channel: 'session',
  summary: 'The agent moved to another phase; per-phase budgets and timeouts restart.',
  payload: Type.Object({
    phase: PhaseSchema,
    previous_phase: Type.Optional(PhaseSchema),
  }),
});

export const SessionGoalChanged = defineMessage({
  type: 'session.goal_changed',
  version: 1,
  channel: 'session',
  summary: "The session's goal changed: its user asked for something new (a follow-up prompt); what came before served the old goal.",
  payload: Type.Object({
    goal: Type.String({ minLength: 1, maxLength: GOAL_MAX_LENGTH }),
    source: Type.Optional(Type.Enum(['user_prompt', 'agent'], { description: 'Who set it: the user in a prompt, or the agent re-planning.' })),
  }),
});

/** At most this much of a turn's last words travels (the end of a longer reply is kept: it holds the summary). */
export const TURN_END_MAX_LENGTH = 8000;

export const SessionTurnEnded = defineMessage({
  type: 'session.turn_ended',
  version: 1,
  channel: 'session',
  summary:
    "The agent ended its turn with these words (its Stop hook's last_assistant_message): what they claim (checks pass, a failure was there before, a fix) is held against what the session did.",
  payload: Type.Object({
    text: Type.String({ minLength: 1, maxLength: TURN_END_MAX_LENGTH, description: "The agent's last message of the turn, its secrets redacted." }),
  }),
});

const LATEST = '\nLatest request: ';

/**
 * The session's goal after a follow-up request: the original request with the latest one after it. A
 * follow-up is often no task of its own ("yes, go ahead", "is the JSON right?"), so what the session is
 * about stays in view; every service that tracks the goal combines it this way.
 */
export function goalAfter(previous: string | undefined, request: string): string {
  if (!previous) return request.slice(0, GOAL_MAX_LENGTH);
  // The original keeps three quarters of the room, so that a long plan's files stay named after a follow-up.
  const original = previous.split(LATEST)[0]!.slice(0, (GOAL_MAX_LENGTH * 3) / 4);
  return `${original}${LATEST}${request}`.slice(0, GOAL_MAX_LENGTH);
}

export const SessionEnded = defineMessage({
  type: 'session.ended',
  version: 1,
  channel: 'session',
  summary: "The run ended; its outcome feeds the agent's track record on the automation ladder.",
  payload: Type.Object({
    status: Type.Enum(['success', 'failure', 'aborted']),
    false_positives: Type.Optional(Type.Integer({ minimum: 0 })),
    missed_critical_bugs: Type.Optional(Type.Integer({ minimum: 0 })),
    human_approved: Type.Optional(Type.Boolean()),
    summary: Type.Optional(Type.String({ maxLength: 4000 })),
  }),
});

export const SessionToolsObserved = defineMessage({
  type: 'session.tools_observed',
  version: 1,
  channel: 'session',
  summary:
    "Tool runs of a session as the agent's own telemetry reports them (Claude Code's tool_result events), held against the actions its hooks proposed: tools that ran while no hook call proposed them mean the hook went silent.",
  payload: Type.Object({
    source: Type.Enum(['telemetry_event']),
    agent_kind: Type.Optional(Type.String({ maxLength: 64, description: 'The agent product whose telemetry it was read from: claude-code, ...' })),
    tool_runs: Type.Array(
      Type.Object({
        key: Type.String({ minLength: 1, maxLength: 256, description: 'Identifies the run among everything the session reports (an export sent again names the same keys).' }),
        tool: Type.String({ minLength: 1, maxLength: 256, description: 'The tool, as the agent names it: Bash, Edit, mcp__github__create_issue, ...' }),
        at: Timestamp,
      }),
      { minItems: 1, maxItems: 1000 },
    ),
  }),
});
