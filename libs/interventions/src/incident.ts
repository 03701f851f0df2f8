import type { PayloadOf } from '@warden/contracts';
import { lastSafeCheckpoint } from './checkpoints.js';
import type { Issue } from './issue.js';
import type { InterventionSettings, SessionLimits } from './intervention-settings.js';
import type { SessionRecord } from './session-record.js';
import { computeThrottle } from './throttling.js';

export type IncidentReport = PayloadOf<'incident.created'>;

const iso = (at: number) => new Date(at).toISOString();

const IMMEDIATE: Record<string, string> = {
  resource_spiral: 'Stop the processes the agent started and remove the temporary files it created.',
  scope_creep: 'Check every file the agent touched outside the expected paths.',
  hallucination: 'Check the files and APIs the agent relied on actually exist.',
  repetitive_errors: 'Read the repeated error and fix its cause before resuming.',
  blocked_action: 'Review the blocked action and why the agent attempted it.',
};

/**
 * The incident report of an emergency stop (seed 000 §5): summary, timeline of the session's issues
 * and interventions, impact, root cause and contributing factors, recommendations, and the recovery
 * options with what each would change.
 */
export function createIncidentReport(
  incidentId: string,
  interventionId: string,
  issue: Issue,
  record: SessionRecord,
  settings: InterventionSettings,
  now: number,
): IncidentReport {
  const timeline = [
    ...(record.started_at !== undefined ? [{ at: record.started_at, event: `Session started${record.context.goal ? `: ${record.context.goal}` : ''}` }] : []),
    ...record.issues.map((i) => ({ at: i.at, event: `${i.type} reported: ${i.description}` })),
    ...record.interventions.map((i) => ({
      at: i.at,
      event: `${i.type} issued for ${i.issue_type}${i.evaluation ? ` (${i.evaluation.outcome}, effectiveness ${i.evaluation.effectiveness.toFixed(2)})` : ''}${i.ack ? `; agent: ${i.ack.status}` : ''}`,
    })),
    ...record.checkpoints.map((c) => ({ at: c.at, event: `Checkpoint ${c.id} saved${c.label ? ` (${c.label})` : ''}` })),
    { at: now, event: `Emergency stop: ${issue.description}` },
  ]
    .sort((a, b) => a.at - b.at)
    .slice(-1000)
    .map((e) => ({ at: iso(e.at), event: e.event.slice(0, 2000) }));

  const previous = record.interventions.filter((i) => i.issue_type === issue.type);
  const contributing = [
    ...(previous.length ? [`${previous.length} earlier intervention(s) on ${issue.type} did not resolve it: ${previous.map((p) => p.type).join(' → ')}`] : []),
    ...(record.totals.errors ? [`${record.totals.errors} failed action(s) of ${record.totals.actions}`] : []),
    ...[...new Set(record.issues.filter((i) => i.type !== issue.type).map((i) => i.type))].map((t) => `also reported: ${t}`),
  ];
  const safe = lastSafeCheckpoint(record, settings.checkpoint_rollback);
  const strict: SessionLimits = computeThrottle(record.limits, { ...issue, severity: 'critical', details: {} }, settings.resource_throttling.reduction_factors).limits;

  const recoveryPlan: NonNullable<IncidentReport['recovery_plan']> = [
    {
      option: 'resume_with_limits',
      description: 'Resume with stricter safety limits',
      details: { resource_limits: strict, monitoring_level: 'strict', disallowed_tools: ['Bash'] },
    },
    {
      option: 'rollback_and_retry',
      description: 'Roll back to last safe checkpoint and retry',
      details: safe ? { checkpoint_id: safe.id, label: safe.label ?? null, saved_at: iso(safe.at) } : { checkpoint_id: null, note: 'no safe checkpoint was saved' },
    },
    {
      option: 'manual_intervention',
      description: 'Require manual approval for each action',
      details: { require_approval_for: ['file_write', 'file_delete', 'system_command'], auto_approve: ['file_read'] },
    },
    {
      option: 'abort',
      description: 'Abort the pipeline execution',
      details: { cleanup_required: record.totals.files_touched.slice(0, 100), auto_cleanup: settings.emergency_stop.auto_cleanup },
    },
  ];

  return {
    incident_id: incidentId,
    intervention_id: interventionId,
    summary: `Emergency stop triggered due to ${issue.type}: ${issue.description}`.slice(0, 4000),
    severity: issue.severity,
    timeline,
    impact: {
      files_affected: record.totals.files_touched.length,
      files: record.totals.files_touched.slice(0, 100),
      actions: record.totals.actions,
      failed_actions: record.totals.errors,
      resources_consumed: { tokens: record.totals.tokens },
      duration_ms: record.started_at !== undefined ? now - record.started_at : null,
      interventions: record.interventions.length,
    },
    root_cause: {
      issue_type: issue.type,
      trigger: issue.trigger,
      description: issue.description,
      evidence_action_ids: issue.evidence_action_ids.slice(0, 50),
      details: issue.details,
      contributing_factors: contributing,
    },
    recommendations: [
      `immediate: ${IMMEDIATE[issue.type] ?? 'Review the session timeline before resuming the agent.'}`,
      `preventive: Save checkpoints before risky steps, and declare expected paths and constraints at session start.`,
      `configuration: Lower the limits for this kind of task (for example ${Object.entries(strict).map(([k, v]) => `${k}=${v}`).join(', ') || 'the breaker budgets'}) or tighten the ${issue.type} detection.`,
    ],
    recovery_options: recoveryPlan.map((o) => `${o.option}: ${o.description}${o.option === 'rollback_and_retry' && safe ? ` (checkpoint ${safe.id})` : ''}`),
    recovery_plan: recoveryPlan,
  };
}
