import Type from 'typebox';
import { defineMessage } from '../envelope.js';
import { Timestamp } from '../vocabulary.js';

/**
 * Where a session's model usage was read. A session's spend is counted from one of them at a time (the
 * breaker takes the most precise one it has been sent): the agent's telemetry events (one per model
 * request, with its cost), its telemetry metrics (sums per export interval), or its transcript.
 */
export const USAGE_SOURCES = ['telemetry_event', 'telemetry_metric', 'transcript'] as const;
export type UsageSource = (typeof USAGE_SOURCES)[number];

export const UsageEntry = Type.Object(
  {
    key: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Identifies this usage among everything the session reports: the request id, or the series and interval of a metric point.',
    }),
    model: Type.String({ minLength: 1, maxLength: 128 }),
    tokens: Type.Object({
      prompt: Type.Integer({ minimum: 0, description: 'Input tokens neither read from nor written to the prompt cache.' }),
      completion: Type.Integer({ minimum: 0, description: 'Output tokens (reasoning included).' }),
      cache_read: Type.Optional(Type.Integer({ minimum: 0 })),
      cache_write: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
    cost_usd: Type.Optional(Type.Number({ minimum: 0, description: 'The cost as the agent reported it; without it Warden prices the tokens from its table.' })),
    at: Timestamp,
    query_source: Type.Optional(Type.String({ maxLength: 64, description: 'Who made the model call, as the agent says: main, subagent, auxiliary, ...' })),
  },
  { description: 'The model usage of one request, or of one metric interval.' },
);

export const UsageReported = defineMessage({
  type: 'usage.reported',
  version: 1,
  channel: 'usage',
  summary: "Model usage of a session as the agent's own telemetry or transcript reports it: the spend the budgets count.",
  payload: Type.Object({
    source: Type.Enum([...USAGE_SOURCES]),
    agent_kind: Type.Optional(Type.String({ maxLength: 64, description: 'The agent product whose telemetry or transcript it was read from: claude-code, codex, ...' })),
    entries: Type.Array(UsageEntry, { minItems: 1, maxItems: 1000 }),
  }),
});
