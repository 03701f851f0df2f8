import { createMessage, EXAMPLE_PAYLOADS } from '@warden/contracts';
import { issueFromBlock, issueFromBreakerTrip, issueFromPattern, issueFromRanAgainstDecision, issueFromRejection } from './issue.js';
import { respondToIssue } from './issue-response.js';
import { DEFAULT_PROMPTS } from './prompts.js';
import { session, settings } from './session.fixture.js';
import { severityScore } from './severity.js';

const envelope = { agent_id: 'agent-1', session_id: 's1', timestamp: '2026-11-21T10:00:00.000Z' };

describe('issues from what the controller reads', () => {
  it('a pattern keeps its type, severity figures, details and evidence', () => {
    const message = createMessage('pattern.detected', { ...envelope, payload: EXAMPLE_PAYLOADS['pattern.detected'] });
    expect(issueFromPattern(message)).toMatchObject({
      type: 'repetitive_errors',
      severity: 'high',
      confidence: 0.9,
      impact_factor: 0.5,
      evidence_action_ids: ['a1', 'a2', 'a3', 'a4', 'a5'],
      trigger: { kind: 'pattern', message_id: message.id, issue_type: 'repetitive_errors' },
      at: Date.parse('2026-11-21T10:00:00.000Z'),
    });
  });

  it('a breaker trip is a certain medium issue named after the breaker', () => {
    const issue = issueFromBreakerTrip(createMessage('breaker.tripped', { ...envelope, payload: EXAMPLE_PAYLOADS['breaker.tripped'] }));
    expect(issue).toMatchObject({ type: 'breaker_cost', severity: 'medium', confidence: 1, trigger: { kind: 'breaker', issue_type: 'cost' } });
    expect(severityScore(issue)).toBe(0.5);
  });

  it('a block of a critical action is a medium issue: it was prevented', () => {
    const issue = issueFromBlock(createMessage('review.verdict', { ...envelope, payload: EXAMPLE_PAYLOADS['review.verdict'] }));
    expect(issue).toMatchObject({ type: 'blocked_action', severity: 'medium', confidence: 0.98, evidence_action_ids: ['toolu_01A09q90qw90lq917835lq9'] });
    const low = issueFromBlock(createMessage('review.verdict', { ...envelope, payload: { ...EXAMPLE_PAYLOADS['review.verdict'], risk: { score: 0.3, severity: 'medium', factors: [] } } }));
    expect(low.severity).toBe('low');
  });

  it('a rejected gate request is a medium issue with the operator and reason', () => {
    const issue = issueFromRejection(
      createMessage('gate.responded', { ...envelope, payload: { request_id: 'r1', gate_id: 'deploy', approved: false, approver: 'ops-ann', reason: 'not on a Friday', response_ms: 1000, outcome: 'rejected' } }),
    );
    expect(issue).toMatchObject({ type: 'rejected_request', severity: 'medium', description: 'The operator ops-ann rejected gate deploy: not on a Friday' });
  });

  it('an action that ran although Warden denied it is critical, and the session is stopped with an incident', () => {
    const message = createMessage('action.ran_against_decision', { ...envelope, payload: EXAMPLE_PAYLOADS['action.ran_against_decision'] });
    const issue = issueFromRanAgainstDecision(message);
    expect(issue).toMatchObject({
      type: 'ran_against_decision',
      severity: 'critical',
      confidence: 1,
      description: 'Bash ran although Warden denied it (Recursive deletion outside the expected paths), in subagent Explore',
      evidence_action_ids: ['toolu_01SUB0000000001'],
      trigger: { kind: 'action', message_id: message.id, issue_type: 'denied' },
    });
    expect(severityScore(issue)).toBe(1);
    const response = respondToIssue(session(), issue, { settings: settings(), templates: DEFAULT_PROMPTS, causeId: message.id, at: 10 });
    expect(response.plan.skip).toBeFalsy();
    expect(response.publications.map((p) => p.type)).toEqual(expect.arrayContaining(['gate.command', 'incident.created', 'control.issued', 'intervention.issued']));
    expect(response.publications.find((p) => p.type === 'control.issued')?.payload).toMatchObject({ kind: 'emergency_stop' });
  });

  it('an action Warden never saw proposed is a low issue, corrected first; one it had not decided is high', () => {
    const never = issueFromRanAgainstDecision(createMessage('action.ran_against_decision', { ...envelope, payload: { ...EXAMPLE_PAYLOADS['action.ran_against_decision'], warden_decision: 'never_proposed' } }));
    expect(never).toMatchObject({ severity: 'low', trigger: { issue_type: 'never_proposed' } });
    const response = respondToIssue(session(), never, { settings: settings(), templates: DEFAULT_PROMPTS, causeId: 'm-never', at: 10 });
    expect(response.publications.find((p) => p.type === 'control.issued')?.payload).toMatchObject({ kind: 'soft_correction', message: expect.stringContaining('A tool call ran that Warden did not approve: Bash ran although Warden never saw it proposed') });
    const held = issueFromRanAgainstDecision(createMessage('action.ran_against_decision', { ...envelope, payload: { ...EXAMPLE_PAYLOADS['action.ran_against_decision'], warden_decision: 'held' } }));
    expect(held.severity).toBe('high');
  });
});
