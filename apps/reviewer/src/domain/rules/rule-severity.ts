import type { Severity } from '@warden/contracts';

/** Seed 001's thresholds: below 0.3 low, below 0.6 medium, below 0.95 high, then critical. */
export function severityOf(score: number): Severity {
  if (score >= 0.95) return 'critical';
  if (score >= 0.6) return 'high';
  if (score >= 0.3) return 'medium';
  return 'low';
}
