import { PHASES, type PayloadOf } from '@warden/contracts';
import type { SessionEvent } from '@warden/review';
import Type, { type Static } from 'typebox';

/** What a session has been through before the action a policy test or an explanation is about. */
export const SessionFacts = Type.Object(
  {
    goal: Type.Optional(Type.String()),
    environment: Type.Optional(Type.String()),
    phase: Type.Optional(Type.Enum([...PHASES])),
    agent: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' })),
    agent_kind: Type.Optional(Type.String()),
    cwd: Type.Optional(Type.String({ pattern: '^/' })),
    expected_paths: Type.Optional(Type.Array(Type.String())),
    failures: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Failed commands before this action.' })),
    spend_usd: Type.Optional(Type.Number({ minimum: 0, description: "What the session's run has cost so far, as the cost breaker would publish it." })),
  },
  { additionalProperties: false },
);
export type SessionFacts = Static<typeof SessionFacts>;

export const DEFAULT_CWD = '/work/app';

/**
 * The session's messages that give it these facts, as an agent would have sent them: its declaration
 * (goal, working directory, expected paths [the working directory], environment, phase, agent kind), then
 * each failure as a command that ran and failed. `id` keeps the action ids of different sessions apart.
 */
export function sessionEventsOf(facts: SessionFacts, id: string): SessionEvent[] {
  const cwd = facts.cwd ?? DEFAULT_CWD;
  const declared: PayloadOf<'session.started'> = {
    context: { ...(facts.goal ? { goal: facts.goal } : {}), cwd, expected_paths: facts.expected_paths ?? [`${cwd.replace(/\/+$/, '')}/**`] },
    ...(facts.environment ? { environment: facts.environment } : {}),
    ...(facts.phase ? { phase: facts.phase } : {}),
    ...(facts.agent_kind ? { agent_kind: facts.agent_kind } : {}),
  };
  const events: SessionEvent[] = [{ type: 'session.started', payload: declared }];
  for (let f = 0; f < (facts.failures ?? 0); f++) {
    const actionId = `failure-${id}-${f}`;
    events.push(
      { type: 'action.proposed', payload: { action_id: actionId, kind: 'tool_use', tool: 'Bash', input: { command: `false # failure ${f + 1}` } } },
      { type: 'action.outcome', payload: { action_id: actionId, status: 'error', error: { message: 'exit code 1' } } },
    );
  }
  return events;
}
