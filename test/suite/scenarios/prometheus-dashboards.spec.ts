import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { createMessage, EXAMPLE_PAYLOADS, publishSubject, type MessageType, type SessionChannelId, definitionOf } from '@warden/contracts';
import { freePort, ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { WardenClient } from '@warden/sdk';
import { TestNatsServer, TestPostgres } from '@warden/testing';
import { FAST_LEASES, PARTITIONS } from './path-fixture.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DASHBOARDS = join(ROOT, 'deploy', 'grafana', 'dashboards');
const RULES = join(ROOT, 'deploy', 'prometheus', 'rules');
const encoder = new TextEncoder();

/** Grafana's variables, as a dashboard would fill them in: all services, a 1-minute rate window, a 5-minute range. */
const VARIABLES: [RegExp, string][] = [
  [/\$__rate_interval/g, '1m'],
  [/\$__interval/g, '15s'],
  [/\$__range/g, '5m'],
  [/\$service/g, '.+'],
];

function fillVariables(expr: string): string {
  return VARIABLES.reduce((text, [pattern, value]) => text.replace(pattern, value), expr);
}

/** Every `expr` of every panel target of the dashboards, with the dashboard and panel it is in. */
function dashboardExpressions(): { where: string; expr: string }[] {
  const found: { where: string; expr: string }[] = [];
  for (const file of readdirSync(DASHBOARDS).filter((f) => f.endsWith('.json'))) {
    const dashboard = JSON.parse(readFileSync(join(DASHBOARDS, file), 'utf8')) as { panels: { title: string; targets?: { expr?: string }[] }[] };
    for (const panel of dashboard.panels) for (const target of panel.targets ?? []) if (target.expr) found.push({ where: `${file}: ${panel.title}`, expr: target.expr });
  }
  return found;
}

/** Every alert rule: its whole expression, and the measure it compares with the threshold. */
function alertExpressions(): { where: string; expr: string; measure: string }[] {
  const found: { where: string; expr: string; measure: string }[] = [];
  for (const file of readdirSync(RULES).filter((f) => f.endsWith('.yml'))) {
    const { groups } = parse(readFileSync(join(RULES, file), 'utf8')) as { groups: { rules: { alert?: string; record?: string; expr: string }[] }[] };
    for (const rule of groups.flatMap((g) => g.rules)) {
      const comparison = /^([\s\S]*?)\s*(?:==|!=|>=|<=|>|<)\s*-?[\d.]+(?:e[+-]?\d+)?\s*$/.exec(rule.expr.trim());
      found.push({ where: `${file}: ${rule.alert ?? rule.record}`, expr: rule.expr, measure: comparison ? comparison[1]! : rule.expr });
    }
  }
  return found;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The dashboards and alert rules against the real thing: Debian's Prometheus scrapes running audit,
 * reviewer, gate and breaker processes while an agent works and the suite's events flow; every PromQL
 * expression of the Grafana dashboards and of the alert rules must parse and return data.
 */
describe('Prometheus with the Grafana dashboards and alert rules', () => {
  let nats: TestNatsServer;
  let postgres: TestPostgres;
  let bus: BusConnection;
  let client: WardenClient | undefined;
  const services: ServiceProcess[] = [];
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  const dir = mkdtempSync(join(tmpdir(), 'warden-prometheus-'));

  async function query(expr: string): Promise<{ status: string; error?: string; data?: { result: unknown[] } }> {
    const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
    return (await response.json()) as { status: string; error?: string; data?: { result: unknown[] } };
  }

  async function publish<T extends MessageType>(type: T, session: string, payload: Record<string, unknown> = {}): Promise<void> {
    const message = createMessage(type, { session_id: session, agent_id: 'agent-1', payload: { ...(EXAMPLE_PAYLOADS[type] as object), ...payload } as never });
    const channel = definitionOf(type)!.channel as SessionChannelId;
    await bus.js.publish(publishSubject(channel, 'agent-1', session), encoder.encode(JSON.stringify(message)), { msgID: message.id });
  }

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    postgres = await TestPostgres.start();
    const databaseUrl = await postgres.createDatabase('audit_prometheus');
    const common = { nats: nats.service, partitions: PARTITIONS };
    services.push(await ServiceProcess.start({ ...common, app: 'audit', env: { ...FAST_LEASES, DATABASE_URL: databaseUrl, AUDIT_GAUGE_REFRESH_MS: '500' } }));
    // An approval channel, so that the gate exports its deliveries (from zero) for the alert on failed ones.
    writeFileSync(join(dir, 'gates.yaml'), 'approvals:\n  channels:\n    - { type: webhook, name: pager, url: "http://127.0.0.1:9/warden", secret: prometheus-test-secret }\n');
    const env: Record<string, Record<string, string>> = { gate: { ...FAST_LEASES, GATE_CONFIG: join(dir, 'gates.yaml') } };
    for (const app of ['reviewer', 'gate', 'breaker']) services.push(await ServiceProcess.start({ ...common, app, env: env[app] ?? FAST_LEASES }));
    bus = await BusConnection.open(nats.service);

    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    const config = {
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [join(RULES, '*.yml')],
      scrape_configs: services.map((s, i) => ({
        job_name: ['audit', 'reviewer', 'gate', 'breaker'][i],
        static_configs: [{ targets: [new URL(s.url).host] }],
      })),
    };
    writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config));
    prometheus = spawn(
      'prometheus',
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    prometheus.stderr!.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString()}`.slice(-4000)));
    await waitFor(`Prometheus to be ready (${stderr})`, async () => ((await fetch(`${prometheusUrl}/-/ready`)).ok ? true : undefined), 60_000);
  }, 240_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    await client?.close();
    await bus?.close();
    await Promise.all(services.map((s) => s.stop()));
    await postgres?.destroy();
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('passes promtool check rules', () => {
    const files = readdirSync(RULES).filter((f) => f.endsWith('.yml')).map((f) => join(RULES, f));
    const result = spawnSync('promtool', ['check', 'rules', ...files], { encoding: 'utf8' });
    expect({ status: result.status, output: `${result.stdout}${result.stderr}` }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('answers every expression of the dashboards and alert rules with data after a short workload', async () => {
    // An agent at work: the reviewer, the gate and the breaker answer, and audit stores what they say.
    const settings = nats.agent('agent-1');
    client = await WardenClient.connect({ servers: nats.url, agentId: 'agent-1', password: settings.password, decisionTimeoutMs: 60_000 });
    const session = client.session(`prom-${Date.now().toString(36)}`);
    await session.start({ context: { goal: 'Fix the date parser', cwd: '/work/app' }, phase: 'implementation' });
    for (let i = 0; i < 6; i++) {
      const destructive = i % 3 === 2;
      const actionId = `act-${i}`;
      await session.propose({
        actionId,
        tool: 'Bash',
        input: destructive ? { command: 'rm -rf /' } : { command: `npm test -- case-${i}`, env: { PGPASSWORD: 'hunter2hunter2' } },
      });
      await session.report({ actionId, status: i % 2 ? 'error' : 'success', model: 'claude-sonnet-4-5-20250929', tokens: { prompt: 2000, completion: 300 } });
    }
    // What the other services would publish: patterns, interventions, incidents, trips, gates, HITL.
    const other = `prom-events-${Date.now().toString(36)}`;
    await publish('pattern.detected', other);
    await publish('intervention.issued', other, { intervention_id: 'int-p1', escalation_level: 1 });
    await publish('intervention.evaluated', other, { intervention_id: 'int-p1', outcome: 'effective' });
    await publish('intervention.issued', other, { intervention_id: 'int-p2' });
    await publish('intervention.evaluated', other, { intervention_id: 'int-p2', outcome: 'ineffective' });
    await publish('incident.created', other);
    await publish('breaker.tripped', other);
    await publish('breaker.state_changed', other);
    await publish('breaker.cost_recorded', other);
    await publish('gate.requested', other, { request_id: 'req-p1' });
    await publish('gate.responded', other, { request_id: 'req-p1' });
    await publish('gate.requested', other, { request_id: 'req-p2' });
    await publish('gate.escalated', other, { request_id: 'req-p2' });
    await publish('hitl.paused', other);
    await publish('hitl.intervention_recorded', other);
    // Bad input: every consumer of the action channel dead-letters it, and audit stores the dead letters.
    await bus.js.publish(publishSubject('action', 'agent-1', other), encoder.encode('{"not json'));

    const expectedInAudit = ['warden_suite_decisions_total', 'warden_suite_dead_letters_total', 'warden_suite_hitl_commands_total', 'warden_suite_cost_usd_total', 'warden_suite_review_seconds'];
    await waitFor('audit to count the workload', async () => {
      const text = await (await fetch(`${services[0]!.url}/metrics`)).text();
      return expectedInAudit.every((name) => text.includes(`${name}{`) || text.includes(`${name}_bucket{`)) ? true : undefined;
    });
    // Enough scrapes after the workload for rates over a minute.
    await waitFor('Prometheus to scrape the workload', async () => ((await query('count(warden_suite_dead_letters_total)')).data?.result.length ? true : undefined));
    await new Promise((r) => setTimeout(r, 5_000));

    const failures: string[] = [];
    for (const { where, expr } of dashboardExpressions()) {
      const answer = await query(fillVariables(expr));
      if (answer.status !== 'success') failures.push(`${where}: does not parse: ${answer.error}\n  ${expr}`);
      else if (!answer.data?.result.length) failures.push(`${where}: no data\n  ${expr}`);
    }
    for (const { where, expr, measure } of alertExpressions()) {
      const whole = await query(expr);
      if (whole.status !== 'success') failures.push(`${where}: does not parse: ${whole.error}\n  ${expr}`);
      const answer = await query(measure);
      if (answer.status !== 'success' || !answer.data?.result.length) failures.push(`${where}: the measure has no data\n  ${measure}`);
    }
    expect(dashboardExpressions().length).toBeGreaterThanOrEqual(30);
    expect(alertExpressions().length).toBeGreaterThanOrEqual(6);
    expect(failures).toEqual([]);
  }, 240_000);
});
