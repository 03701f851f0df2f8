import { severityOf } from './rule-severity.js';

describe('severityOf', () => {
  it.each([
    [0, 'low'],
    [0.29, 'low'],
    [0.3, 'medium'],
    [0.59, 'medium'],
    [0.6, 'high'],
    [0.9, 'high'],
    [0.95, 'critical'],
    [1, 'critical'],
  ])('rates %d as %s, with the seed’s thresholds', (score, severity) => {
    expect(severityOf(score)).toBe(severity);
  });
});
