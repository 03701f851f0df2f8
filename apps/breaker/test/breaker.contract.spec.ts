import { Kvm } from '@nats-io/kv';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BREAKER_STATE_BUCKET,
  breakerStateKey,
  parseBreakerState,
  publishSubject,
  validateMessage,
  type BreakerStateRecord,
  type MessageType,
  type PayloadOf,
} from '@warden/contracts';
import { describeServiceContract, eventually } from '@warden/testing';
import { BreakerAppModule } from '../src/app.module.js';
import { loadBreakerConfig } from '../src/config.js';

const encoder = new TextEncoder();
const configDir = mkdtempSync(join(tmpdir(), 'warden-breaker-contract-'));
const configPath = join(configDir, 'breakers.yaml');

// Small budgets and a short deployment phase, so that trips happen in a test's time; the seed's price of
// Opus 4.6 (since lowered) and error-rate thresholds, which the figures below are written in.
writeFileSync(
  configPath,
  `breakers:
  cost:
    pricing:
      claude-opus-4-6: { input: 0.015, output: 0.075 }
    budgets:
      per_run: 10
      per_phase: { default: 100, planning: 100, implementation: 100, review: 100, testing: 100, deployment: 100 }
      per_day: 45
  time:
    warning: 0.5
    reset_after_ms: 60000
    timeouts: { deployment: 4000 }
  error_rate:
    min_events: 4
`,
);

