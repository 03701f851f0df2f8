import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessage, publishSubject, validateMessage, type AnyMessage, type MessageType, type PayloadOf } from '@warden/contracts';
import { describeServiceContract, startInProcess, type ContractHarness } from '@warden/testing';
import { PatternDetectorAppModule } from '../src/app.module.js';
import { loadPatternDetectorConfig } from '../src/config.js';

const encoder = new TextEncoder();
const configDir = mkdtempSync(join(tmpdir(), 'warden-patterns-contract-'));
const configPath = join(configDir, 'patterns.yaml');

// Hallucination in shadow mode, to see a shadow report on the bus; everything else at its default.
writeFileSync(configPath, 'patterns:\n  hallucination:\n    mode: shadow\n');

const serviceEnv = (harness: ContractHarness): NodeJS.ProcessEnv => ({
  NATS_URL: harness.nats.url,
  NATS_USER: harness.nats.service.user,
  NATS_PASSWORD: harness.nats.service.password,
  WARDEN_PARTITIONS: String(harness.nats.partitions),
  WARDEN_HEARTBEAT_MS: '200',
  WARDEN_LEASE_MS: '1000',
  HTTP_PORT: '0',
  PATTERN_DETECTOR_CONFIG: configPath,
});

const CHANNEL: Partial<Record<MessageType, 'session' | 'action' | 'outcome' | 'verdict'>> = {
  'session.started': 'session',
  'session.turn_ended': 'session',
  'action.proposed': 'action',
  'action.outcome': 'outcome',
};

