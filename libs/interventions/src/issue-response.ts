import { derivedMessageId, type InterventionType, type MessageInit, type MessageType } from '@warden/contracts';
import type { IncidentReport } from './incident.js';
import type { Evaluated, InterventionSession, Plan } from './intervention-session.js';
import type { InterventionSettings } from './intervention-settings.js';
import { intervene } from './interventions.js';
import type { Issue } from './issue.js';
import type { PromptTemplates } from './prompts.js';

/** The longest text a control message carries (control.issued `message`). */
const MAX_CONTROL_TEXT = 16_000;

/** The operator id the controller's own gate commands carry. */
export const CONTROLLER_OPERATOR = 'intervention-controller';

/** A message the controller publishes; `key` makes its id, so a retry publishes the same id and JetStream drops it. */
export interface Publication<T extends MessageType = MessageType> {
  type: T;
  payload: MessageInit<T>['payload'];
  key: string;
}

/** What the controller does about one issue: the plan, and the messages that carry it out. */
export interface IssueResponse {
  plan: Plan;
  publications: Publication[];
  /** emergency_stop: the incident, to notify once the record is stored. */
  incident?: IncidentReport;
}

export interface IssueResponseInput {
  settings: InterventionSettings;
  templates: PromptTemplates;
  /** The id of the message that reported the issue: every id the response makes is derived from it. */
  causeId: string;
  at: number;
  /** A registered handler's choice, when one decided. */
  custom?: { type: InterventionType; handler: string; message?: string };
}

const publication = <T extends MessageType>(type: T, payload: MessageInit<T>['payload'], key: string): Publication => ({ type, payload, key }) as Publication;

/**
 * Settled evaluations as messages: one `intervention.evaluated` per intervention, whatever settled it.
 */
export function evaluationPublications(evaluated: readonly Evaluated[]): Publication[] {
  return evaluated.map(({ intervention, evaluation }) =>
    publication(
      'intervention.evaluated',
      {
        intervention_id: intervention.id,
        outcome: evaluation.outcome,
        effectiveness: Math.round(evaluation.effectiveness * 1e6) / 1e6,
        next_step: evaluation.next_step,
      },
      `evaluated:${intervention.id}`,
    ),
  );
}

/**
 * The controller's answer to an issue (seed 000's intervene): choose the intervention, build its control
 * message, and for an emergency stop pause the session at the gate first and open an incident. The
 * session's record changes here; the service publishes the returned messages, then stores the record.
 */
export function respondToIssue(session: InterventionSession, issue: Issue, input: IssueResponseInput): IssueResponse {
  const { settings, templates, causeId, at, custom } = input;
  const { plan, evaluated } = session.consider(issue, at, custom ? { type: custom.type, handler: custom.handler } : undefined);
  const publications = evaluationPublications(evaluated);
  if (plan.skip) return { plan, publications };
  const selection = plan.selection;
  const interventionId = derivedMessageId('intervention', causeId);
  const controlId = derivedMessageId('control', causeId);
  const incidentId = derivedMessageId('incident', causeId);
  const result = intervene(selection.type, {
    issue,
    record: session.record,
    settings,
    templates,
    interventionId,
    incidentId,
    now: at,
    ...(custom?.message ? { message: custom.message } : {}),
  });
  if (result.incident) {
    // Paused first: from now on nothing of the session passes the gate, whatever the agent does.
    publications.push(
      publication('gate.command', { command_type: 'hitl_pause', operator_id: CONTROLLER_OPERATOR, reason: `Emergency stop (incident ${incidentId}): ${issue.description}`.slice(0, 2000) }, `${causeId}:pause`),
      publication('incident.created', result.incident, `${causeId}:incident`),
    );
    session.stop(at, incidentId, controlId);
  }
  publications.push(
    publication(
      'control.issued',
      {
        control_id: controlId,
        intervention_id: interventionId,
        issue_type: issue.type,
        ...result.control,
        // Long declared contexts or custom texts are cut to what the contract carries.
        ...(result.control.message ? { message: result.control.message.slice(0, MAX_CONTROL_TEXT) } : {}),
      },
      `${causeId}:control`,
    ),
    publication(
      'intervention.issued',
      {
        intervention_id: interventionId,
        intervention_type: selection.type,
        trigger: issue.trigger,
        severity: issue.severity,
        severity_score: Math.round(selection.severity_score * 1e6) / 1e6,
        escalation_level: selection.escalation_level,
        control_id: controlId,
        strategy: selection.strategy,
        escalated: selection.escalated,
        ...(selection.previous ? { previous_intervention_type: selection.previous.type } : {}),
        ...(selection.handler ? { handler: selection.handler } : {}),
        ...(result.throttle
          ? {
              limits: result.throttle.limits as Record<string, number>,
              reduction_factors: {
                iterations: result.throttle.factors.iterations,
                cost: result.throttle.factors.cost,
                tokens: result.throttle.factors.tokens,
                file_operations: result.throttle.factors.file_operations,
              },
            }
          : {}),
        ...(result.checkpoint ? { checkpoint_id: result.checkpoint.id } : {}),
        ...(result.recoveryNeeded ? { recovery_needed: true } : {}),
        ...(result.incident ? { incident_id: incidentId } : {}),
        ...(session.record.replay ? { replay: true } : {}),
      },
      `${causeId}:intervention`,
    ),
  );
  if (result.throttle) session.record.limits = result.throttle.limits;
  session.issued({
    id: interventionId,
    type: selection.type,
    issue_type: issue.type,
    at,
    control_id: controlId,
    strategy: selection.strategy,
    severity_score: selection.severity_score,
    escalation_level: selection.escalation_level,
    escalated: selection.escalated,
    ...(selection.handler ? { handler: selection.handler } : {}),
    ...(result.checkpoint ? { checkpoint_id: result.checkpoint.id } : {}),
    ...(result.incident ? { incident_id: incidentId } : {}),
  });
  return { plan, publications, ...(result.incident ? { incident: result.incident } : {}) };
}
