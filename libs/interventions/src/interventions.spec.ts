import { validateMessage, createMessage, type InterventionType } from '@warden/contracts';
import { InterventionRegistry } from './custom-handlers.js';
import { resolveInterventionSettings, InterventionSettingsError } from './intervention-settings-file.js';
import { DEFAULT_INTERVENTION_SETTINGS } from './intervention-settings.js';
import { intervene, type InterventionInput } from './interventions.js';
import { DEFAULT_PROMPTS, resolvePromptTemplates } from './prompts.js';
import { issue, session, settings } from './session.fixture.js';
import { computeThrottle, growthRate, reductionFactor } from './throttling.js';

function input(overrides: Partial<InterventionInput> = {}): InterventionInput {
  const s = settings();
  return { issue: issue(), record: session(s).record, settings: s, templates: DEFAULT_PROMPTS, interventionId: 'int-1', incidentId: 'inc-1', now: 10_000, ...overrides };
}

/** The control message as the controller would publish it, checked against libs/contracts. */
function controlMessage(type: InterventionType, given: InterventionInput) {
  const result = intervene(type, given);
  const message = createMessage('control.issued', { agent_id: 'agent-1', session_id: 'sess-1', payload: { control_id: 'ctl-1', intervention_id: 'int-1', ...result.control } });
  expect(validateMessage(message)).toEqual({ ok: true, message });
  return { result, message };
}

describe('soft correction', () => {
  it('sends one message for a repeated error that asks for a different approach and names the path', () => {
    const { message } = controlMessage('soft_correction', input());
    expect(message.payload.kind).toBe('soft_correction');
    expect(message.payload.message).toContain('different approach');
    expect(message.payload.message).toContain('/work/app/src/parser.ts');
    expect(message.payload.requires_ack).toBe(true);
  });

  it('uses the declared goal and expected paths for scope creep and goal drift', () => {
    const scope = controlMessage('soft_correction', input({ issue: issue({ type: 'scope_creep', details: { out_of_scope_path: '/etc/hosts' } }) })).message;
    expect(scope.payload.message).toContain('You were asked to: Fix the date parser');
    expect(scope.payload.message).toContain('/work/app/src/**');
    expect(scope.payload.message).toContain('/etc/hosts');
    const drift = controlMessage('soft_correction', input({ issue: issue({ type: 'goal_drift', details: { completed_subtasks: ['read the parser'] } }) })).message;
    expect(drift.payload.message).toContain('main objective: Fix the date parser');
    expect(drift.payload.message).toContain('- read the parser');
    const other = controlMessage('soft_correction', input({ issue: issue({ type: 'bypass_trap', description: 'Tries to disable the tests' }) })).message;
    expect(other.payload.message).toContain("I've detected a potential issue: Tries to disable the tests");
  });

  it('takes its text from the templates file when one overrides it', () => {
    const templates = resolvePromptTemplates({ soft_correction: { repetitive_errors: 'Stop. Goal: {{goal}}. Path: {{file_path}}. {{unknown_name}}' } });
    const { message } = controlMessage('soft_correction', input({ templates }));
    expect(message.payload.message).toBe('Stop. Goal: Fix the date parser. Path: /work/app/src/parser.ts. {{unknown_name}}');
    expect(templates.soft_correction['scope_creep']).toBe(DEFAULT_PROMPTS.soft_correction['scope_creep']);
    expect(() => resolvePromptTemplates({ soft_corection: {} })).toThrow('unknown prompt templates: soft_corection');
  });
});

describe('context reinforcement', () => {
  it('repeats the request, emphasises the constraints the issue calls for and states the boundaries', () => {
    const { message } = controlMessage('context_reinforcement', input({ issue: issue({ type: 'scope_creep' }) }));
    const text = message.payload.message!;
    expect(text).toContain('**Original Request**: Fix the date parser');
    expect(text).toContain('- Do not change the public API');
    expect(text).toContain('- **IMPORTANT: Only work with files in the specified directories**');
    expect(text).toContain('- Work only in /work/app/src/**');
    expect(text).toContain('**Example**:');
  });

  it('leaves out examples when configured so', () => {
    const s = settings({ context_reinforcement: { include_examples: false } });
    expect(intervene('context_reinforcement', input({ settings: s })).control.message).not.toContain('**Example**');
  });
});

