import { MetricsRegistry } from '@warden/observability';
import { SuiteMetrics } from './suite-metrics.js';

function row(type: string, payload: Record<string, unknown>, channel = type.split('.')[0]!) {
  return { type, channel, payload };
}

async function series(registry: MetricsRegistry, name: string): Promise<string[]> {
  return (await registry.render()).split('\n').filter((line) => line.startsWith(`${name}{`));
}

describe('SuiteMetrics', () => {
  it('labels an evaluation with the type of the intervention it evaluates', async () => {
    const registry = new MetricsRegistry('audit');
    const metrics = new SuiteMetrics(registry);
    metrics.observe(row('intervention.issued', { intervention_id: 'i1', intervention_type: 'soft_correction', escalation_level: 2 }), Date.now());
    metrics.observe(row('intervention.evaluated', { intervention_id: 'i1', outcome: 'effective' }), Date.now());
    metrics.observe(row('intervention.evaluated', { intervention_id: 'forgotten', outcome: 'ineffective' }), Date.now());
    expect(await series(registry, 'warden_suite_interventions_total')).toEqual([
      'warden_suite_interventions_total{intervention_type="soft_correction",outcome="issued",service="audit"} 1',
      'warden_suite_interventions_total{intervention_type="soft_correction",outcome="effective",service="audit"} 1',
      'warden_suite_interventions_total{intervention_type="unknown",outcome="ineffective",service="audit"} 1',
    ]);
    expect(await series(registry, 'warden_suite_escalations_total')).toEqual(['warden_suite_escalations_total{source="intervention",service="audit"} 1']);
  });

  it('adds costs by model, gate response times in seconds, and the ingest lag from the publish time', async () => {
    const registry = new MetricsRegistry('audit');
    const metrics = new SuiteMetrics(registry);
    metrics.observe(row('breaker.cost_recorded', { model: 'm', cost_usd: 0.25, prompt_tokens: 10, completion_tokens: 2 }), 0, 0);
    metrics.observe(row('breaker.cost_recorded', { model: 'm', cost_usd: 0.5, prompt_tokens: 1, completion_tokens: 1 }), 0, 0);
    metrics.observe(row('gate.responded', { gate_id: 'g', approved: true, response_ms: 2500 }), 1_000, 3_000);
    expect(await series(registry, 'warden_suite_cost_usd_total')).toEqual(['warden_suite_cost_usd_total{model="m",service="audit"} 0.75']);
    expect(await series(registry, 'warden_suite_gate_responses_total')).toEqual(['warden_suite_gate_responses_total{gate="g",outcome="approved",service="audit"} 1']);
    expect(await series(registry, 'warden_suite_gate_response_seconds_sum')).toEqual(['warden_suite_gate_response_seconds_sum{service="audit",gate="g"} 2.5']);
    expect(await series(registry, 'warden_audit_ingest_lag_seconds_sum')).toEqual(['warden_audit_ingest_lag_seconds_sum{service="audit"} 2']);
  });
});
