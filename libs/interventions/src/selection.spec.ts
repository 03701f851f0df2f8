import { derivedMessageId } from '@warden/contracts';
import { respondToIssue } from './issue-response.js';
import { DEFAULT_PROMPTS } from './prompts.js';
import { selectBySeverityAndEscalation, severityScore } from './severity.js';
import { nextProgressive, selectPatternSpecific } from './strategies.js';
import { issue, session, settings } from './session.fixture.js';

describe('severity score', () => {
  it('is base × confidence × (1 + impact factor)', () => {
    expect(severityScore({ severity: 'low', confidence: 1, impact_factor: 0 })).toBeCloseTo(0.2);
    expect(severityScore({ severity: 'medium', confidence: 0.9, impact_factor: 0.5 })).toBeCloseTo(0.675);
    expect(severityScore({ severity: 'high', confidence: 0.5, impact_factor: 1 })).toBeCloseTo(0.8);
    expect(severityScore({ severity: 'critical', confidence: 1, impact_factor: 0 })).toBeCloseTo(1);
  });
});

describe('selection by severity and escalation', () => {
  it.each([
    [0, 'soft_correction'],
    [0.299, 'soft_correction'],
    [0.3, 'context_reinforcement'],
    [0.499, 'context_reinforcement'],
    [0.5, 'resource_throttling'],
    [0.699, 'resource_throttling'],
    [0.7, 'checkpoint_rollback'],
    [0.899, 'checkpoint_rollback'],
    [0.9, 'emergency_stop'],
    [1.5, 'emergency_stop'],
  ])('a combined score of %p gives %s', (score, type) => {
    expect(selectBySeverityAndEscalation(score, 0)).toBe(type);
  });

  it('adds 0.3 per escalation level', () => {
    expect(selectBySeverityAndEscalation(0.2, 0)).toBe('soft_correction');
    expect(selectBySeverityAndEscalation(0.2, 1)).toBe('resource_throttling');
    expect(selectBySeverityAndEscalation(0.0, 1)).toBe('context_reinforcement');
    expect(selectBySeverityAndEscalation(0.6, 1)).toBe('emergency_stop');
    expect(selectBySeverityAndEscalation(0.0, 3)).toBe('emergency_stop');
    expect(selectBySeverityAndEscalation(0.0, 3, 0.2)).toBe('resource_throttling');
  });
});

describe('progressive strategy', () => {
  it('escalates one step when the last intervention was ineffective, and stops at the top', () => {
    expect(nextProgressive('soft_correction', 0.2, 0.6)).toBe('context_reinforcement');
    expect(nextProgressive('checkpoint_rollback', 0.59, 0.6)).toBe('emergency_stop');
    expect(nextProgressive('emergency_stop', 0, 0.6)).toBe('emergency_stop');
  });

  it('de-escalates one step when it was effective, and stops at the bottom', () => {
    expect(nextProgressive('resource_throttling', 0.6, 0.6)).toBe('context_reinforcement');
    expect(nextProgressive('soft_correction', 1, 0.6)).toBe('soft_correction');
  });
});