describe('resource throttling', () => {
  const factors = DEFAULT_INTERVENTION_SETTINGS.resource_throttling.reduction_factors;

  it.each([
    [2.01, 0.5],
    [2.0, 0.7],
    [1.51, 0.7],
    [1.5, 0.85],
    [1.21, 0.85],
    [1.2, 1],
    [undefined, 1],
  ])('growth %p reduces a limit by %p', (growth, factor) => {
    expect(reductionFactor(growth, factors)).toBe(factor);
  });

  it('reads growth figures defensively', () => {
    expect(growthRate(2.5)).toBe(2.5);
    expect(growthRate({ ratio: 1.6 })).toBe(1.6);
    expect(growthRate({ current: 300, previous: 100 })).toBe(3);
    expect(growthRate({ current: 5, baseline: 0 })).toBe(Infinity);
    expect(growthRate('fast')).toBeUndefined();
    expect(growthRate(-1)).toBeUndefined();
  });

  it('computes the new limits from the growth figures with the seed reduction factors', () => {
    const current = { max_file_operations: 1000, max_tokens: 200_000, batch_size: 100, max_iterations: 50, max_cost_usd: 50 };
    const spiral = issue({ type: 'resource_spiral', severity: 'high', details: { growth: { file_operations_per_min: 2.5, tokens_per_min: { current: 160, previous: 100 }, cost_usd_per_min: 1.3 } } });
    const throttle = computeThrottle(current, spiral, factors);
    expect(throttle.growth).toEqual({ file_operations: 2.5, tokens: 1.6, cost: 1.3 });
    expect(throttle.factors).toMatchObject({ file_operations: 0.5, tokens: 0.7, cost: 0.85, iterations: 0.5 });
    expect(throttle.limits).toEqual({ max_file_operations: 500, max_tokens: 140_000, batch_size: 50, max_iterations: 25, max_cost_usd: 42.5 });
  });

  it('without figures reduces by severity, and a critical issue by the severe factor', () => {
    const current = { max_iterations: 40, max_cost_usd: 10 };
    expect(computeThrottle(current, issue({ severity: 'medium', details: {} }), factors).limits).toEqual({ max_iterations: 34, max_cost_usd: 8.5 });
    expect(computeThrottle(current, issue({ severity: 'high', details: { growth: 'unreadable' } }), factors).limits).toEqual({ max_iterations: 20, max_cost_usd: 5 });
    expect(computeThrottle(current, issue({ severity: 'critical', details: { growth: { tokens_per_min: 1.0 } } }), factors).limits).toEqual({ max_iterations: 10, max_cost_usd: 2.5 });
  });

  it('announces the new limits in its control message', () => {
    const { message, result } = controlMessage('resource_throttling', input({ issue: issue({ type: 'resource_spiral', severity: 'high', details: {} }) }));
    expect(message.payload.limits).toEqual(result.throttle!.limits);
    expect(message.payload.message).toContain('- Max actions per phase: 25');
    expect(message.payload.message).toContain('Please work within these constraints.');
  });
});

