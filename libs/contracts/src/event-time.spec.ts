import { eventTime } from './event-time.js';

describe('eventTime', () => {
  it('takes the time a message carries unless it lies in the future of the stored time', () => {
    const stored = Date.parse('2026-03-02T10:00:00Z');
    expect(eventTime('2026-03-02T09:59:00Z', stored, 5000)).toBe(stored - 60_000);
    expect(eventTime('2026-03-02T10:00:05Z', stored, 5000)).toBe(stored + 5000);
    expect(eventTime('2026-03-02T10:00:05.001Z', stored, 5000)).toBe(stored);
    expect(eventTime('yesterday', stored, 5000)).toBe(stored);
    expect(eventTime(undefined, stored, 5000)).toBe(stored);
  });

  it('keeps a recorded past, however far back, so that a replay is judged on its own time', () => {
    const stored = Date.parse('2026-11-29T10:00:00Z');
    expect(eventTime('2025-01-01T00:00:00Z', stored, 5000)).toBe(Date.parse('2025-01-01T00:00:00Z'));
  });
});
