import { checkpointObjectName, checkpointBucket, type InterventionType, type PayloadOf } from '@warden/contracts';
import { selectRollbackCheckpoint } from './checkpoints.js';
import { createIncidentReport, type IncidentReport } from './incident.js';
import type { Issue } from './issue.js';
import type { InterventionSettings } from './intervention-settings.js';
import { contextReinforcement, recoveryPlan, recoveryPlanText, rollbackGuidance, softCorrection, throttlingNotice, type PromptTemplates } from './prompts.js';
import type { CheckpointEntry, SessionRecord } from './session-record.js';
import { computeThrottle, type Throttle } from './throttling.js';

export type ControlOrder = Omit<PayloadOf<'control.issued'>, 'control_id' | 'intervention_id' | 'issue_type'>;

/** What an intervention does to the session: the control message, and what the controller must do besides. */
export interface InterventionResult {
  type: InterventionType;
  control: ControlOrder;
  /** resource_throttling: the new limits and factors, for the breaker to enforce. */
  throttle?: Throttle;
  /** checkpoint_rollback: the checkpoint ordered. */
  checkpoint?: CheckpointEntry;
  /** checkpoint_rollback without a safe checkpoint: a recovery plan was sent instead. */
  recoveryNeeded?: boolean;
  /** emergency_stop: the incident report; the session is paused at the gate. */
  incident?: IncidentReport;
}

export interface InterventionInput {
  issue: Issue;
  record: SessionRecord;
  settings: InterventionSettings;
  templates: PromptTemplates;
  interventionId: string;
  /** emergency_stop: the incident's id. */
  incidentId: string;
  now: number;
  /** A custom handler's own text, used instead of the built-in one. */
  message?: string;
}

/**
 * The five interventions of seed 000, each turned into the control message the agent receives
 * (conversation changes are the agent's to make; the SDK applies rollbacks and stops itself).
 */
export function intervene(type: InterventionType, input: InterventionInput): InterventionResult {
  const { issue, record, settings, templates } = input;
  const context = record.context;
  switch (type) {
    case 'soft_correction':
      return { type, control: { kind: type, message: input.message ?? softCorrection(templates, issue, context), requires_ack: true } };
    case 'context_reinforcement':
      return {
        type,
        control: { kind: type, message: input.message ?? contextReinforcement(templates, issue, context, settings.context_reinforcement), requires_ack: true },
      };
    case 'resource_throttling': {
      const throttle = computeThrottle(record.limits, issue, settings.resource_throttling.reduction_factors);
      return {
        type,
        throttle,
        control: { kind: type, message: input.message ?? throttlingNotice(templates, issue, context, throttle.limits), limits: throttle.limits, requires_ack: true },
      };
    }
    case 'checkpoint_rollback': {
      const checkpoint = selectRollbackCheckpoint(record, issue, settings.checkpoint_rollback);
      if (!checkpoint) {
        return {
          type,
          recoveryNeeded: true,
          control: { kind: type, message: input.message ?? recoveryPlanText(templates, issue, context), recovery_plan: recoveryPlan(issue, context), requires_ack: true },
        };
      }
      return {
        type,
        checkpoint,
        control: {
          kind: type,
          message: input.message ?? rollbackGuidance(templates, issue, context, checkpoint),
          checkpoint_id: checkpoint.id,
          object_store: checkpoint.object_store ?? { bucket: checkpointBucket(record.agent_id), key: checkpointObjectName(record.session_id, checkpoint.id) },
          ...(checkpoint.conversation_position !== undefined ? { conversation_position: checkpoint.conversation_position } : {}),
          requires_ack: true,
        },
      };
    }
    case 'emergency_stop': {
      const incident = createIncidentReport(input.incidentId, input.interventionId, issue, record, settings, input.now);
      return {
        type,
        incident,
        control: {
          kind: type,
          message: input.message ?? `Emergency stop: ${issue.description}. Stop now and take no further action; incident ${input.incidentId} was opened for an operator.`,
          incident_id: input.incidentId,
          requires_ack: true,
        },
      };
    }
  }
}
