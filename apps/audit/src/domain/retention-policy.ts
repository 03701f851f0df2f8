/**
 * Retention by table: each typed table (view) of the audit store keeps its events for its own number of
 * days; `events` is the raw log of every other type. The types of a table are listed here once, and the
 * views of the migrations select the same types.
 */
export const RETENTION_TABLES = {
  decisions: ['decision.made', 'review.verdict'],
  patterns: ['pattern.detected'],
  interventions: ['intervention.issued', 'intervention.evaluated', 'incident.created', 'control.issued', 'control.acknowledged'],
  breaker_trips: ['breaker.tripped', 'breaker.warning', 'breaker.state_changed', 'breaker.command', 'breaker.command_applied', 'breaker.error'],
  gate_events: ['gate.requested', 'gate.responded', 'gate.escalated', 'gate.command', 'hitl.paused', 'hitl.resumed', 'hitl.intervention_recorded'],
  costs: ['breaker.cost_recorded'],
} as const satisfies Record<string, readonly string[]>;

export type RetentionTable = keyof typeof RETENTION_TABLES | 'events';
export const RETENTION_TABLE_NAMES = [...Object.keys(RETENTION_TABLES), 'events'] as RetentionTable[];

/** Days each table keeps its events; 0 keeps them for ever. */
export type RetentionDays = Record<RetentionTable, number>;

export const RETENTION_DEFAULT_DAYS: RetentionDays = {
  events: 90,
  decisions: 365,
  patterns: 180,
  interventions: 365,
  breaker_trips: 365,
  gate_events: 365,
  costs: 400,
};

export class RetentionConfigError extends Error {}

/** Reads `table=days,table=days` (e.g. `events=30,costs=730`) over the defaults. */
export function parseRetentionDays(text: string | undefined, defaults: RetentionDays = RETENTION_DEFAULT_DAYS): RetentionDays {
  const days = { ...defaults };
  if (!text?.trim()) return days;
  for (const part of text.split(',')) {
    const [name, value, ...rest] = part.split('=').map((s) => s.trim());
    if (!name || value === undefined || rest.length) throw new RetentionConfigError(`AUDIT_RETENTION: "${part.trim()}" is not table=days`);
    if (!(RETENTION_TABLE_NAMES as string[]).includes(name)) {
      throw new RetentionConfigError(`AUDIT_RETENTION: unknown table "${name}" (use ${RETENTION_TABLE_NAMES.join(', ')})`);
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new RetentionConfigError(`AUDIT_RETENTION: days of ${name} must be an integer >= 0 (got "${value}")`);
    days[name as RetentionTable] = n;
  }
  return days;
}

/** The event types a retention table covers; for `events`, the types no other table covers (exclusion list). */
export function typesOf(table: RetentionTable): { include: string[] } | { exclude: string[] } {
  if (table === 'events') return { exclude: Object.values(RETENTION_TABLES).flat() };
  return { include: [...RETENTION_TABLES[table]] };
}

/** Events of a table that happened before this instant are past retention; null when kept for ever. */
export function cutoffOf(days: number, now: Date): Date | null {
  return days > 0 ? new Date(now.getTime() - days * 86_400_000) : null;
}
