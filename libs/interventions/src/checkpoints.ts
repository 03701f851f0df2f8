import type { Issue } from './issue.js';
import type { InterventionSettings } from './intervention-settings.js';
import type { CheckpointEntry, SessionRecord } from './session-record.js';

/**
 * When the issue started: its earliest evidence action if the session saw it, else when it was
 * reported (the seed's estimate_issue_start).
 */
export function estimateIssueStart(issue: Issue, record: SessionRecord): number {
  const times = issue.evidence_action_ids
    .map((id) => record.actions.find((a) => a.id === id)?.at)
    .filter((t): t is number => t !== undefined);
  return times.length ? Math.min(...times) : issue.at;
}

/**
 * Whether a checkpoint is safe to return to (the seed's safe_checkpoint_criteria): the outcomes before
 * it succeeded at least min_success_rate of the time, and none failed in the no_errors_duration before it.
 */
export function isSafeCheckpoint(checkpoint: CheckpointEntry, record: SessionRecord, criteria: InterventionSettings['checkpoint_rollback']['safe_checkpoint_criteria']): boolean {
  const before = record.outcomes.filter((o) => o.at <= checkpoint.at);
  if (before.length) {
    const rate = before.filter((o) => o.ok).length / before.length;
    if (rate < criteria.min_success_rate) return false;
  }
  const quietFrom = checkpoint.at - criteria.no_errors_duration_seconds * 1000;
  return !before.some((o) => !o.ok && o.at >= quietFrom);
}

/**
 * The seed's select_rollback_checkpoint: the newest safe checkpoint saved before the issue started,
 * among the newest max_rollback_depth checkpoints (a rollback never goes further back than that).
 */
export function selectRollbackCheckpoint(record: SessionRecord, issue: Issue, settings: InterventionSettings['checkpoint_rollback']): CheckpointEntry | undefined {
  const start = estimateIssueStart(issue, record);
  const candidates = [...record.checkpoints].sort((a, b) => a.at - b.at).slice(-settings.max_rollback_depth);
  return candidates.filter((c) => c.at < start && isSafeCheckpoint(c, record, settings.safe_checkpoint_criteria)).at(-1);
}

/** The newest safe checkpoint at all, for an incident's recovery options. */
export function lastSafeCheckpoint(record: SessionRecord, settings: InterventionSettings['checkpoint_rollback']): CheckpointEntry | undefined {
  return [...record.checkpoints].sort((a, b) => a.at - b.at).filter((c) => isSafeCheckpoint(c, record, settings.safe_checkpoint_criteria)).at(-1);
}
