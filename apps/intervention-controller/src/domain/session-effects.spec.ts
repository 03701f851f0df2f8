import { createMessage, EXAMPLE_PAYLOADS } from '@warden/contracts';
import { DEFAULT_PROMPTS, emptyRecord, InterventionSession, resolveInterventionSettings, respondToIssue, type Issue } from '@warden/interventions';
import { applySessionMessage, responseEffects } from './session-effects.js';

const settings = resolveInterventionSettings({ intervention_cooldown_seconds: 3600 });
const newSession = () => new InterventionSession(settings, emptyRecord('agent-1', 'sess-1', settings.resource_throttling.default_limits));
const address = { agent_id: 'agent-1', session_id: 'sess-1' };

const issue = (overrides: Partial<Issue> = {}): Issue => ({
  type: 'repetitive_errors',
  severity: 'medium',
  confidence: 1,
  impact_factor: 0,
  description: 'The same failing command ran 5 times',
  details: { file_path: '/work/app/src/parser.ts' },
  evidence_action_ids: [],
  trigger: { kind: 'pattern', message_id: 'pat-1', issue_type: 'repetitive_errors' },
  at: 1_000,
  ...overrides,
});

describe('what a session message and an issue lead to in the intervention controller', () => {
  it('takes the declared goal from session.started and its change from session.goal_changed, publishing nothing', () => {
    const session = newSession();
    const started = createMessage('session.started', { ...address, payload: { ...EXAMPLE_PAYLOADS['session.started'], context: { goal: 'Fix the parser', expected_paths: ['/work/app/**'] } } });
    expect(applySessionMessage(session, started, 0)).toEqual({ publications: [], tallies: [] });
    expect(session.record.context.goal).toBe('Fix the parser');
    const changed = createMessage('session.goal_changed', { ...address, payload: { ...EXAMPLE_PAYLOADS['session.goal_changed'], goal: 'Fix the parser and its tests' } });
    applySessionMessage(session, changed, 10);
    expect(session.record.context.goal).toContain('Fix the parser and its tests');
  });

  it('counts an issued intervention with the messages it publishes, and a second issue within the cooldown as suppressed', () => {
    const session = newSession();
    const first = responseEffects(session, respondToIssue(session, issue(), { settings, templates: DEFAULT_PROMPTS, causeId: 'pat-1', at: 1_000 }));
    expect(first.publications.map((p) => p.type)).toContain('intervention.issued');
    expect(first.tallies).toContainEqual({ kind: 'intervention', interventionType: expect.any(String), outcome: 'issued' });
    const second = responseEffects(session, respondToIssue(session, issue({ trigger: { kind: 'pattern', message_id: 'pat-2', issue_type: 'repetitive_errors' }, at: 2_000 }), { settings, templates: DEFAULT_PROMPTS, causeId: 'pat-2', at: 2_000 }));
    expect(second.publications.filter((p) => p.type === 'intervention.issued')).toEqual([]);
    expect(second.tallies.some((t) => t.kind === 'intervention' && t.outcome.startsWith('suppressed_'))).toBe(true);
  });
});
