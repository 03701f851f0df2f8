import { definitionOf, type MessageType } from '@warden/contracts';
import Type, { type TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { ProposedAction } from '../step-reviewer.js';
import { REPLAYED_TYPES, type SessionEvent } from './session-replay.js';

/** Messages of the session an explain request may carry: more are refused, not cut (the answer would explain another session). */
export const MAX_HISTORY = 5_000;

const payloadOf = (type: MessageType) => definitionOf(type)!.payload as TSchema;

/** What the reviewer's explain endpoint takes: the action as proposed, its session's messages before it, and the agent's level then. */
const ExplainRequestSchema = Type.Object(
  {
    agent_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' }),
    session_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' }),
    action: payloadOf('action.proposed'),
    at: Type.Optional(Type.String({ format: 'date-time' })),
    level: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
    spend_usd: Type.Optional(Type.Number({ minimum: 0 })),
    history: Type.Array(
      Type.Object(
        { type: Type.Enum([...REPLAYED_TYPES]), at: Type.Optional(Type.String({ format: 'date-time' })), payload: Type.Record(Type.String(), Type.Unknown()) },
        { additionalProperties: false },
      ),
      { maxItems: MAX_HISTORY },
    ),
  },
  { additionalProperties: false },
);

const requestChecker = Compile(ExplainRequestSchema);
const payloadCheckers = new Map<string, Validator>();

function payloadChecker(type: string): Validator {
  let checker = payloadCheckers.get(type);
  if (!checker) {
    checker = Compile(payloadOf(type as MessageType)) as unknown as Validator;
    payloadCheckers.set(type, checker);
  }
  return checker;
}

export interface ExplainRequest {
  address: { agentId: string; sessionId: string };
  action: ProposedAction;
  at?: string;
  level?: number;
  /** The session's spend the review read (the verdict's session_spend_usd). */
  spendUsd?: number;
  history: SessionEvent[];
}

export class InvalidExplainRequest extends Error {}

const firstError = (checker: Validator, value: unknown) => {
  const error = [...checker.Errors(value)].find((e) => e.keyword !== 'boolean');
  return error ? `${error.instancePath || '/'}: ${error.message}` : 'invalid';
};

/**
 * Checks an explain request as HTTP received it: its shape, and every message of the history against its
 * contract, so that what the review replays is what the services would have accepted. Throws
 * InvalidExplainRequest with the place of the first mistake.
 */
export function parseExplainRequest(body: unknown): ExplainRequest {
  if (!requestChecker.Check(body)) throw new InvalidExplainRequest(firstError(requestChecker, body));
  const request = body as { agent_id: string; session_id: string; action: ProposedAction; at?: string; level?: number; spend_usd?: number; history: SessionEvent[] };
  request.history.forEach((event, i) => {
    const checker = payloadChecker(event.type);
    if (!checker.Check(event.payload)) throw new InvalidExplainRequest(`/history/${i}/payload (${event.type}) ${firstError(checker, event.payload)}`);
  });
  return {
    address: { agentId: request.agent_id, sessionId: request.session_id },
    action: request.action,
    ...(request.at !== undefined ? { at: request.at } : {}),
    ...(request.level !== undefined ? { level: request.level } : {}),
    ...(request.spend_usd !== undefined ? { spendUsd: request.spend_usd } : {}),
    history: request.history,
  };
}
