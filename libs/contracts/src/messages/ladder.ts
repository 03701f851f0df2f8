import Type from 'typebox';
import { defineMessage } from '../envelope.js';

const AutomationLevelSchema = Type.Integer({ minimum: 0, maximum: 4, description: 'Automation level 0-4 (seed 002 §7).' });

export const LadderMetrics = Type.Object({
  total_runs: Type.Integer({ minimum: 0 }),
  successful_runs: Type.Integer({ minimum: 0 }),
  false_positives: Type.Integer({ minimum: 0 }),
  missed_critical_bugs: Type.Integer({ minimum: 0 }),
  approval_rate: Type.Number({ minimum: 0, maximum: 1, description: 'Exponential moving average, alpha 0.1.' }),
});

export const LadderMetricsUpdated = defineMessage({
  type: 'ladder.metrics_updated',
  version: 1,
  channel: 'ladder',
  summary: "An agent's track record after a run.",
  payload: Type.Object({ level: AutomationLevelSchema, metrics: LadderMetrics }),
});

export const LadderLevelChanged = defineMessage({
  type: 'ladder.level_changed',
  version: 1,
  channel: 'ladder',
  summary: "An agent's automation level changed.",
  payload: Type.Object({
    from: AutomationLevelSchema,
    to: AutomationLevelSchema,
    reason: Type.String({ maxLength: 2000 }),
    changed_by: Type.String({ maxLength: 256, description: '`ladder` for earned changes, or an operator id.' }),
    metrics: LadderMetrics,
  }),
});

export const LadderCommand = defineMessage({
  type: 'ladder.command',
  version: 1,
  channel: 'ladder_command',
  summary: "An operator command for an agent's automation level (the session token is `_`).",
  payload: Type.Object({
    command: Type.Enum(['pin', 'unpin', 'set_level']),
    level: Type.Optional(AutomationLevelSchema),
    operator_id: Type.String({ minLength: 1, maxLength: 256 }),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
  }),
});
