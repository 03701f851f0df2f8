import type { AutomationLevel } from '@warden/contracts';
import { AutomationLadder, type LadderStep, type RunOutcome } from './automation-ladder.js';
import { newTrackRecord, type LevelMetrics, type TrackRecord } from './track-record.js';

const T0 = new Date('2026-11-21T10:00:00.000Z');
let sequence = 0;
const event = (messageId = `msg-${++sequence}`) => ({ messageId, at: new Date(T0.getTime() + sequence * 1000) });

function record(level: AutomationLevel, metrics: Partial<LevelMetrics> = {}, extra: Partial<TrackRecord> = {}): TrackRecord {
  const base = newTrackRecord('agent-7', level, T0);
  return { ...base, ...extra, metrics: { ...base.metrics, ...metrics } };
}

/** A track record that meets every requirement up to level 4 (500 runs, no false positives, full approval). */
const exemplary = (level: AutomationLevel, extra: Partial<TrackRecord> = {}) =>
  record(level, { totalRuns: 600, successfulRuns: 600, approvalRate: 1 }, extra);

const SUCCESS: RunOutcome = { status: 'success' };

function applied(step: LadderStep) {
  if (step.outcome !== 'applied') throw new Error(`expected an applied step, got ${step.outcome}`);
  return step;
}

/** Records `runs` runs with the same outcome, returning the last record and every change on the way. */
function runMany(ladder: AutomationLadder, start: TrackRecord, runs: number, outcome: RunOutcome = SUCCESS) {
  let current = start;
  const changes = [];
  for (let i = 0; i < runs; i++) {
    const step = applied(ladder.recordRun(current, outcome, event()));
    current = step.record;
    if (step.change) changes.push(step.change);
  }
  return { record: current, changes };
}

describe('AutomationLadder.recordRun: the track record (seed 002 §7.2)', () => {
  const ladder = new AutomationLadder();

  it('counts every run, and successful runs only on success', () => {
    let current = record(1);
    for (const status of ['success', 'failure', 'aborted', 'success'] as const) current = applied(ladder.recordRun(current, { status }, event())).record;
    expect(current.metrics).toMatchObject({ totalRuns: 4, successfulRuns: 2 });
  });

  it('adds up false positives and missed critical bugs', () => {
    let current = record(0);
    current = applied(ladder.recordRun(current, { status: 'success', falsePositives: 2, missedCriticalBugs: 1 }, event())).record;
    current = applied(ladder.recordRun(current, { status: 'failure', falsePositives: 3 }, event())).record;
    expect(current.metrics).toMatchObject({ falsePositives: 5, missedCriticalBugs: 1 });
  });

  it('moves the approval rate as an exponential moving average with alpha 0.1, only when human_approved is given', () => {
    let current = record(1);
    const rates: number[] = [];
    for (const humanApproved of [true, true, undefined, false]) {
      current = applied(ladder.recordRun(current, { status: 'success', ...(humanApproved === undefined ? {} : { humanApproved }) }, event())).record;
      rates.push(current.metrics.approvalRate);
    }
    // 0.1·1 + 0.9·0 = 0.1; 0.1·1 + 0.9·0.1 = 0.19; unchanged; 0.1·0 + 0.9·0.19 = 0.171
    expect(rates[0]).toBeCloseTo(0.1, 12);
    expect(rates[1]).toBeCloseTo(0.19, 12);
    expect(rates[2]).toBe(rates[1]);
    expect(rates[3]).toBeCloseTo(0.171, 12);
  });

  it('uses the configured alpha', () => {
    const halves = new AutomationLadder({ approvalAlpha: 0.5 });
    const step = applied(halves.recordRun(record(1, { approvalRate: 0.5 }), { status: 'success', humanApproved: true }, event()));
    expect(step.record.metrics.approvalRate).toBeCloseTo(0.75, 12);
  });

  it('stamps the record with the time of the run and leaves the input record untouched', () => {
    const before = record(1);
    const snapshot = structuredClone(before);
    const at = new Date('2026-12-01T08:30:00.000Z');
    const step = applied(ladder.recordRun(before, SUCCESS, { messageId: 'run-at', at }));
    expect(step.record.metrics.lastUpdated).toBe(at.toISOString());
    expect(before).toEqual(snapshot);
  });
});

