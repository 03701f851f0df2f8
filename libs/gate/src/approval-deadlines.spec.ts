import { checkDeadlines, deadlineDue, durationText, escalatedPending, nextDeadline, requestDeadlines, resolveDeadlineSettings, timeoutReason } from './approval-deadlines.js';
import { ConditionError } from './gate-conditions.js';
import type { PendingRequest } from './relay-state.js';

const CHANNELS = ['oncall', 'pager', 'leads'];
const T0 = new Date('2026-11-24T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const migrations = { id: 'migrations', timeout_ms: 600_000, escalation: 'dba' };
const deploy = { id: 'production_deploy', timeout_ms: 3_600_000, escalation: 'deployment_lead' };

const settings = resolveDeadlineSettings(
  {
    escalation: {
      dba: [{ after_ms: 120_000, channels: ['pager'] }],
      default: [
        { after_ms: 300_000, channels: ['pager'] },
        { after_ms: 900_000, channels: ['leads'] },
      ],
    },
    agents: { 'nightly-bot': { timeout_ms: 240_000 }, 'release-bot': { escalation: 'dba' } },
  },
  CHANNELS,
);

function pendingOf(gate: typeof migrations, agent = 'agent-1'): PendingRequest {
  return { request_id: 'r1', gate_id: gate.id, requested_at: T0.toISOString(), once_per: 'action', trace_id: 't1', ...requestDeadlines(settings, gate, agent, T0) };
}

describe('approval deadlines', () => {
  it('plan a request from its gate: the final deadline, the steps of its escalation target, the channels asked at once', () => {
    expect(requestDeadlines(settings, migrations, 'agent-1', T0)).toEqual({
      timeout_ms: 600_000,
      expires_at: at(600_000).toISOString(),
      escalation: 'dba',
      asked: ['oncall', 'leads'],
      escalation_steps: [{ at: at(120_000).toISOString(), channels: ['pager'] }],
      escalated: 0,
    });
    // A target without a list of its own takes the default list.
    expect(requestDeadlines(settings, deploy, 'agent-1', T0)).toMatchObject({
      escalation: 'deployment_lead',
      asked: ['oncall'],
      escalation_steps: [
        { at: at(300_000).toISOString(), channels: ['pager'] },
        { at: at(900_000).toISOString(), channels: ['leads'] },
      ],
    });
    // Without settings: the gate's deadline, no steps, no channel.
    expect(requestDeadlines({ channels: [], escalation: {}, agents: {} }, deploy, 'agent-1', T0)).toMatchObject({ timeout_ms: 3_600_000, asked: [], escalation_steps: [] });
  });

  it('per agent: its own final deadline or escalation target over the gate\'s', () => {
    expect(requestDeadlines(settings, deploy, 'nightly-bot', T0)).toMatchObject({ timeout_ms: 240_000, expires_at: at(240_000).toISOString(), escalation: 'deployment_lead' });
    expect(requestDeadlines(settings, deploy, 'release-bot', T0)).toMatchObject({ timeout_ms: 3_600_000, escalation: 'dba', escalation_steps: [{ channels: ['pager'] }] });
  });

  it('are due one step at a time on an injected clock, then at the final deadline', () => {
    let pending = pendingOf(migrations);
    expect(nextDeadline(pending)).toBe(at(120_000).getTime());
    expect(deadlineDue(pending, at(119_999))).toEqual({ kind: 'wait', at: at(120_000).getTime() });
    const due = deadlineDue(pending, at(130_000));
    expect(due).toEqual({ kind: 'escalate', run: { step: 1, at: at(130_000).toISOString(), after_ms: 120_000, channels: ['pager'] } });
    pending = escalatedPending(pending, (due as Extract<typeof due, { kind: 'escalate' }>).run);
    expect(pending).toMatchObject({ escalated: 1, asked: ['oncall', 'leads', 'pager'] });
    expect(nextDeadline(pending)).toBe(at(600_000).getTime());
    expect(deadlineDue(pending, at(599_999))).toEqual({ kind: 'wait', at: at(600_000).getTime() });
    expect(deadlineDue(pending, at(600_000))).toEqual({ kind: 'expire' });
    // A request stored before escalation steps: only its final deadline.
    const legacy = { ...pendingOf(migrations), escalation_steps: undefined, escalated: undefined, asked: undefined };
    expect(nextDeadline(legacy)).toBe(at(600_000).getTime());
    expect(deadlineDue(legacy, at(300_000))).toEqual({ kind: 'wait', at: at(600_000).getTime() });
  });

  it('say why a request nobody answered is denied: the gate, the deadline, the channels in the order they were asked', () => {
    const pending = escalatedPending(pendingOf(deploy), { step: 1, at: at(300_000).toISOString(), after_ms: 300_000, channels: ['pager'] });
    expect(timeoutReason(pending)).toBe(
      'Nobody answered the approval request of gate production_deploy within 60 min (asked: oncall, then pager); the action is denied: nothing is approved without an answer.',
    );
    const alone = { ...pendingOf(migrations), asked: [], escalation_steps: [] };
    expect(timeoutReason(alone)).toContain("(asked: the operators' queue only (no approval channel))");
    expect([850, 1_500, 40_000, 300_000, 7_200_000].map(durationText)).toEqual(['850 ms', '1.5 s', '40 s', '5 min', '2 h']);
  });

  it.each([
    [{ escalation: [] }, /approvals.escalation must map escalation targets/],
    [{ escalation: { dba: [] } }, /approvals.escalation.dba must be a list of steps/],
    [{ escalation: { dba: [{ after_ms: 0, channels: ['pager'] }] } }, /approvals.escalation.dba\[0\].after_ms must be a whole number/],
    [{ escalation: { dba: [{ after: '5m', channels: ['pager'] }] } }, /unknown setting after/],
    [{ escalation: { dba: [{ after_ms: 10, channels: ['sms'] }] } }, /sms is not an approval channel \(oncall, pager, leads\)/],
    [{ escalation: { dba: [{ after_ms: 10, channels: ['pager'] }, { after_ms: 10, channels: ['leads'] }] } }, /\[1\].after_ms must be later than the step before it/],
    [{ escalation: { dba: [{ after_ms: 10, channels: ['pager'] }, { after_ms: 20, channels: ['pager'] }] } }, /pager is asked twice/],
    [{ agents: { 'agent-1': { timeout_ms: 'soon' } } }, /approvals.agents.agent-1.timeout_ms must be a whole number/],
    [{ agents: { 'agent-1': { escalation: 'nobody' } } }, /approvals.agents.agent-1.escalation must name a list of approvals.escalation/],
    [{ agents: { 'agent-1': { on_timeout: 'approve' } } }, /unknown setting on_timeout/],
  ])('refuse %j', (raw, message) => {
    expect(() => resolveDeadlineSettings(raw as never, CHANNELS)).toThrow(ConditionError);
    expect(() => resolveDeadlineSettings(raw as never, CHANNELS)).toThrow(message);
  });

  it('are checked against the gates: a list for a target nobody escalates to is refused', () => {
    expect(() => checkDeadlines(settings, [migrations, deploy])).not.toThrow();
    expect(() => checkDeadlines(resolveDeadlineSettings({ escalation: { dbas: [{ after_ms: 10, channels: ['pager'] }] } }, CHANNELS), [migrations])).toThrow(
      'approvals.escalation.dbas: no gate escalates to dbas (the gates\' targets: dba)',
    );
  });

  it('leave out the steps due at or after the final deadline: the request is denied before them', () => {
    // nightly-bot's 240 s deadline comes before the default list's steps at 300 s and 900 s.
    expect(requestDeadlines(settings, deploy, 'nightly-bot', T0)).toMatchObject({ asked: ['oncall'], escalation_steps: [] });
  });
});
