import type { InterventionType, Severity } from '@warden/contracts';
import { PROGRESSION } from './intervention-settings.js';

const BASE_SCORE: Record<Severity, number> = { low: 0.2, medium: 0.5, high: 0.8, critical: 1.0 };

/** The seed's severity score: base score of the severity × confidence × (1 + impact factor). */
export function severityScore(issue: { severity: Severity; confidence: number; impact_factor: number }): number {
  return BASE_SCORE[issue.severity] * issue.confidence * (1 + issue.impact_factor);
}

/**
 * The seed's selection table over the combined score (severity score + escalation level × weight):
 * ≥ 0.9 emergency stop, ≥ 0.7 checkpoint rollback, ≥ 0.5 resource throttling, ≥ 0.3 context
 * reinforcement, below that soft correction.
 */
export function selectBySeverityAndEscalation(score: number, escalationLevel: number, weight = 0.3): InterventionType {
  // Rounded so that 0.6 + 0.3 is 0.9, as the table means, not 0.8999999999999999.
  const combined = Math.round((score + escalationLevel * weight) * 1e9) / 1e9;
  if (combined >= 0.9) return 'emergency_stop';
  if (combined >= 0.7) return 'checkpoint_rollback';
  if (combined >= 0.5) return 'resource_throttling';
  if (combined >= 0.3) return 'context_reinforcement';
  return 'soft_correction';
}

export const rank = (type: InterventionType): number => PROGRESSION.indexOf(type);
export const atRank = (index: number): InterventionType => PROGRESSION[Math.max(0, Math.min(PROGRESSION.length - 1, index))]!;
export const stronger = (a: InterventionType, b: InterventionType): InterventionType => (rank(a) >= rank(b) ? a : b);