describe('checkpoint rollback', () => {
  function withHistory() {
    const s = session();
    s.recordAction('good-1', 1000);
    s.recordOutcome({ action_id: 'good-1', at: 1100, ok: true });
    s.recordCheckpoint({ id: 'ckpt-1', at: 2000, label: 'parser green', files: [{ path: 'src/parser.ts' }], conversation_position: 12 });
    s.recordAction('bad-1', 70_000);
    s.recordOutcome({ action_id: 'bad-1', at: 70_100, ok: false });
    s.recordCheckpoint({ id: 'ckpt-2', at: 80_000, files: [{ path: 'src/parser.ts' }] });
    s.recordAction('bad-2', 90_000);
    return s;
  }

  it('orders a rollback to the newest safe checkpoint saved before the issue started', () => {
    const s = withHistory();
    // The issue's evidence starts at bad-1: only ckpt-1 is older.
    const { result, message } = controlMessage('checkpoint_rollback', input({ record: s.record, issue: issue({ evidence_action_ids: ['bad-2', 'bad-1'], at: 100_000 }) }));
    expect(result.checkpoint?.id).toBe('ckpt-1');
    expect(message.payload).toMatchObject({
      kind: 'checkpoint_rollback',
      checkpoint_id: 'ckpt-1',
      conversation_position: 12,
      object_store: { bucket: 'warden_checkpoints_agent-1', key: 'sess-1/ckpt-1' },
    });
    expect(message.payload.message).toContain("I've rolled back to a previous checkpoint due to");
    expect(message.payload.message).toContain('ckpt-1 (parser green)');
  });

  it('skips checkpoints saved too soon after an error', () => {
    const s = withHistory();
    // Evidence from bad-2 only: ckpt-2 is before it, but 9.9 s after a failure (criterion: 60 s quiet).
    expect(intervene('checkpoint_rollback', input({ record: s.record, issue: issue({ evidence_action_ids: ['bad-2'] }) })).checkpoint?.id).toBe('ckpt-1');
    const lenient = settings({ checkpoint_rollback: { safe_checkpoint_criteria: { no_errors_duration_seconds: 5, min_success_rate: 0.5 } } });
    expect(intervene('checkpoint_rollback', input({ settings: lenient, record: s.record, issue: issue({ evidence_action_ids: ['bad-2'] }) })).checkpoint?.id).toBe('ckpt-2');
  });

  it('sends a recovery plan when no checkpoint is safe', () => {
    const { result, message } = controlMessage('checkpoint_rollback', input({ issue: issue({ evidence_action_ids: ['x'] }) }));
    expect(result.recoveryNeeded).toBe(true);
    expect(message.payload.checkpoint_id).toBeUndefined();
    expect(message.payload.recovery_plan?.length).toBeGreaterThan(0);
    expect(message.payload.message).toContain('There is no safe checkpoint');
  });
});

describe('emergency stop', () => {
  it('creates an incident with its id, timeline, impact, root cause, recommendations and recovery options', () => {
    const s = session();
    s.recordAction('a1', 100);
    s.recordOutcome({ action_id: 'a1', at: 200, ok: false, files: ['src/parser.ts'], tokens: 1500 });
    s.recordCheckpoint({ id: 'ckpt-1', at: 50, files: [] });
    const critical = issue({ type: 'critical_security_violation', severity: 'critical', details: { violated_rule: 'no_system_access' }, at: 300 });
    s.consider(critical, 300);
    const { result, message } = controlMessage('emergency_stop', input({ record: s.record, issue: critical }));
    expect(message.payload).toMatchObject({ kind: 'emergency_stop', incident_id: 'inc-1', requires_ack: true });
    const incident = result.incident!;
    expect(incident.incident_id).toBe('inc-1');
    expect(incident.recovery_options.length).toBeGreaterThan(0);
    expect(incident.recovery_plan?.map((o) => o.option)).toEqual(['resume_with_limits', 'rollback_and_retry', 'manual_intervention', 'abort']);
    expect(incident.recovery_plan?.[1]?.details).toMatchObject({ checkpoint_id: 'ckpt-1' });
    expect(incident.impact).toMatchObject({ files_affected: 1, failed_actions: 1, resources_consumed: { tokens: 1500 } });
    expect(incident.root_cause).toMatchObject({ issue_type: 'critical_security_violation', details: { violated_rule: 'no_system_access' } });
    expect(incident.timeline.map((e) => e.event)).toEqual([
      'Session started: Fix the date parser',
      'Checkpoint ckpt-1 saved',
      'critical_security_violation reported: The same failing command ran 5 times',
      'Emergency stop: The same failing command ran 5 times',
    ]);
    const created = createMessage('incident.created', { agent_id: 'agent-1', session_id: 'sess-1', payload: incident });
    expect(validateMessage(created).ok).toBe(true);
  });
});