describe('pattern-specific strategy', () => {
  it('picks from the pattern ladder by severity', () => {
    expect(selectPatternSpecific('repetitive_errors', 'low')).toBe('soft_correction');
    expect(selectPatternSpecific('repetitive_errors', 'medium')).toBe('context_reinforcement');
    expect(selectPatternSpecific('repetitive_errors', 'high')).toBe('checkpoint_rollback');
    expect(selectPatternSpecific('scope_creep', 'low')).toBe('context_reinforcement');
    expect(selectPatternSpecific('resource_spiral', 'medium')).toBe('checkpoint_rollback');
    expect(selectPatternSpecific('hallucination', 'critical')).toBe('emergency_stop');
    expect(selectPatternSpecific('polling_loop', 'high')).toBe('resource_throttling');
    expect(selectPatternSpecific('polling_loop', 'critical')).toBe('emergency_stop');
  });

  it('is what the session uses when configured, escalating past the ladder when the issue persists', () => {
    const s = session(settings({ strategy: { type: 'pattern_specific' } }));
    const first = s.consider(issue({ type: 'scope_creep', at: 1000 }), 1000).plan;
    expect(first.selection).toMatchObject({ type: 'context_reinforcement', strategy: 'pattern_specific', escalated: false });
    s.issued({ ...entry('context_reinforcement', 'scope_creep', 1000) });
    // Reported a second time: the ladder says the same, the pattern-specific strategy does not escalate yet.
    expect(s.consider(issue({ type: 'scope_creep', at: 2000 }), 2000).plan.selection?.type).toBe('context_reinforcement');
    s.issued({ ...entry('context_reinforcement', 'scope_creep', 2000) });
    // A third time, after two interventions: the seed's maybe_escalate goes one past the last.
    expect(s.consider(issue({ type: 'scope_creep', at: 3000 }), 3000).plan.selection).toMatchObject({ type: 'resource_throttling', escalated: true });
  });
});

