import Type, { type Static, type TSchema } from 'typebox';
import type { ChannelId } from './channels.js';
import { MessageId, SubjectToken, Timestamp } from './vocabulary.js';

/** Routing flags that travel with any message. */
export const ControlFlags = Type.Object(
  {
    hitl_required: Type.Optional(
      Type.Boolean({ description: 'When true the gate pauses the session before anything of it is forwarded (FR-11.9).' }),
    ),
    approver: Type.Optional(
      Type.Enum(['operator', 'agent_user'], {
        description:
          "Who answers a require_approval verdict on this action: an operator at the gate (the default), or the person at the agent's own terminal, whom the agent asks itself (the gate then decides allow with ask_user, unless it is configured to keep approvals for operators).",
      }),
    ),
  },
  { description: 'Routing flags for the suite.' },
);

/** The fields every Warden message carries around its payload. */
export const EnvelopeFields = {
  id: MessageId,
  session_id: SubjectToken('Session the message belongs to; `_` for suite-wide messages.'),
  agent_id: SubjectToken('Agent the message belongs to; `_` for suite-wide messages.'),
  trace_id: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$',
    description: 'Trace of one action: the proposal, its verdict, decision and outcome share it.',
  }),
  causation_id: Type.Optional(Type.String({ maxLength: 128, description: 'Id of the message that caused this one.' })),
  timestamp: Timestamp,
  control: Type.Optional(ControlFlags),
};

export interface MessageDefinition<TType extends string = string, TPayload extends TSchema = TSchema> {
  /** Dotted name, e.g. `action.proposed`. Unique across the suite. */
  readonly type: TType;
  /** Schema version of the payload; bumped on a breaking change. */
  readonly version: number;
  readonly channel: ChannelId;
  readonly summary: string;
  readonly payload: TPayload;
}

export function defineMessage<const TType extends string, TPayload extends TSchema>(
  definition: MessageDefinition<TType, TPayload>,
): MessageDefinition<TType, TPayload> {
  return definition;
}

/** The full JSON Schema of a message: envelope plus the definition's payload. */
export function envelopeSchema<TType extends string, TPayload extends TSchema>(definition: MessageDefinition<TType, TPayload>) {
  return Type.Object(
    {
      ...EnvelopeFields,
      type: Type.Literal(definition.type),
      version: Type.Literal(definition.version),
      payload: definition.payload,
    },
    { additionalProperties: false, title: definition.type, description: definition.summary },
  );
}

export interface Envelope<TType extends string = string, TPayload = unknown> {
  id: string;
  type: TType;
  version: number;
  session_id: string;
  agent_id: string;
  trace_id: string;
  causation_id?: string;
  timestamp: string;
  control?: Static<typeof ControlFlags>;
  payload: TPayload;
}