describe('AutomationLadder.recordRun: promotion', () => {
  it('promotes 0 → 1 on exactly the 10th run, with the figures in the reason', () => {
    const ladder = new AutomationLadder({ initialLevel: 0 });
    const nine = runMany(ladder, ladder.newRecord('agent-7', T0), 9);
    expect(nine.record.level).toBe(0);
    expect(nine.changes).toEqual([]);
    const tenth = applied(ladder.recordRun(nine.record, SUCCESS, event('run-10')));
    expect(tenth.record.level).toBe(1);
    expect(tenth.change).toMatchObject({
      from: 0,
      to: 1,
      cause: 'requirements_met',
      changedBy: 'ladder',
      causeId: 'run-10',
      reason: 'Requirements for AI Suggests (level 1) met: 10 runs >= 10, false-positive rate 0 <= 0.5, missed critical bugs 0 <= 5',
    });
    expect(tenth.change?.metrics.totalRuns).toBe(10);
  });

  it.each([
    { level: 1, runsBefore: 49, approval: 0.8, to: 2 },
    { level: 2, runsBefore: 199, approval: 0.9, to: 3 },
    { level: 3, runsBefore: 499, approval: 0.95, to: 4 },
  ] as const)('promotes $level → $to on the run that reaches the minimum, at the approval boundary', ({ level, runsBefore, approval, to }) => {
    const ladder = new AutomationLadder();
    const short = applied(ladder.recordRun(record(level, { totalRuns: runsBefore - 1, successfulRuns: runsBefore - 1, approvalRate: approval }), SUCCESS, event()));
    expect(short.record.level).toBe(level);
    const reached = applied(ladder.recordRun(record(level, { totalRuns: runsBefore, successfulRuns: runsBefore, approvalRate: approval }), SUCCESS, event()));
    expect(reached.record.level).toBe(to);
    expect(reached.change?.reason).toContain(`approval rate ${approval} >= ${approval}`);
  });

  it('does not promote when the next level’s false-positive rate, missed bugs or approval rate fall short', () => {
    const ladder = new AutomationLadder();
    // After this run: 60 runs, level 2 allows a false-positive rate of 0.2 (12 of 60).
    expect(applied(ladder.recordRun(record(1, { totalRuns: 59, falsePositives: 12, approvalRate: 1 }), SUCCESS, event())).record.level).toBe(2);
    expect(applied(ladder.recordRun(record(1, { totalRuns: 59, falsePositives: 13, approvalRate: 1 }), SUCCESS, event())).record.level).toBe(1);
    expect(applied(ladder.recordRun(record(1, { totalRuns: 59, missedCriticalBugs: 2, approvalRate: 1 }), SUCCESS, event())).record.level).toBe(1);
    expect(applied(ladder.recordRun(record(1, { totalRuns: 59, approvalRate: 0.79 }), SUCCESS, event())).record.level).toBe(1);
  });

  it('climbs one level per run, never skipping one', () => {
    const ladder = new AutomationLadder();
    const { record: top, changes } = runMany(ladder, exemplary(0), 5);
    expect(changes.map((c) => [c.from, c.to])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(top.level).toBe(4);
  });

  it('does not promote when level-up is not allowed, but still records the run', () => {
    const ladder = new AutomationLadder({ allowLevelUp: false });
    const step = applied(ladder.recordRun(exemplary(1), SUCCESS, event()));
    expect(step.record.level).toBe(1);
    expect(step.change).toBeUndefined();
    expect(step.record.metrics.totalRuns).toBe(601);
  });

  it('still demotes when level-up is not allowed', () => {
    const ladder = new AutomationLadder({ allowLevelUp: false });
    const step = applied(ladder.recordRun(exemplary(3), { status: 'failure', missedCriticalBugs: 1 }, event()));
    expect(step.record.level).toBe(2);
  });
});

describe('AutomationLadder.recordRun: demotion, faster than promotion', () => {
  const ladder = new AutomationLadder();

  it('demotes at once when a run breaks the current level’s false-positive limit', () => {
    // Level 3 allows 0.05: 10 of 200 is at the limit, 11 of 201 is above it; level 2 (0.2) still holds.
    const step = applied(ladder.recordRun(record(3, { totalRuns: 200, falsePositives: 10, approvalRate: 0.95 }), { status: 'success', falsePositives: 1 }, event()));
    expect(step.record.level).toBe(2);
    expect(step.change).toMatchObject({
      from: 3,
      to: 2,
      cause: 'requirements_lost',
      changedBy: 'ladder',
      reason: 'Requirements for AI Autonomous (level 3) no longer met: false-positive rate 0.055 > 0.05: demoted from AI Autonomous (level 3) to AI Acts (level 2)',
    });
  });

  it('keeps the level while the false-positive rate stays at the limit', () => {
    const step = applied(ladder.recordRun(record(3, { totalRuns: 199, falsePositives: 10, approvalRate: 0.95 }), SUCCESS, event()));
    expect(step.record.level).toBe(3);
  });

  it('demotes to the highest level that still holds, several at once', () => {
    // 1 → 0.9 after a rejection: below level 4's 0.95, exactly level 3's 0.9.
    const step = applied(ladder.recordRun(exemplary(4), { status: 'failure', humanApproved: false }, event()));
    expect(step.record.metrics.approvalRate).toBeCloseTo(0.9, 12);
    expect(step.record.level).toBe(3);
    // 0.951 → 0.8559: below 0.95 (level 4) and 0.9 (level 3), above 0.8 (level 2).
    const again = applied(ladder.recordRun(record(4, { totalRuns: 600, approvalRate: 0.951 }), { status: 'failure', humanApproved: false }, event()));
    expect(again.record.level).toBe(2);
    expect(again.change?.reason).toContain('approval rate 0.856 < 0.95');
  });

  it('demotes at least one level for a run with a missed critical bug, even where the level tolerates some', () => {
    // Level 1 tolerates 5 missed critical bugs in all, but a run that missed one still costs the level.
    const step = applied(ladder.recordRun(record(1, { totalRuns: 20 }), { status: 'success', missedCriticalBugs: 1 }, event()));
    expect(step.record.level).toBe(0);
    expect(step.change).toMatchObject({ from: 1, to: 0, cause: 'missed_critical_bug', reason: 'Missed critical bug in run: demoted from AI Suggests (level 1) to Manual (level 0)' });
  });

  it('demotes further when the missed bugs also break lower levels', () => {
    // Level 3 allows none, level 2 one in all: with 2, level 1 is the highest that holds.
    const step = applied(ladder.recordRun(exemplary(3), { status: 'failure', missedCriticalBugs: 2 }, event()));
    expect(step.record.level).toBe(1);
    expect(step.change?.reason).toBe(
      '2 missed critical bugs in run: demoted from AI Autonomous (level 3) to AI Suggests (level 1); requirements for AI Autonomous (level 3) no longer met: missed critical bugs 2 > 0',
    );
  });

  it('never goes below level 0', () => {
    const step = applied(ladder.recordRun(record(0), { status: 'failure', missedCriticalBugs: 3, falsePositives: 9 }, event()));
    expect(step.record.level).toBe(0);
    expect(step.change).toBeUndefined();
  });

  it('keeps a level given by configuration or an operator while the runs are good, though the run count is not earned yet', () => {
    const { record: after, changes } = runMany(ladder, record(2, { approvalRate: 0.9 }), 3, { status: 'success', humanApproved: true });
    expect(changes).toEqual([]);
    expect(after.level).toBe(2);
  });

  it('puts a demoted agent on probation: no promotion for the configured number of runs', () => {
    const strict = new AutomationLadder({ probationRuns: 3 });
    const stopped = applied(strict.emergencyStop(exemplary(3), event()));
    expect(stopped.record.level).toBe(2);
    expect(stopped.record.promotionBlockedUntilRun).toBe(603);
    const first = applied(strict.recordRun(stopped.record, SUCCESS, event()));
    const second = applied(strict.recordRun(first.record, SUCCESS, event()));
    expect([first.record.level, second.record.level]).toEqual([2, 2]);
    expect(second.note).toBe('requirements for AI Autonomous (level 3) met, but on probation for 1 more run(s)');
    const third = applied(strict.recordRun(second.record, SUCCESS, event()));
    expect(third.change).toMatchObject({ from: 2, to: 3, cause: 'requirements_met' });
  });
});

describe('AutomationLadder.emergencyStop', () => {
  const ladder = new AutomationLadder();

  it('demotes one level at once and counts the stop', () => {
    const step = applied(ladder.emergencyStop(exemplary(2), event('stop-1'), 'intervention int-9'));
    expect(step.record).toMatchObject({ level: 1, emergencyStops: 1 });
    expect(step.change).toMatchObject({
      from: 2,
      to: 1,
      cause: 'emergency_stop',
      changedBy: 'ladder',
      causeId: 'stop-1',
      reason: 'Emergency stop (intervention int-9): demoted from AI Acts (level 2) to AI Suggests (level 1)',
    });
  });

  it('does nothing to the level at level 0', () => {
    const step = applied(ladder.emergencyStop(record(0), event()));
    expect(step.record).toMatchObject({ level: 0, emergencyStops: 1 });
    expect(step.change).toBeUndefined();
  });

  it('does not demote a pinned agent, and says so', () => {
    const pinned = applied(ladder.applyCommand(exemplary(1), { command: 'pin', level: 3, operatorId: 'operator-x' }, event())).record;
    const step = applied(ladder.emergencyStop(pinned, event()));
    expect(step.record.level).toBe(3);
    expect(step.change).toBeUndefined();
    expect(step.note).toBe('pinned by operator-x: the emergency stop does not demote');
  });
});

describe('AutomationLadder.applyCommand', () => {
  const ladder = new AutomationLadder();

  it('pins a level: sets it and holds it against promotion and demotion', () => {
    const pin = applied(ladder.applyCommand(exemplary(1), { command: 'pin', level: 2, operatorId: 'operator-x', reason: 'New agent version' }, event('cmd-1')));
    expect(pin.record).toMatchObject({ level: 2, pin: { by: 'operator-x', reason: 'New agent version' } });
    expect(pin.change).toMatchObject({
      from: 1,
      to: 2,
      cause: 'operator_pin',
      changedBy: 'operator-x',
      causeId: 'cmd-1',
      reason: 'Pinned by operator-x at AI Acts (level 2): New agent version',
    });
    const good = runMany(ladder, pin.record, 3);
    expect(good.record.level).toBe(2);
    expect(good.changes).toEqual([]);
    const bad = applied(ladder.recordRun(good.record, { status: 'failure', missedCriticalBugs: 4, falsePositives: 500 }, event()));
    expect(bad.record.level).toBe(2);
    expect(bad.change).toBeUndefined();
    expect(bad.note).toBe('pinned by operator-x: the missed critical bug does not demote');
    expect(bad.record.metrics).toMatchObject({ totalRuns: 604, missedCriticalBugs: 4 });
  });

  it('records a pin at the current level as a change of the pin, not of the level', () => {
    const step = applied(ladder.applyCommand(record(1), { command: 'pin', level: 1, operatorId: 'operator-x' }, event()));
    expect(step.change).toMatchObject({ from: 1, to: 1, cause: 'operator_pin', reason: 'Pinned by operator-x at AI Suggests (level 1)' });
  });

  it('re-pins another level and names the previous pin', () => {
    const first = applied(ladder.applyCommand(record(1), { command: 'pin', level: 1, operatorId: 'operator-x' }, event())).record;
    const second = applied(ladder.applyCommand(first, { command: 'pin', level: 3, operatorId: 'operator-y' }, event()));
    expect(second.record).toMatchObject({ level: 3, pin: { by: 'operator-y' } });
    expect(second.change?.reason).toBe('Pinned by operator-y at AI Autonomous (level 3) (was pinned by operator-x)');
  });

  it('rejects a pin without a level, with the reason, leaving the record as it was', () => {
    const before = record(1);
    const step = ladder.applyCommand(before, { command: 'pin', operatorId: 'operator-x' }, event());
    expect(step).toEqual({ outcome: 'rejected', record: before, rejection: 'missing_level', reason: 'pin needs the level to hold' });
  });

  it('unpins: the level stays and the ladder manages it again', () => {
    const pinned = applied(ladder.applyCommand(exemplary(1), { command: 'pin', level: 2, operatorId: 'operator-x' }, event())).record;
    const step = applied(ladder.applyCommand(pinned, { command: 'unpin', operatorId: 'operator-y', reason: 'Looks stable' }, event()));
    expect(step.record).toMatchObject({ level: 2, pin: null });
    expect(step.change).toMatchObject({
      from: 2,
      to: 2,
      cause: 'operator_unpin',
      changedBy: 'operator-y',
      reason: 'Unpinned by operator-y: the ladder manages AI Acts (level 2) again: Looks stable',
    });
    expect(applied(ladder.recordRun(step.record, SUCCESS, event())).record.level).toBe(3);
  });

  it('treats unpinning an agent that is not pinned as nothing to do', () => {
    const step = applied(ladder.applyCommand(record(1), { command: 'unpin', operatorId: 'operator-x' }, event()));
    expect(step.change).toBeUndefined();
    expect(step.note).toBe('not pinned');
  });

  it('sets a level the ladder then manages', () => {
    const step = applied(ladder.applyCommand(record(1), { command: 'set_level', level: 3, operatorId: 'operator-x', reason: 'Trusted tooling' }, event()));
    expect(step.record).toMatchObject({ level: 3, pin: null });
    expect(step.change).toMatchObject({ from: 1, to: 3, cause: 'operator_set', changedBy: 'operator-x', reason: 'Set to AI Autonomous (level 3) by operator-x: Trusted tooling' });
    // Not held: a run the level's requirements do not support demotes it.
    expect(applied(ladder.recordRun(step.record, { status: 'success', humanApproved: false }, event())).record.level).toBe(1);
  });

  it('does not put an operator’s lowering on probation', () => {
    const step = applied(ladder.applyCommand(exemplary(3), { command: 'set_level', level: 1, operatorId: 'operator-x' }, event()));
    expect(step.record.promotionBlockedUntilRun).toBe(0);
    expect(applied(ladder.recordRun(step.record, SUCCESS, event())).record.level).toBe(2);
  });

  it('rejects set_level without a level, and set_level on a pinned agent', () => {
    expect(ladder.applyCommand(record(1), { command: 'set_level', operatorId: 'operator-x' }, event())).toMatchObject({
      outcome: 'rejected',
      rejection: 'missing_level',
      reason: 'set_level needs the level to set',
    });
    const pinned = applied(ladder.applyCommand(record(1), { command: 'pin', level: 2, operatorId: 'operator-x' }, event())).record;
    expect(ladder.applyCommand(pinned, { command: 'set_level', level: 4, operatorId: 'operator-y' }, event())).toMatchObject({
      outcome: 'rejected',
      rejection: 'pinned',
      reason: 'pinned at AI Acts (level 2) by operator-x: unpin first, or pin another level',
    });
  });

  it('changes nothing when set_level names the current level', () => {
    const step = applied(ladder.applyCommand(record(2), { command: 'set_level', level: 2, operatorId: 'operator-x' }, event()));
    expect(step.change).toBeUndefined();
  });

  it('keeps a reason within the contract’s 2000 characters', () => {
    const step = applied(ladder.applyCommand(record(1), { command: 'set_level', level: 2, operatorId: 'operator-x', reason: 'x'.repeat(2000) }, event()));
    expect(step.change?.reason).toHaveLength(2000);
    expect(step.change?.reason.endsWith('…')).toBe(true);
  });
});

describe('AutomationLadder: redelivered messages', () => {
  const ladder = new AutomationLadder({ initialLevel: 0 });

  it('counts a run once, however often its message arrives, and hands back the change it made', () => {
    const nine = runMany(ladder, ladder.newRecord('agent-7', T0), 9).record;
    const first = applied(ladder.recordRun(nine, SUCCESS, { messageId: 'run-10', at: T0 }));
    expect(first.change?.to).toBe(1);
    const again = ladder.recordRun(first.record, SUCCESS, { messageId: 'run-10', at: T0 });
    expect(again).toEqual({ outcome: 'duplicate', record: first.record, change: first.change });
    expect(again.record.metrics.totalRuns).toBe(10);
  });

  it('ignores a repeated emergency stop and a repeated command', () => {
    const stopped = applied(ladder.emergencyStop(exemplary(3), { messageId: 'stop-1', at: T0 })).record;
    expect(ladder.emergencyStop(stopped, { messageId: 'stop-1', at: T0 })).toMatchObject({ outcome: 'duplicate', record: { level: 2, emergencyStops: 1 } });
    const set = applied(ladder.applyCommand(stopped, { command: 'set_level', level: 4, operatorId: 'op' }, { messageId: 'cmd-1', at: T0 })).record;
    const lowered = applied(ladder.applyCommand(set, { command: 'set_level', level: 1, operatorId: 'op' }, { messageId: 'cmd-2', at: T0 })).record;
    expect(ladder.applyCommand(lowered, { command: 'set_level', level: 4, operatorId: 'op' }, { messageId: 'cmd-1', at: T0 })).toMatchObject({
      outcome: 'duplicate',
      record: { level: 1 },
      change: { from: 2, to: 4, causeId: 'cmd-1' },
    });
  });

  it('remembers a bounded number of message ids and level changes', () => {
    const small = new AutomationLadder({ initialLevel: 0, rememberedMessages: 3, rememberedChanges: 2 });
    const { record: after } = runMany(small, exemplary(0), 5);
    expect(after.recentMessageIds).toHaveLength(3);
    expect(after.recentChanges.map((c) => c.to)).toEqual([3, 4]);
  });
});

describe('AutomationLadder: runs counted from what Warden saw, never from what the agent says', () => {
  const ladder = new AutomationLadder({ initialLevel: 0 });
  const decide = (current: TrackRecord, sessionId: string, decision: 'allow' | 'deny' = 'allow', decidedBy: 'reviewer' | 'operator' = 'reviewer') =>
    applied(ladder.observeDecision(current, { sessionId, decision, decidedBy }, event()));

  it('counts no run for a session the gate decided nothing in, however successful and approved the agent says it was', () => {
    let current = record(0);
    for (let i = 0; i < 1000; i++) current = applied(ladder.endSession(current, { sessionId: `s-${i}`, status: 'success' }, event())).record;
    expect(current.metrics).toMatchObject({ totalRuns: 0, successfulRuns: 0, approvalRate: 0 });
    expect(current.level).toBe(0);
    expect(current.sessions).toHaveLength(ladder.settings.rememberedSessions);
  });

  it('derives success from the decisions and approval from the operators who decided at the gate', () => {
    let current = decide(record(0), 's-1').record;
    current = decide(current, 's-1', 'allow', 'operator').record;
    const approved = applied(ladder.endSession(current, { sessionId: 's-1', status: 'success' }, event()));
    expect(approved.run).toEqual({ status: 'success', humanApproved: true });
    current = decide(approved.record, 's-2', 'deny', 'operator').record;
    const denied = applied(ladder.endSession(current, { sessionId: 's-2', status: 'success' }, event()));
    expect(denied.run).toEqual({ status: 'failure', humanApproved: false });
    expect(denied.record.metrics).toMatchObject({ totalRuns: 2, successfulRuns: 1 });
    expect(denied.record.metrics.approvalRate).toBeCloseTo(0.09, 12);
  });

  it('believes the agent only against itself: a reported failure, abort, false positive or missed bug counts', () => {
    const current = decide(record(0), 's-1').record;
    const step = applied(ladder.endSession(current, { sessionId: 's-1', status: 'aborted', falsePositives: 2, missedCriticalBugs: 1 }, event()));
    expect(step.run).toEqual({ status: 'aborted', falsePositives: 2, missedCriticalBugs: 1 });
  });

  it('counts a run whose end came before its first decision when that decision comes, once', () => {
    let current = applied(ladder.endSession(record(0), { sessionId: 's-1', status: 'success' }, event())).record;
    expect(current.metrics.totalRuns).toBe(0);
    const completing = event();
    const step = applied(ladder.observeDecision(current, { sessionId: 's-1', decision: 'allow', decidedBy: 'reviewer' }, completing));
    expect(step.run).toEqual({ status: 'success' });
    current = step.record;
    expect(ladder.observeDecision(current, { sessionId: 's-1', decision: 'allow', decidedBy: 'reviewer' }, completing).outcome).toBe('duplicate');
    current = decide(current, 's-1').record;
    expect(current.metrics.totalRuns).toBe(1);
    expect(applied(ladder.endSession(current, { sessionId: 's-1', status: 'success' }, event())).record.metrics.totalRuns).toBe(1);
  });

  it('writes nothing for one more action the reviewer let through in a running session; a denial, an operator or the end still counts', () => {
    const current = decide(record(0), 's-1').record;
    expect(ladder.observeDecision(current, { sessionId: 's-1', decision: 'allow', decidedBy: 'reviewer' }, event())).toEqual({ outcome: 'unchanged', record: current });
    expect(ladder.observeDecision(current, { sessionId: 's-1', decision: 'deny', decidedBy: 'reviewer' }, event()).outcome).toBe('applied');
    expect(ladder.observeDecision(current, { sessionId: 's-1', decision: 'allow', decidedBy: 'operator' }, event()).outcome).toBe('applied');
    // The run comes out as before: a success, counted once.
    const step = applied(ladder.endSession(current, { sessionId: 's-1', status: 'success' }, event()));
    expect(step.run).toEqual({ status: 'success' });
  });

  it('keeps an open session with decisions when sessions without any are pushed out', () => {
    let current = decide(record(0), 'real', 'deny', 'operator').record;
    for (let i = 0; i < 100; i++) current = applied(ladder.endSession(current, { sessionId: `flood-${i}`, status: 'success' }, event())).record;
    const step = applied(ladder.endSession(current, { sessionId: 'real', status: 'success' }, event()));
    expect(step.run).toEqual({ status: 'failure', humanApproved: false });
  });
});