describe('a session choosing interventions (progressive)', () => {
  it('starts from severity: a low repeated error gets a soft correction, a critical one an emergency stop', () => {
    expect(session().consider(issue({ at: 10 }), 10).plan.selection).toMatchObject({ type: 'soft_correction', escalation_level: 0, escalated: false });
    expect(session().consider(issue({ severity: 'critical', at: 10 }), 10).plan.selection).toMatchObject({ type: 'emergency_stop' });
    expect(session().consider(issue({ severity: 'high', confidence: 0.9, at: 10 }), 10).plan.selection).toMatchObject({ type: 'checkpoint_rollback' });
  });

  it('escalates step by step while the issue keeps coming back (escalation weight 0.2)', () => {
    // The seed lets escalation stop a session at any severity.
    const s = session(settings({ strategy: { escalation_weight: 0.2 }, emergency_stop: { min_severity: 'low' } }));
    const chosen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const at = 1000 * (i + 1);
      const { plan, evaluated } = s.consider(issue({ severity: 'low', confidence: 0.25, at }), at);
      if (i > 0) expect(evaluated.map((e) => e.evaluation)).toEqual([{ outcome: 'ineffective', effectiveness: 0, next_step: 'escalate', basis: 'recurrence' }]);
      chosen.push(plan.selection!.type);
      s.issued(entry(plan.selection!.type, 'repetitive_errors', at));
    }
    expect(chosen).toEqual(['soft_correction', 'context_reinforcement', 'resource_throttling', 'checkpoint_rollback', 'emergency_stop']);
  });

  it('with the seed weight 0.3, three failed interventions reach the emergency stop from any score', () => {
    const s = session(settings({ emergency_stop: { min_severity: 'low' } }));
    const chosen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const at = 1000 * (i + 1);
      const type = s.consider(issue({ confidence: 0.1, at }), at).plan.selection!.type;
      chosen.push(type);
      s.issued(entry(type, 'repetitive_errors', at));
    }
    expect(chosen).toEqual(['soft_correction', 'context_reinforcement', 'resource_throttling', 'emergency_stop']);
  });

  it('stops a session only for a critical issue by default: a lesser one that keeps coming back ends at a rollback', () => {
    const s = session();
    const chosen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const at = 1000 * (i + 1);
      const type = s.consider(issue({ severity: 'high', confidence: 0.9, at }), at).plan.selection!.type;
      chosen.push(type);
      s.issued(entry(type, 'repetitive_errors', at));
    }
    expect(chosen).not.toContain('emergency_stop');
    expect(chosen.at(-1)).toBe('checkpoint_rollback');
    expect(s.consider(issue({ severity: 'critical', confidence: 1, at: 9000 }), 9000).plan.selection).toMatchObject({ type: 'emergency_stop' });
  });

  it('de-escalates after an intervention that worked, measured from the outcomes that followed', () => {
    const s = session();
    s.consider(issue({ at: 1000 }), 1000);
    // The last intervention on this issue was a throttle (escalated earlier).
    s.issued(entry('resource_throttling', 'repetitive_errors', 1000));
    const settled = [1, 2, 3, 4, 5].flatMap((n) => s.recordOutcome({ action_id: `a${n}`, at: 1000 + n, ok: n !== 3 }));
    expect(settled.map((e) => e.evaluation)).toEqual([{ outcome: 'effective', effectiveness: 0.8, next_step: 'de_escalate', basis: 'outcomes' }]);
    // Back later (its intervention already judged): one step milder than last time, not back to the bottom.
    const next = s.consider(issue({ at: 5000 }), 5000).plan.selection!;
    expect(next).toMatchObject({ type: 'context_reinforcement', escalation_level: 0, escalated: true });
    // Never milder than severity alone gives.
    const medium = session();
    medium.issued(entry('context_reinforcement', 'repetitive_errors', 1000));
    [1, 2, 3, 4, 5].forEach((n) => medium.recordOutcome({ action_id: `a${n}`, at: 1000 + n, ok: true }));
    expect(medium.consider(issue({ severity: 'medium', confidence: 0.7, at: 5000 }), 5000).plan.selection?.type).toBe('context_reinforcement');
  });

  it('judges an intervention ineffective when most outcomes after it fail, and unknown when the agent did nothing', () => {
    const s = session(settings({ strategy: { effectiveness_window_actions: 2, escalation_delay_seconds: 10 } }));
    s.issued(entry('soft_correction', 'repetitive_errors', 1000));
    s.issued(entry('soft_correction', 'goal_drift', 1000));
    const settled = [...s.recordOutcome({ action_id: 'a', at: 1500, ok: false }), ...s.recordOutcome({ action_id: 'b', at: 1600, ok: true })];
    expect(settled.map((e) => [e.intervention.issue_type, e.evaluation.outcome, e.evaluation.effectiveness])).toEqual([
      ['repetitive_errors', 'ineffective', 0.5],
      ['goal_drift', 'ineffective', 0.5],
    ]);
    s.issued(entry('soft_correction', 'scope_creep', 2000));
    expect(s.evaluateDue(11_999)).toEqual([]);
    expect(s.evaluateDue(12_000).map((e) => e.evaluation)).toEqual([{ outcome: 'unknown', effectiveness: 0.5, next_step: 'none', basis: 'no_activity' }]);
  });

  it('escalates when the same issue persists after two interventions, even after an effective one', () => {
    const s = session(settings({ strategy: { effectiveness_window_actions: 1 } }));
    s.consider(issue({ at: 1000 }), 1000);
    s.issued(entry('soft_correction', 'repetitive_errors', 1000));
    s.recordOutcome({ action_id: 'a', at: 1100, ok: true });
    s.consider(issue({ at: 2000 }), 2000);
    s.issued(entry('soft_correction', 'repetitive_errors', 2000));
    s.recordOutcome({ action_id: 'b', at: 2100, ok: true });
    // Both judged effective, yet the issue is back a third time.
    expect(s.consider(issue({ at: 3000 }), 3000).plan.selection).toMatchObject({ type: 'context_reinforcement', escalated: true });
  });

  it('counts only the history window', () => {
    const s = session(settings({ history_window_seconds: 60 }));
    s.consider(issue({ at: 0 }), 0);
    s.issued(entry('checkpoint_rollback', 'repetitive_errors', 0));
    // Ten minutes later the earlier rollback no longer counts: severity alone decides.
    expect(s.consider(issue({ at: 600_000 }), 600_000).plan.selection).toMatchObject({ type: 'soft_correction', escalation_level: 0 });
  });

  it('gives soft corrections up after max_attempts and skips disabled interventions', () => {
    const s = session(settings({ soft_correction: { max_attempts: 1 }, context_reinforcement: { enabled: false } }));
    s.issued(entry('soft_correction', 'goal_drift', 0));
    expect(s.consider(issue({ at: 10 }), 10).plan.selection?.type).toBe('resource_throttling');
  });
});