describeServiceContract(
  {
    service: 'pattern-detector',
    createModule: (env, logger) => PatternDetectorAppModule.forRoot(loadPatternDetectorConfig(env), logger),
    prepare: async () => ({ env: { PATTERN_DETECTOR_CONFIG: configPath }, cleanup: async () => rmSync(configDir, { recursive: true, force: true }) }),
  },
  (harness) => {
    let sequence = 0;
    const newSession = () => `pat-${Date.now().toString(36)}-${++sequence}`;

    async function send<T extends 'session.started' | 'session.turn_ended' | 'action.proposed' | 'action.outcome'>(type: T, session: string, payload: PayloadOf<T>): Promise<AnyMessage> {
      const channel = CHANNEL[type]!;
      const before = await harness.processed(channel, type);
      const message = createMessage(type, { session_id: session, agent_id: 'agent-1', payload } as never) as AnyMessage;
      await harness.bus.js.publish(publishSubject(channel, 'agent-1', session), encoder.encode(JSON.stringify(message)), { msgID: message.id });
      await harness.waitProcessed(channel, type, before + 1);
      return message;
    }

    /** One failing test run: the proposal and its outcome, with a line number that changes between runs. */
    async function failingRun(session: string, id: string, line: number): Promise<void> {
      await send('action.proposed', session, { action_id: id, kind: 'tool_use', tool: 'Bash', input: { command: 'npx jest test/cart.test.ts' } });
      await send('action.outcome', session, {
        action_id: id,
        status: 'error',
        error: { message: `TypeError: Cannot read properties of undefined (reading 'price') at src/cart.ts:${line}:12`, class: 'TypeError' },
      });
    }

    const patternsOf = (session: string) =>
      harness.recorder.messages.filter((m) => m.subject.startsWith('warden.pattern.') && m.body.session_id === session).map((m) => m.body as unknown as AnyMessage & { payload: PayloadOf<'pattern.detected'> });

    async function pattern(session: string, where: (p: PayloadOf<'pattern.detected'>) => boolean) {
      const found = await harness.recorder.waitFor((m) => m.subject.startsWith('warden.pattern.') && m.body.session_id === session && where(m.body.payload as PayloadOf<'pattern.detected'>));
      expect(validateMessage(found.body)).toMatchObject({ ok: true });
      return found.body as unknown as AnyMessage & { payload: PayloadOf<'pattern.detected'> };
    }

    describe('patterns over the bus', () => {
      it("holds the words that end a turn (session.turn_ended) against the session: a success its latest check contradicts", async () => {
        const session = newSession();
        await send('session.started', session, { context: { goal: 'Fix the cart total in src/cart.ts', cwd: '/work/cart', expected_paths: ['src/**', 'test/**'] } });
        await failingRun(session, 'run-1', 12);
        await send('session.turn_ended', session, { text: 'Fixed the total. All tests pass now.' });
        const found = await pattern(session, (p) => p.pattern_type === 'hallucination');
        expect(found.payload).toMatchObject({ severity: 'low', evidence_action_ids: ['run-1'] });
        expect(found.payload.description).toContain('tests pass where its latest run of tests failed');
      });

      it('reports repeated failures once per episode, and again only when it gets worse', async () => {
        const session = newSession();
        await send('session.started', session, { context: { goal: 'Fix the cart total in src/cart.ts', cwd: '/work/cart', expected_paths: ['src/**', 'test/**'] } });
        for (let i = 1; i <= 3; i++) await failingRun(session, `run-${i}`, 10 + i);
        const first = await pattern(session, (p) => p.pattern_type === 'repetitive_errors');
        expect(first.payload).toMatchObject({ severity: 'medium', episode: 1, shadow: false, evidence_action_ids: ['run-1', 'run-2', 'run-3'] });
        expect(first.payload.details).toMatchObject({ repetitions: 3, command: 'npx jest test/cart.test.ts', error_class: 'TypeError' });
        await failingRun(session, 'run-4', 14);
        // Still medium: nothing new is published while the episode merely continues.
        expect(patternsOf(session)).toHaveLength(1);
        await failingRun(session, 'run-5', 15);
        const worse = await pattern(session, (p) => p.pattern_type === 'repetitive_errors' && p.severity === 'high');
        expect(worse.payload).toMatchObject({ episode: 1, evidence_action_ids: ['run-1', 'run-2', 'run-3', 'run-4', 'run-5'] });
        expect(worse.causation_id).toBeDefined();
        expect(patternsOf(session)).toHaveLength(2);
      });

      it('publishes a shadow detector\'s pattern marked shadow and counts it by mode', async () => {
        const session = newSession();
        await send('session.started', session, { context: { goal: 'Add token rotation', cwd: '/work/auth' } });
        // Running four tools that are not there: acting on what the agent imagines (failed reads would count half).
        for (const [i, tool] of ['rotate-tokens', 'jwt-rotate', 'tokenctl', 'authctl'].entries()) {
          await send('action.proposed', session, { action_id: `run-${i}`, kind: 'tool_use', tool: 'Bash', input: { command: `${tool} --all` } });
          await send('action.outcome', session, { action_id: `run-${i}`, status: 'error', error: { message: `bash: ${tool}: command not found`, class: 'exit_127' } });
        }
        const shadow = await pattern(session, (p) => p.pattern_type === 'hallucination');
        expect(shadow.payload).toMatchObject({ shadow: true, severity: 'medium', evidence_action_ids: ['run-0', 'run-1', 'run-2', 'run-3'] });
        const metrics = await (await fetch(`${harness.service.url}/metrics`)).text();
        expect(metrics).toMatch(/warden_patterns_detected_total\{[^}]*pattern_type="hallucination",severity="medium",shadow="true"[^}]*\} 1$/m);
        expect(metrics).toMatch(/warden_pattern_detector_evaluation_seconds_count\{[^}]*event="outcome"[^}]*\} [1-9]\d*$/m);
      });

      it('keeps a session across a restart: the pattern fires with evidence from both halves', async () => {
        const session = newSession();
        await send('session.started', session, { context: { goal: 'Fix the cart total in src/cart.ts', cwd: '/work/cart' } });
        await failingRun(session, 'before-1', 21);
        await failingRun(session, 'before-2', 22);
        expect(patternsOf(session)).toEqual([]);

        await harness.service.close();
        harness.service = await startInProcess('pattern-detector', (logger) => PatternDetectorAppModule.forRoot(loadPatternDetectorConfig(serviceEnv(harness)), logger));

        await failingRun(session, 'after-1', 23);
        const found = await pattern(session, (p) => p.pattern_type === 'repetitive_errors');
        expect(found.payload).toMatchObject({ severity: 'medium', episode: 1, evidence_action_ids: ['before-1', 'before-2', 'after-1'] });
      });

      it('judges scope by the declaration whichever stream reaches the detector first', async () => {
        const sessions = Array.from({ length: 25 }, () => newSession());
        const publish = async (channel: 'session' | 'action' | 'outcome', session: string, type: 'session.started' | 'session.phase_changed' | 'action.proposed' | 'action.outcome', payload: unknown) => {
          const message = createMessage(type, { session_id: session, agent_id: 'agent-1', payload } as never) as AnyMessage;
          await harness.bus.js.publish(publishSubject(channel, 'agent-1', session), encoder.encode(JSON.stringify(message)), { msgID: message.id });
        };
        // Other sessions' lifecycle messages first: the session stream's consumer is busy, the action stream's is not.
        await Promise.all(Array.from({ length: 300 }, (_, i) => publish('session', `busy-${sequence}-${i}`, 'session.phase_changed', { phase: 'implementation' })));
        // Each agent declares its project, then at once reads outside it (scope is judged on what has run).
        await Promise.all(
          sessions.map(async (session) => {
            await publish('session', session, 'session.started', { context: { goal: 'Fix the cart total in src/cart.ts', cwd: '/work/cart', expected_paths: ['/work/cart/src/**'] } });
            await publish('action', session, 'action.proposed', { action_id: 'read-1', kind: 'tool_use', tool: 'Read', input: { file_path: '/home/dev/projects/other/README.md' } });
            await publish('outcome', session, 'action.outcome', { action_id: 'read-1', status: 'success' });
          }),
        );
        const found = await Promise.all(sessions.map((session) => pattern(session, (p) => p.pattern_type === 'scope_creep')));
        expect(found.map((f) => f.payload.evidence_action_ids)).toEqual(sessions.map(() => ['read-1']));
      });
    });
  },
);