describe('configuration', () => {
  it('has the seed values as defaults', () => {
    expect(resolveInterventionSettings({})).toEqual(DEFAULT_INTERVENTION_SETTINGS);
    expect(DEFAULT_INTERVENTION_SETTINGS).toMatchObject({
      max_interventions_per_execution: 10,
      intervention_cooldown_seconds: 30,
      resource_throttling: { reduction_factors: { moderate: 0.85, aggressive: 0.5, severe: 0.25 }, metrics_window_seconds: 60 },
      checkpoint_rollback: { max_rollback_depth: 3, checkpoint_retention_minutes: 30, safe_checkpoint_criteria: { min_success_rate: 0.8, no_errors_duration_seconds: 60 } },
      strategy: { type: 'progressive', effectiveness_threshold: 0.6, escalation_delay_seconds: 120 },
    });
  });

  it('reads the seed file shape under interventions: and rejects typos and bad values with the setting named', () => {
    expect(resolveInterventionSettings({ interventions: { max_interventions_per_execution: 3 } }).max_interventions_per_execution).toBe(3);
    expect(() => resolveInterventionSettings({ interventions: { max_intervention_per_execution: 3 } })).toThrow(InterventionSettingsError);
    expect(() => resolveInterventionSettings({ strategy: { effectiveness_threshold: 2 } })).toThrow('/strategy/effectiveness_threshold');
    expect(() => resolveInterventionSettings({ strategy: { type: 'custom' } })).toThrow('custom_handlers');
    expect(() => resolveInterventionSettings({ emergency_stop: { notification_channels: ['webhook'] } })).toThrow('webhook.url');
    expect(() => resolveInterventionSettings({ emergency_stop: { notification_channels: ['email'] } })).toThrow('notification_channels');
  });
});

describe('custom handlers (register_intervention)', () => {
  it('are consulted in order; the first that answers decides, the others are skipped; null leaves it to the strategy', async () => {
    const registry = new InterventionRegistry();
    const seen: string[] = [];
    registry.register({ name: 'quiet', intervene: (i) => (seen.push(`quiet:${i.type}`), null) });
    registry.register({ name: 'mine', intervene: (i) => (i.type === 'my_custom_pattern' ? { intervention_type: 'context_reinforcement', message: 'Custom words' } : null) });
    expect(await registry.decide(issue({ type: 'my_custom_pattern' }), { interventions: [] })).toEqual({
      handler: 'mine',
      decision: { intervention_type: 'context_reinforcement', message: 'Custom words' },
    });
    expect(await registry.decide(issue({ type: 'goal_drift' }), { interventions: [] })).toBeNull();
    expect(seen).toEqual(['quiet:my_custom_pattern', 'quiet:goal_drift']);
    registry.register({ name: 'broken', intervene: () => ({ intervention_type: 'nuke' as never }) });
    await expect(registry.decide(issue({ type: 'x' }), { interventions: [] })).rejects.toThrow('unknown intervention type: nuke');
    expect(() => registry.register({ name: 'no-fn' } as never)).toThrow('needs a name and an intervene function');
  });

  it('choose the intervention a session issues, recorded as strategy custom', () => {
    const s = session();
    const plan = s.consider(issue({ at: 5 }), 5, { type: 'resource_throttling', handler: 'mine' }).plan;
    expect(plan.selection).toMatchObject({ type: 'resource_throttling', strategy: 'custom', handler: 'mine' });
    expect(intervene('context_reinforcement', input({ message: 'Custom words' })).control.message).toBe('Custom words');
  });
});