describeServiceContract(
  {
    service: 'breaker',
    createModule: (env, logger) => BreakerAppModule.forRoot(loadBreakerConfig(env), logger),
    prepare: async () => ({ env: { BREAKER_CONFIG: configPath }, cleanup: async () => rmSync(configDir, { recursive: true, force: true }) }),
  },
  (harness) => {
    let sequence = 0;
    const newSession = () => `brk-${Date.now().toString(36)}-${++sequence}`;
    const channelOf: Partial<Record<MessageType, 'session' | 'outcome' | 'action' | 'breaker_command' | 'intervention' | 'usage'>> = {
      'session.started': 'session',
      'session.ended': 'session',
      'session.phase_changed': 'session',
      'action.proposed': 'action',
      'action.outcome': 'outcome',
      'breaker.command': 'breaker_command',
      'intervention.issued': 'intervention',
      'usage.reported': 'usage',
    };

    async function send<
      T extends 'session.started' | 'session.phase_changed' | 'session.ended' | 'action.proposed' | 'action.outcome' | 'breaker.command' | 'intervention.issued' | 'usage.reported',
    >(
      type: T,
      session: string,
      payload: PayloadOf<T>,
      agent = 'agent-1',
    ): Promise<string> {
      const channel = channelOf[type]!;
      const before = await harness.processed(channel, type);
      const message: Record<string, unknown> = { ...harness.example(type, session), payload, agent_id: agent };
      // Published as the agent would, on its own subject.
      await harness.bus.js.publish(publishSubject(channel, agent, session), encoder.encode(JSON.stringify(message)), { msgID: message['id'] as string });
      await harness.waitProcessed(channel, type, before + 1);
      return message['id'] as string;
    }

    const opus = (actionId: string, tokens: number): PayloadOf<'action.outcome'> => ({
      action_id: actionId,
      status: 'success',
      model: 'claude-opus-4-6',
      tokens: { prompt: tokens, completion: tokens },
    });

    /** A breaker event of the session, checked against its contract. */
    async function event(session: string, type: string, where: (payload: Record<string, unknown>) => boolean = () => true, timeoutMs = 10_000) {
      const found = await harness.recorder.waitFor(
        (m) => m.subject.startsWith('warden.breaker.') && m.body.session_id === session && m.body.type === type && where(m.body.payload as Record<string, unknown>),
        timeoutMs,
      );
      expect(validateMessage(found.body)).toMatchObject({ ok: true });
      return found.body as { id: string; causation_id?: string; payload: Record<string, unknown> };
    }

    async function state(session: string): Promise<BreakerStateRecord | null> {
      const kv = await new Kvm(harness.bus.nc).open(BREAKER_STATE_BUCKET);
      const entry = await kv.get(breakerStateKey('agent-1', session));
      return entry && entry.operation === 'PUT' ? parseBreakerState(entry.value) : null;
    }


    describe('breakers over the bus', () => {
      it('opens the cost breaker past the run budget, publishes why, and materialises the state for the reviewer', async () => {
        const session = newSession();
        const first = await send('action.outcome', session, opus('a1', 50_000)); // $4.50
        const cost = await event(session, 'breaker.cost_recorded');
        expect(cost.payload).toMatchObject({ action_id: 'a1', model: 'claude-opus-4-6', cost_usd: 4.5 });
        expect(cost.causation_id).toBe(first);
        await send('action.outcome', session, opus('a2', 50_000)); // $9.00: warning at 80 %
        expect((await event(session, 'breaker.warning')).payload).toMatchObject({ breaker: 'cost', reason: 'RUN_BUDGET_WARNING' });
        await send('action.outcome', session, opus('a3', 20_000)); // $10.80
        expect((await event(session, 'breaker.tripped')).payload).toMatchObject({
          breaker: 'cost',
          reason: 'RUN_BUDGET_EXCEEDED',
          threshold: 10,
          suggestion: expect.stringMatching(/^Run spent \$10\.80 of its \$10\.00 budget\. Further changes are held until an operator raises the budget or resets the cost breaker/),
          mode: 'enforce',
        });
        expect((await event(session, 'breaker.state_changed')).payload).toMatchObject({ breaker: 'cost', from: 'closed', to: 'open', cause: 'threshold' });
        const record = await eventually('the open state', () => state(session), (r) => r?.state === 'open');
        expect(record!.breakers.find((b) => b.breaker === 'cost')).toMatchObject({ state: 'open', reason: 'RUN_BUDGET_EXCEEDED', suggestion: expect.stringContaining('Run spent $10.80 of its $10.00 budget.') });
      });

      it("charges the usage an agent's telemetry reported, once per entry, and opens the cost breaker past the budget", async () => {
        const session = newSession();
        const entry = (key: string, cost: number) => ({ key, model: 'claude-opus-4-8', tokens: { prompt: 1000, completion: 200, cache_read: 40_000 }, cost_usd: cost, at: new Date().toISOString() });
        // Its own agent: the agent-1 sessions' rolling day stays as the other tests count it.
        await send('usage.reported', session, { source: 'telemetry_event', agent_kind: 'claude-code', entries: [entry('req_1', 6), entry('req_2', 3)] }, 'agent-usage');
        expect((await event(session, 'breaker.cost_recorded')).payload).toMatchObject({ model: 'claude-opus-4-8', cost_usd: 9, source: 'telemetry_event', priced_by: 'agent', operation: 'usage.reported' });
        // An exporter's retry (a new message with entries already counted) adds only what is new.
        await send('usage.reported', session, { source: 'telemetry_event', agent_kind: 'claude-code', entries: [entry('req_2', 3), entry('req_3', 1.5)] }, 'agent-usage');
        expect((await event(session, 'breaker.tripped')).payload).toMatchObject({ breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED', current_value: 10.5, threshold: 10 });
      });

      it('lets an operator reset a breaker, and records the command', async () => {
        const session = newSession();
        await send('action.outcome', session, opus('b1', 120_000)); // $10.80
        await eventually('the open state', () => state(session), (r) => r?.state === 'open');
        const command = await send('breaker.command', session, { command: 'reset', breaker: 'cost', operator_id: 'operator-xander', reason: 'budget raised' });
        expect((await event(session, 'breaker.command_applied')).payload).toMatchObject({ command: 'reset', operator_id: 'operator-xander', command_message_id: command, changed: ['cost'] });
        expect((await event(session, 'breaker.state_changed', (p) => p['cause'] === 'operator')).payload).toMatchObject({ from: 'open', to: 'closed', operator_id: 'operator-xander' });
        await eventually('the closed state', () => state(session), (r) => r?.state === 'closed');
      });

      it('counts the rolling day across the sessions of an agent', async () => {
        const sessions = [newSession(), newSession(), newSession(), newSession(), newSession()];
        // $9.00 in each session, under its run budget; the agent's day budget is $45.
        for (const [i, session] of sessions.entries()) await send('action.outcome', session, opus(`d${i}`, 100_000), 'agent-day');
        expect((await event(sessions[4]!, 'breaker.tripped')).payload).toMatchObject({ breaker: 'cost', reason: 'DAILY_BUDGET_EXCEEDED', current_value: 45, threshold: 45 });
        expect(harness.recorder.messages.filter((m) => sessions.slice(0, 4).includes(m.body.session_id as string) && m.body.type === 'breaker.tripped')).toEqual([]);
      });

      it('reports a model missing from the pricing table as an error event', async () => {
        const session = newSession();
        await send('action.outcome', session, { ...opus('u1', 10), model: 'gpt-9-ultra' });
        expect((await event(session, 'breaker.error')).payload).toMatchObject({ code: 'unknown_model', action_id: 'u1' });
      });

      it('trips the time breaker of a session that goes silent', async () => {
        const session = newSession();
        await send('session.started', session, { context: { goal: 'deploy' }, phase: 'deployment' });
        // Nothing more is sent: the timer reads the clock.
        // The trip is due 4 s after the message was stored; a loaded machine may deliver it much later.
        const tripped = await event(session, 'breaker.tripped', () => true, 60_000).catch((error: Error) => {
          // A trip that never comes: what the service said meanwhile, and its record of the session, to tell why.
          const said = harness.service.log.text().split('\n').filter((line) => line.includes(session) || /tick|partition|taken over|takeover/i.test(line));
          return state(session).then((record) => {
            throw new Error(`${error.message}\nstate record: ${JSON.stringify(record)}\nservice log:\n${said.slice(-40).join('\n')}`);
          });
        });
        expect(tripped.payload).toMatchObject({ breaker: 'time', reason: 'PHASE_TIMEOUT_EXCEEDED', threshold: 4000 });
        await eventually('the open state', () => state(session), (r) => r?.state === 'open');
        // The warning is due 2 s after the message was stored, the trip 4 s after: a service that first
        // handles the session (or wakes) after the trip was due, on a loaded machine, has only the trip left.
        const warnings = harness.recorder.messages.filter((m) => m.body.session_id === session && m.body.type === 'breaker.warning');
        for (const warning of warnings) expect(warning.body.payload).toMatchObject({ breaker: 'time', reason: 'PHASE_TIMEOUT_WARNING', threshold: 4000 });
      }, 90_000);

      it('trips a silent session whose deadline passed while no breaker service ran', async () => {
        const session = newSession();
        await send('session.started', session, { context: { goal: 'deploy' }, phase: 'deployment' });
        const stored = Date.now(); // the message was stored before it was processed
        await harness.stopService(); // at once: the trip is due 4 s after the message was stored
        const before = harness.recorder.messages.filter((m) => m.body.session_id === session && m.body.type === 'breaker.tripped');
        expect(before).toEqual([]);
        // The clock reads the machine's: the deadline passes only with time, while no breaker runs.
        await eventually('the deadline to pass', () => Date.now(), (now) => now > stored + 4_500);
        await harness.startService();
        const tripped = await event(session, 'breaker.tripped', () => true, 30_000);
        expect(tripped.payload).toMatchObject({ breaker: 'time', reason: 'PHASE_TIMEOUT_EXCEEDED', threshold: 4000 });
        await eventually('the open state', () => state(session), (r) => r?.state === 'open');
      }, 60_000);

      it('needs the minimum number of outcomes before an error rate counts', async () => {
        const session = newSession();
        for (let i = 0; i < 3; i++) await send('action.outcome', session, { action_id: `e${i}`, status: 'error', error: { message: 'boom' } });
        expect((await state(session))?.state).toBe('closed');
        await send('action.outcome', session, { action_id: 'e3', status: 'error', error: { message: 'boom' } });
        expect((await event(session, 'breaker.tripped')).payload).toMatchObject({ breaker: 'error_rate', reason: 'ERROR_RATE_CRITICAL', current_value: 1 });
      });

      it('forgets a session when it ends, and ignores what arrives after the end', async () => {
        const session = newSession();
        await send('action.outcome', session, opus('x1', 50_000));
        await eventually('the state record', () => state(session), (r) => r?.state === 'closed');
        await send('session.ended', session, { status: 'success' });
        await eventually('the state to be removed', () => state(session), (r) => r === null);
        const late = await send('action.outcome', session, opus('x2', 200_000)); // would trip the run budget
        await send('action.outcome', session, opus('x3', 1)); // handled after x2: x2 is done by then
        expect(harness.recorder.messages.filter((m) => m.body.session_id === session && m.body['causation_id'] === late)).toEqual([]);
        expect(await state(session)).toBeNull();
      });

      it("enforces the intervention controller's resource throttling: the run budget shrinks and the next call trips it", async () => {
        const session = newSession();
        // Its own agent, so that its spending stays out of the other cases' rolling day.
        const agent = 'agent-throttled';
        await send('action.outcome', session, opus('t1', 50_000), agent); // $4.50 of $10.00: nothing yet
        await send('intervention.issued', session, {
          intervention_id: 'int-throttle',
          intervention_type: 'resource_throttling',
          trigger: { kind: 'pattern', message_id: 'pat-1', issue_type: 'resource_spiral' },
          severity: 'high',
          severity_score: 0.6,
          escalation_level: 0,
          strategy: 'progressive',
          // $0.50 more from the throttle on: $5.00 (what the factor leaves of the rest, $7.25, is looser).
          limits: { max_cost_usd: 0.5 },
          reduction_factors: { iterations: 0.5, cost: 0.5 },
        }, agent);
        await send('action.outcome', session, opus('t2', 10_000), agent); // $5.40: past the throttled $5.00
        expect((await event(session, 'breaker.tripped')).payload).toMatchObject({ breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED', threshold: 5, current_value: 5.4 });
      });

      it("holds a throttled session to the file operations the controller allowed", async () => {
        const session = newSession();
        const agent = 'agent-throttled-files';
        const write = (id: string): PayloadOf<'action.proposed'> => ({ action_id: id, kind: 'tool_use', tool: 'Write', input: { file_path: `/work/app/${id}.ts`, content: '' } });
        await send('action.proposed', session, write('w1'), agent);
        await send('intervention.issued', session, {
          intervention_id: 'int-throttle-files',
          intervention_type: 'resource_throttling',
          trigger: { kind: 'pattern', message_id: 'pat-2', issue_type: 'resource_spiral' },
          severity: 'high',
          severity_score: 0.6,
          escalation_level: 0,
          strategy: 'progressive',
          limits: { max_file_operations: 2 },
        }, agent);
        await send('action.proposed', session, { action_id: 'r1', kind: 'tool_use', tool: 'Read', input: { file_path: '/work/app/a.ts' } }, agent);
        await send('action.proposed', session, write('w2'), agent);
        await send('action.proposed', session, write('w3'), agent);
        await send('action.proposed', session, write('w4'), agent); // the third write since the throttle: past the two allowed (w1 came before it)
        expect((await event(session, 'breaker.tripped')).payload).toMatchObject({ breaker: 'iteration', reason: 'FILE_OPERATION_LIMIT_EXCEEDED', threshold: 2, current_value: 3 });
      });

      it('counts a redelivered outcome once', async () => {
        const session = newSession();
        const message: Record<string, unknown> = { ...harness.example('action.outcome', session), payload: opus('r1', 50_000) };
        const before = await harness.processed('outcome', 'action.outcome');
        const data = encoder.encode(JSON.stringify(message));
        // Same message, two JetStream ids: JetStream stores it twice, the breaker applies it once.
        await harness.publishRaw('outcome', session, data, message['id'] as string);
        await harness.publishRaw('outcome', session, data, `${message['id'] as string}-again`);
        await harness.waitProcessed('outcome', 'action.outcome', before + 2);
        await send('action.outcome', session, opus('r2', 50_000));
        // $4.50 + $4.50 = $9.00 is a warning; a double count would have tripped at $13.50.
        expect((await event(session, 'breaker.warning')).payload).toMatchObject({ reason: 'RUN_BUDGET_WARNING', current_value: 9 });
        expect(harness.recorder.messages.filter((m) => m.body.session_id === session && m.body.type === 'breaker.tripped')).toEqual([]);
      });

      it('counts a cost in the phase the session declared, when the outcome reaches the breaker before the declaration', async () => {
        const sessions = Array.from({ length: 25 }, () => newSession());
        const publish = async (channel: 'session' | 'outcome', session: string, type: 'session.started' | 'session.phase_changed' | 'action.outcome', payload: unknown) => {
          const message: Record<string, unknown> = { ...harness.example(type, session), payload };
          await harness.publishRaw(channel, session, encoder.encode(JSON.stringify(message)), message['id'] as string);
        };
        // Other sessions' lifecycle messages first: the session stream's consumer is busy, the outcome stream's is not.
        await Promise.all(Array.from({ length: 300 }, (_, i) => publish('session', `busy-${sequence}-${i}`, 'session.phase_changed', { phase: 'implementation' })));
        // Each agent declares, then reports an outcome (of a few tokens: the agent's day stays as it was).
        await Promise.all(
          sessions.map(async (session) => {
            await publish('session', session, 'session.started', { context: { goal: 'review the parser' }, phase: 'review' });
            await publish('outcome', session, 'action.outcome', opus('o1', 10));
          }),
        );
        const phases = await Promise.all(sessions.map(async (session) => (await event(session, 'breaker.cost_recorded')).payload['phase']));
        expect(phases).toEqual(sessions.map(() => 'review'));
      });
    });
  },
);
