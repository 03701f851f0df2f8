import { cutoffOf, parseRetentionDays, RETENTION_DEFAULT_DAYS, RETENTION_TABLES, typesOf } from './retention-policy.js';

describe('retention policy', () => {
  it('reads days per table over the defaults', () => {
    expect(parseRetentionDays('events=30, costs=0')).toEqual({ ...RETENTION_DEFAULT_DAYS, events: 30, costs: 0 });
    expect(parseRetentionDays(undefined)).toEqual(RETENTION_DEFAULT_DAYS);
  });

  it.each([['eventz=3', 'unknown table'], ['events', 'not table=days'], ['events=-1', 'integer >= 0'], ['events=1.5', 'integer >= 0']])('refuses %s', (text, message) => {
    expect(() => parseRetentionDays(text)).toThrow(message);
  });

  it('gives each event type to exactly one table', () => {
    const all = Object.values(RETENTION_TABLES).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(typesOf('events')).toEqual({ exclude: all });
    expect(typesOf('costs')).toEqual({ include: ['breaker.cost_recorded'] });
  });

  it('keeps for ever with 0 days', () => {
    const now = new Date('2026-11-21T00:00:00Z');
    expect(cutoffOf(0, now)).toBeNull();
    expect(cutoffOf(2, now)).toEqual(new Date('2026-11-19T00:00:00Z'));
  });
});
