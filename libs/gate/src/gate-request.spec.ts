import { answerProblem, approvalDigest, checkAnswer, digestProblem, outcomeOf, rewrittenRequest, type GateRequestRecord } from './gate-request.js';

describe('gate request answers', () => {
  it('takes approve, reject with a reason, and approve with conditions', () => {
    const digest = 'a'.repeat(64);
    expect(checkAnswer({ approved: true, digest })).toEqual({ ok: true, answer: { approved: true, digest } });
    expect(checkAnswer({ approved: false, reason: ' Not now ' })).toEqual({ ok: true, answer: { approved: false, reason: 'Not now' } });
    expect(checkAnswer({ approved: true, digest, conditions: ['Backup first'] })).toEqual({ ok: true, answer: { approved: true, digest, conditions: ['Backup first'] } });
  });

  it('refuses answers without a decision, with bad conditions, or conditions on a rejection', () => {
    expect(checkAnswer({})).toEqual({ ok: false, reason: 'missing_required_field: approved' });
    expect(checkAnswer({ approved: 'yes' })).toMatchObject({ ok: false });
    expect(checkAnswer({ approved: true, conditions: [''] })).toMatchObject({ ok: false });
    expect(checkAnswer({ approved: false, conditions: ['x'] })).toMatchObject({ ok: false });
  });

  it('approves only with the digest of what was shown: missing, malformed and stale digests are refused', () => {
    expect(checkAnswer({ approved: true })).toMatchObject({ ok: false, reason: expect.stringMatching(/^missing_required_field: digest/) });
    expect(checkAnswer({ approved: true, digest: 'ABC' })).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid_field: digest/) });
    const record = { session_id: 's-1', agent_id: 'a-1', gate_id: 'g', summary: 'why', details: { action: { tool: 'Bash', input: { command: 'ls' } } } } as unknown as GateRequestRecord;
    const digest = approvalDigest(record);
    expect(digestProblem({ ...record, digest }, digest)).toBeNull();
    const rewritten = rewrittenRequest({ ...record, digest }, { command: 'ls -la' });
    expect(rewritten.digest).not.toBe(digest);
    expect(digestProblem(rewritten, digest)).toMatch(/^digest_mismatch: /);
    // Each shown field counts.
    for (const change of [{ session_id: 's-2' }, { agent_id: 'a-2' }, { gate_id: 'h' }, { summary: 'other' }, { details: { action: { tool: 'Write', input: { command: 'ls' } } } }]) {
      expect(approvalDigest({ ...record, ...change })).not.toBe(digest);
    }
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