describe('cooldown and the cap per execution', () => {
  it('holds back a second intervention within the cooldown, and allows it at the cooldown', () => {
    const s = session(settings({ intervention_cooldown_seconds: 30 }));
    s.issued(entry('soft_correction', 'goal_drift', 1000));
    expect(s.consider(issue({ at: 30_999 }), 30_999).plan).toMatchObject({ skip: 'cooldown' });
    expect(s.consider(issue({ at: 31_000 }), 31_000).plan.skip).toBeUndefined();
  });

  it('never holds back an emergency stop', () => {
    const s = session(settings({ intervention_cooldown_seconds: 30, max_interventions_per_execution: 1 }));
    s.issued(entry('soft_correction', 'goal_drift', 1000));
    expect(s.consider(issue({ severity: 'critical', at: 1001 }), 1001).plan).toEqual({ selection: expect.objectContaining({ type: 'emergency_stop' }) });
  });

  it('issues at most max_interventions_per_execution', () => {
    const s = session(settings({ max_interventions_per_execution: 2 }));
    for (let i = 0; i < 2; i++) {
      const plan = s.consider(issue({ type: `t${i}`, at: i }), i).plan;
      expect(plan.skip).toBeUndefined();
      s.issued(entry(plan.selection!.type, `t${i}`, i));
    }
    expect(s.consider(issue({ type: 't9', at: 10 }), 10).plan).toMatchObject({ skip: 'max_interventions' });
  });

  it('does nothing more for a stopped or ended session, or when disabled', () => {
    const stopped = session();
    stopped.stop(0, 'inc-1', 'ctl-1');
    expect(stopped.consider(issue({ at: 1 }), 1).plan).toEqual({ skip: 'stopped' });
    const ended = session();
    ended.end();
    expect(ended.consider(issue({ at: 1 }), 1).plan).toEqual({ skip: 'ended' });
    expect(session(settings({ enabled: false })).consider(issue({ at: 1 }), 1).plan).toEqual({ skip: 'disabled' });
  });
});

describe('acknowledgements', () => {
  it('a failed one makes the intervention ineffective; a stop confirms the stop', () => {
    const s = session();
    s.issued(entry('soft_correction', 'goal_drift', 0, 'ctl-a'));
    expect(s.acknowledge('ctl-a', 'failed', 5).evaluated?.evaluation).toMatchObject({ outcome: 'ineffective', basis: 'failed_ack' });
    s.issued(entry('emergency_stop', 'goal_drift', 10, 'ctl-b'));
    s.stop(10, 'inc-1', 'ctl-b');
    s.acknowledge('ctl-b', 'stopped', 20);
    expect(s.record.stopped).toEqual({ at: 10, incident_id: 'inc-1', control_id: 'ctl-b', confirmed_at: 20 });
    expect(s.acknowledge('unknown', 'applied', 30)).toEqual({});
  });
});

function entry(type: Parameters<ReturnType<typeof session>['issued']>[0]['type'], issueType: string, at: number, controlId = `ctl-${Math.random()}`) {
  return { id: `int-${Math.random()}`, type, issue_type: issueType, at, control_id: controlId, strategy: 'progressive' as const, severity_score: 0, escalation_level: 0, escalated: false };
}

describe('the controller\'s answer to an issue', () => {
  it('publishes the pause before the stop, derives every id from the cause, and marks what happens in a replay', () => {
    const s = session();
    s.record.replay = true;
    const critical = issue({ severity: 'critical', confidence: 1, at: 10 });
    const response = respondToIssue(s, critical, { settings: settings(), templates: DEFAULT_PROMPTS, causeId: 'msg-1', at: 10 });
    expect(response.publications.map((p) => p.type)).toEqual(['gate.command', 'incident.created', 'control.issued', 'intervention.issued']);
    expect(response.publications.at(-1)!.payload).toMatchObject({ intervention_type: 'emergency_stop', replay: true, intervention_id: derivedMessageId('intervention', 'msg-1') });
    expect(s.record.stopped).toMatchObject({ incident_id: derivedMessageId('incident', 'msg-1') });
  });
});
