import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishSubject, validateMessage, type MessageType, type PayloadOf, type SessionChannelId } from '@warden/contracts';
import { describeServiceContract } from '@warden/testing';
import { InterventionControllerAppModule } from '../src/app.module.js';
import { loadInterventionControllerConfig } from '../src/config.js';

const encoder = new TextEncoder();
const configDir = mkdtempSync(join(tmpdir(), 'warden-interventions-contract-'));
const configPath = join(configDir, 'interventions.yaml');

/** A webhook receiver that fails the first delivery of each incident, as a flaky endpoint would. */
const received: { body: { incident: { incident_id: string } }; idempotencyKey: string | undefined }[] = [];
const failed = new Set<string>();
let webhook: Server;

const channelOf: Partial<Record<MessageType, SessionChannelId>> = {
  'pattern.detected': 'pattern',
  'session.started': 'session',
  'action.proposed': 'action',
  'action.outcome': 'outcome',
  'control.acknowledged': 'control_ack',
  'breaker.tripped': 'breaker',
};

describeServiceContract(
  {
    service: 'intervention-controller',
    createModule: (env, logger) => InterventionControllerAppModule.forRoot(loadInterventionControllerConfig(env), logger),
    prepare: async () => {
      webhook = createServer((request, response) => {
        let data = '';
        request.on('data', (chunk: Buffer) => (data += chunk.toString()));
        request.on('end', () => {
          const body = JSON.parse(data) as { incident: { incident_id: string } };
          if (!failed.has(body.incident.incident_id)) {
            failed.add(body.incident.incident_id);
            response.writeHead(503).end();
            return;
          }
          received.push({ body, idempotencyKey: request.headers['idempotency-key'] as string | undefined });
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
      const port = (webhook.address() as { port: number }).port;
      writeFileSync(
        join(configDir, 'polling-handler.mjs'),
        `export default {
  name: 'polling-handler',
  intervene(issue) {
    return issue.type === 'polling_loop' ? { intervention_type: 'context_reinforcement', message: 'Stop polling; wait for the event instead.' } : null;
  },
};
`,
      );
      writeFileSync(
        join(configDir, 'failing-handler.mjs'),
        `export const handler = {
  name: 'failing-handler',
  intervene(issue) {
    if (issue.type === 'installation_trap') throw new Error('handler bug');
    return null;
  },
};
`,
      );
      writeFileSync(
        configPath,
        `interventions:
  intervention_cooldown_seconds: 0
  custom_handlers: [./failing-handler.mjs, ./polling-handler.mjs]
  strategy:
    effectiveness_window_actions: 2
  emergency_stop:
    notification_channels: [log, webhook]
    webhook: { url: "http://127.0.0.1:${port}/hooks/warden", retries: 3, backoff_ms: 50, timeout_ms: 2000 }
`,
      );
      return {
        env: { INTERVENTIONS_CONFIG: configPath, INTERVENTIONS_SWEEP_MS: '200' },
        cleanup: async () => {
          await new Promise((resolve) => webhook.close(resolve));
          rmSync(configDir, { recursive: true, force: true });
        },
      };
    },
  },
  (harness) => {
    let sequence = 0;
    const newSession = () => `ic-${Date.now().toString(36)}-${++sequence}`;

    async function send<T extends keyof typeof channelOf & MessageType>(type: T, session: string, payload: PayloadOf<T>): Promise<string> {
      const channel = channelOf[type]!;
      const before = await harness.processed(channel, type);
      const message: Record<string, unknown> = { ...harness.example(type, session), payload };
      await harness.bus.js.publish(publishSubject(channel, 'agent-1', session), encoder.encode(JSON.stringify(message)), { msgID: message['id'] as string });
      await harness.waitProcessed(channel, type, before + 1);
      return message['id'] as string;
    }

    const pattern = (overrides: Partial<PayloadOf<'pattern.detected'>> = {}): PayloadOf<'pattern.detected'> => ({
      pattern_id: `pat-${++sequence}`,
      pattern_type: 'repetitive_errors',
      severity: 'low',
      confidence: 0.5,
      impact_factor: 0,
      description: 'npm test failed 4 times with the same error',
      evidence_action_ids: [],
      details: { file_path: 'src/parser.ts' },
      episode: 1,
      shadow: false,
      ...overrides,
    });

    /** A message the controller published for the session, checked against its contract. */
    async function published(session: string, type: string, where: (payload: Record<string, unknown>) => boolean = () => true) {
      const found = await harness.recorder.waitFor((m) => m.body.session_id === session && m.body.type === type && where(m.body.payload as Record<string, unknown>));
      expect(validateMessage(found.body)).toMatchObject({ ok: true });
      return found.body as { id: string; causation_id?: string; payload: Record<string, unknown> };
    }

    const ofSession = (session: string, type: string) => harness.recorder.messages.filter((m) => m.body.session_id === session && m.body.type === type);

    describe('interventions over the bus', () => {
      it('answers a repeated error with a soft correction built from the declared context, then escalates while it persists', async () => {
        const session = newSession();
        await send('session.started', session, { context: { goal: 'Fix the date parser', expected_paths: ['src/**'], constraints: ['Keep the API'] } });
        const first = await send('pattern.detected', session, pattern());
        const control = await published(session, 'control.issued');
        expect(control.causation_id).toBe(first);
        expect(control.payload).toMatchObject({ kind: 'soft_correction', issue_type: 'repetitive_errors', requires_ack: true });
        expect(control.payload['message']).toContain('different approach');
        expect(control.payload['message']).toContain('src/parser.ts');
        const issued = await published(session, 'intervention.issued');
        expect(issued.payload).toMatchObject({ intervention_type: 'soft_correction', control_id: control.payload['control_id'], strategy: 'progressive', escalation_level: 0 });

        await send('pattern.detected', session, pattern());
        // The issue came back: the soft correction is judged ineffective and the next step is stronger.
        expect((await published(session, 'intervention.evaluated')).payload).toEqual({
          intervention_id: issued.payload['intervention_id'],
          outcome: 'ineffective',
          effectiveness: 0,
          next_step: 'escalate',
        });
        const second = await published(session, 'control.issued', (p) => p['kind'] !== 'soft_correction');
        expect(second.payload['kind']).toBe('context_reinforcement');
        expect(second.payload['message']).toContain('**Original Request**: Fix the date parser');
        expect((await published(session, 'intervention.issued', (p) => p['intervention_type'] === 'context_reinforcement')).payload).toMatchObject({
          escalation_level: 1,
          previous_intervention_type: 'soft_correction',
        });
      });

      it('measures effectiveness from the outcomes that follow and records acknowledgements', async () => {
        const session = newSession();
        await send('pattern.detected', session, pattern({ pattern_type: 'goal_drift' }));
        const control = await published(session, 'control.issued');
        await send('control.acknowledged', session, { control_id: control.payload['control_id'] as string, status: 'applied' });
        await send('action.outcome', session, { action_id: 'ok-1', status: 'success' });
        await send('action.outcome', session, { action_id: 'ok-2', status: 'success' });
        expect((await published(session, 'intervention.evaluated')).payload).toMatchObject({ outcome: 'effective', effectiveness: 1, next_step: 'de_escalate' });
      });

      it('ignores patterns reported in shadow mode', async () => {
        const session = newSession();
        await send('pattern.detected', session, pattern({ shadow: true, severity: 'critical', confidence: 1 }));
        await send('pattern.detected', session, pattern({ pattern_type: 'goal_drift' }));
        await published(session, 'control.issued');
        expect(ofSession(session, 'control.issued')).toHaveLength(1);
        expect(ofSession(session, 'incident.created')).toHaveLength(0);
      });

      it('lets a registered custom handler choose the intervention and its words', async () => {
        const session = newSession();
        await send('pattern.detected', session, pattern({ pattern_type: 'polling_loop' }));
        expect((await published(session, 'control.issued')).payload).toMatchObject({ kind: 'context_reinforcement', message: 'Stop polling; wait for the event instead.' });
        expect((await published(session, 'intervention.issued')).payload).toMatchObject({ strategy: 'custom', handler: 'polling-handler' });
      });

      it('falls back to the strategy when a custom handler fails', async () => {
        const session = newSession();
        await send('pattern.detected', session, pattern({ pattern_type: 'installation_trap' }));
        expect((await published(session, 'intervention.issued')).payload).toMatchObject({ intervention_type: 'soft_correction', strategy: 'progressive' });
      });

      it('cuts a correction built from a very long declared context to what the contract carries', async () => {
        const session = newSession();
        const constraints = Array.from({ length: 100 }, (_, i) => `Constraint ${i}: ${'keep it small '.repeat(70)}`.slice(0, 1000));
        await send('session.started', session, { context: { goal: 'g'.repeat(4000), constraints } });
        await send('pattern.detected', session, pattern({ pattern_type: 'scope_creep', severity: 'medium', confidence: 0.7 }));
        const control = await published(session, 'control.issued');
        expect(control.payload['kind']).toBe('context_reinforcement');
        expect((control.payload['message'] as string).length).toBe(16_000);
      });

      it('throttles a resource spiral with limits the breaker can enforce', async () => {
        const session = newSession();
        await send('pattern.detected', session, pattern({ pattern_type: 'resource_spiral', severity: 'medium', confidence: 1, details: { growth: { tokens_per_min: 2.4, file_operations_per_min: 1.3 } } }));
        const issued = await published(session, 'intervention.issued');
        expect(issued.payload).toMatchObject({
          intervention_type: 'resource_throttling',
          limits: { max_tokens: 500_000, max_file_operations: 850, max_iterations: 25, max_cost_usd: 25, batch_size: 50 },
          reduction_factors: { iterations: 0.5, tokens: 0.5, cost: 0.5, file_operations: 0.85 },
        });
        expect((await published(session, 'control.issued')).payload).toMatchObject({ kind: 'resource_throttling', limits: { max_iterations: 25 } });
      });

      it('stops a critical issue at once: pauses the session at the gate, opens an incident, notifies the webhook through a failure', async () => {
        const session = newSession();
        // A cost breaker trip first: a medium issue of certain confidence, it gets a throttle.
        await send('breaker.tripped', session, { breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED', current_value: 80, threshold: 50 });
        expect((await published(session, 'intervention.issued')).payload).toMatchObject({ intervention_type: 'resource_throttling', trigger: { kind: 'breaker', issue_type: 'cost' } });
        await send('pattern.detected', session, pattern({ severity: 'critical', confidence: 1, description: 'rm -rf attempts on the home directory' }));
        const pause = await published(session, 'gate.command');
        expect(pause.payload).toMatchObject({ command_type: 'hitl_pause', operator_id: 'intervention-controller' });
        expect(pause.payload['reason']).toContain('Emergency stop');
        const incident = await published(session, 'incident.created');
        const incidentId = incident.payload['incident_id'] as string;
        expect(incident.payload['recovery_options']).toHaveLength(4);
        expect(incident.payload['timeline']).toEqual(expect.arrayContaining([expect.objectContaining({ event: expect.stringContaining('breaker_cost reported') })]));
        expect((await published(session, 'control.issued', (p) => p['kind'] === 'emergency_stop')).payload).toMatchObject({ incident_id: incidentId, requires_ack: true });
        // The pause is stored before the stop order.
        const order = harness.recorder.messages.filter((m) => m.body.session_id === session).map((m) => m.body.type);
        expect(order.indexOf('gate.command')).toBeLessThan(order.lastIndexOf('control.issued'));

        const deadline = Date.now() + 10_000;
        while (!received.some((r) => r.body.incident.incident_id === incidentId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        const delivery = received.find((r) => r.body.incident.incident_id === incidentId);
        expect(failed.has(incidentId)).toBe(true);
        expect(delivery?.idempotencyKey).toBe(incidentId);

        // Stopped: nothing further is issued for the session.
        const before = ofSession(session, 'control.issued').length;
        await send('pattern.detected', session, pattern({ pattern_type: 'scope_creep' }));
        await send('pattern.detected', session, pattern({ pattern_type: 'goal_drift', severity: 'critical', confidence: 1 }));
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(ofSession(session, 'control.issued')).toHaveLength(before);
      });

      it('counts interventions, effectiveness and escalations in its metrics', async () => {
        const text = await (await fetch(`${harness.service.url}/metrics`)).text();
        const value = (name: string, labels: string) => Number(new RegExp(`^${name}\\{[^}]*${labels}[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
        expect(value('warden_interventions_total', 'intervention_type="soft_correction",outcome="issued"')).toBeGreaterThanOrEqual(2);
        expect(value('warden_interventions_total', 'intervention_type="emergency_stop",outcome="issued"')).toBeGreaterThanOrEqual(1);
        expect(value('warden_interventions_total', 'intervention_type="soft_correction",outcome="applied"')).toBe(1);
        expect(value('warden_interventions_total', 'intervention_type="soft_correction",outcome="ineffective"')).toBeGreaterThanOrEqual(1);
        expect(value('warden_interventions_total', 'intervention_type="none",outcome="suppressed_stopped"')).toBeGreaterThanOrEqual(2);
        expect(value('warden_intervention_effectiveness_count', 'intervention_type="soft_correction"')).toBeGreaterThanOrEqual(2);
        expect(value('warden_intervention_escalations_total', 'intervention_type="context_reinforcement"')).toBeGreaterThanOrEqual(1);
        expect(value('warden_intervention_notifications_total', 'notifier="webhook",result="delivered"')).toBeGreaterThanOrEqual(1);
      });
    });
  },
);
