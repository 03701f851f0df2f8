import type { Issue } from './issue.js';
import { resolveInterventionSettings } from './intervention-settings-file.js';
import type { InterventionSettings } from './intervention-settings.js';
import { InterventionSession } from './intervention-session.js';
import { emptyRecord } from './session-record.js';

/** An issue of a type with the given severity figures, reported at `at`. */
export function issue(overrides: Partial<Issue> = {}): Issue {
  return {
    type: 'repetitive_errors',
    severity: 'low',
    confidence: 1,
    impact_factor: 0,
    description: 'The same failing command ran 5 times',
    details: { file_path: '/work/app/src/parser.ts' },
    evidence_action_ids: [],
    trigger: { kind: 'pattern', message_id: `pat-${Math.random().toString(36).slice(2)}`, issue_type: 'repetitive_errors' },
    at: 0,
    ...overrides,
  };
}

export function settings(overrides: Record<string, unknown> = {}): InterventionSettings {
  return resolveInterventionSettings({ intervention_cooldown_seconds: 0, ...overrides });
}

export function session(s: InterventionSettings = settings()): InterventionSession {
  const record = emptyRecord('agent-1', 'sess-1', s.resource_throttling.default_limits);
  const created = new InterventionSession(s, record);
  created.declare({ goal: 'Fix the date parser', expected_paths: ['/work/app/src/**'], constraints: ['Do not change the public API'] }, 0);
  return created;
}
