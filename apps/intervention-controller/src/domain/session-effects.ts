import { goalAfter, type MessageOf, type PayloadOf } from '@warden/contracts';
import { evaluationPublications, type Evaluated, type IncidentReport, type InterventionSession, type IssueResponse, type Publication } from '@warden/interventions';

/** A count the controller reports once the change it belongs to is stored. */
export type Tally =
  | { kind: 'intervention'; interventionType: string; outcome: string }
  | { kind: 'escalation'; interventionType: string }
  | { kind: 'effectiveness'; interventionType: string; value: number };

/** What a change to a session leads to: messages to publish, counts to report, an incident to notify. */
export interface Effects {
  publications: Publication[];
  tallies: Tally[];
  /** Sent once the record is stored (an emergency stop's notification). */
  notice?: IncidentReport;
}

export const noEffects = (): Effects => ({ publications: [], tallies: [] });

/** The messages a session's lifecycle, actions, outcomes, checkpoints and acknowledgements carry into it. */
export type SessionMessage =
  | MessageOf<'session.started'>
  | MessageOf<'session.goal_changed'>
  | MessageOf<'session.ended'>
  | MessageOf<'action.proposed'>
  | MessageOf<'action.outcome'>
  | MessageOf<'checkpoint.saved'>
  | MessageOf<'control.acknowledged'>;

/**
 * Applies one session message (`at`: when JetStream stored it) and returns what it leads to: an
 * outcome or an acknowledgement may settle interventions, whose evaluations are published.
 */
export function applySessionMessage(session: InterventionSession, message: SessionMessage, at: number): Effects {
  const effects = noEffects();
  switch (message.type) {
    case 'session.started':
      session.declare(message.payload.context, at);
      if (message.payload.replay) session.record.replay = true;
      break;
    case 'session.goal_changed':
      session.declare({ ...session.record.context, goal: goalAfter(session.record.context.goal, message.payload.goal) }, at);
      break;
    case 'session.ended':
      session.end();
      break;
    case 'action.proposed':
      session.recordAction(message.payload.action_id, at);
      break;
    case 'action.outcome': {
      const p = message.payload;
      judge(
        session.recordOutcome({
          action_id: p.action_id,
          at,
          ok: p.status === 'success',
          ...(p.tokens ? { tokens: p.tokens.prompt + p.tokens.completion } : {}),
          ...(p.files_touched ? { files: p.files_touched } : {}),
        }),
        effects,
      );
      break;
    }
    case 'checkpoint.saved': {
      const p = message.payload;
      session.recordCheckpoint({
        id: p.checkpoint_id,
        at,
        ...(p.label ? { label: p.label } : {}),
        files: p.files.map((f) => ({ path: f.path, ...(f.deleted ? { deleted: true } : {}) })),
        ...(p.object_store ? { object_store: p.object_store } : {}),
        ...(p.conversation_position !== undefined ? { conversation_position: p.conversation_position } : {}),
      });
      break;
    }
    case 'control.acknowledged': {
      const p = message.payload;
      const { entry, evaluated } = session.acknowledge(p.control_id, p.status, at, p.restored_files);
      if (entry) effects.tallies.push({ kind: 'intervention', interventionType: entry.type, outcome: p.status });
      if (evaluated) judge([evaluated], effects);
      break;
    }
  }
  return effects;
}

/** Settled evaluations become intervention.evaluated messages (one per intervention) and counts. */
export function judge(evaluated: readonly Evaluated[], effects: Effects): void {
  effects.publications.push(...evaluationPublications(evaluated));
  for (const { intervention, evaluation } of evaluated) countEvaluation(intervention.type, evaluation, effects);
}

/** The response to an issue: its messages, the counts of what was issued, suppressed or settled, the incident. */
export function responseEffects(session: InterventionSession, response: IssueResponse): Effects {
  const effects: Effects = { publications: [...response.publications], tallies: [] };
  for (const p of response.publications) {
    if (p.type !== 'intervention.evaluated') continue;
    const evaluated = p.payload as PayloadOf<'intervention.evaluated'>;
    const type = session.record.interventions.find((i) => i.id === evaluated.intervention_id)?.type ?? 'unknown';
    countEvaluation(type, evaluated, effects);
  }
  const { plan } = response;
  if (plan.skip) {
    effects.tallies.push({ kind: 'intervention', interventionType: plan.selection?.type ?? 'none', outcome: `suppressed_${plan.skip}` });
    return effects;
  }
  if (response.incident) effects.notice = response.incident;
  effects.tallies.push({ kind: 'intervention', interventionType: plan.selection.type, outcome: 'issued' });
  if (plan.selection.escalated) effects.tallies.push({ kind: 'escalation', interventionType: plan.selection.type });
  return effects;
}

function countEvaluation(interventionType: string, evaluation: { outcome: string; effectiveness: number }, effects: Effects): void {
  effects.tallies.push({ kind: 'intervention', interventionType, outcome: evaluation.outcome });
  if (evaluation.outcome !== 'unknown') effects.tallies.push({ kind: 'effectiveness', interventionType, value: evaluation.effectiveness });
}
