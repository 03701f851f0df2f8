import type { Severity } from '@warden/contracts';
import { severityOf as riskSeverityOf } from '../analysis/risk-calculator.js';
import { DEFAULT_REVIEWER_SETTINGS } from '../settings/reviewer-settings.js';

/** A finding's severity on seed 001's default bands: below 0.3 low, below 0.6 medium, below 0.95 high, then critical. */
export function severityOf(score: number): Severity {
  return riskSeverityOf(score, DEFAULT_REVIEWER_SETTINGS.risk);
}
