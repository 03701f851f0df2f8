import { answerProblem, checkAnswer, outcomeOf, type GateRequestRecord } from './gate-request.js';

describe('gate request answers', () => {
  it('takes approve, reject with a reason, and approve with conditions', () => {
    expect(checkAnswer({ approved: true })).toEqual({ ok: true, answer: { approved: true } });
    expect(checkAnswer({ approved: false, reason: ' Not now ' })).toEqual({ ok: true, answer: { approved: false, reason: 'Not now' } });
    expect(checkAnswer({ approved: true, conditions: ['Backup first'] })).toEqual({ ok: true, answer: { approved: true, conditions: ['Backup first'] } });
  });

  it('refuses answers without a decision, with bad conditions, or conditions on a rejection', () => {
    expect(checkAnswer({})).toEqual({ ok: false, reason: 'missing_required_field: approved' });
    expect(checkAnswer({ approved: 'yes' })).toMatchObject({ ok: false });
    expect(checkAnswer({ approved: true, conditions: [''] })).toMatchObject({ ok: false });
    expect(checkAnswer({ approved: false, conditions: ['x'] })).toMatchObject({ ok: false });
  });

  it('must name a pending request', () => {
    expect(answerProblem(undefined)).toEqual({ code: 404, reason: 'unknown_request' });
    expect(answerProblem({ status: 'timed_out' } as GateRequestRecord)).toEqual({ code: 409, reason: 'request_already_answered: timed_out' });
    expect(answerProblem({ status: 'pending' } as GateRequestRecord)).toBeNull();
  });

  it('names the outcome', () => {
    expect(outcomeOf('approve', undefined, false)).toBe('approved');
    expect(outcomeOf('approve', ['x'], false)).toBe('approved_with_conditions');
    expect(outcomeOf('reject', undefined, false)).toBe('rejected');
    expect(outcomeOf('reject', undefined, true)).toBe('timed_out');
  });
});
