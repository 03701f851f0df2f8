import { Kvm } from '@nats-io/kv';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BREAKER_LEDGER_BUCKET, createMessage, publishSubject, type PayloadOf } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually } from '@warden/testing';
import { WardenClient, type AgentSession, type ControlMessage } from '@warden/sdk';
import { DecisionPath, FAST_LEASES, PARTITIONS } from './path-fixture.js';

const configDir = mkdtempSync(join(tmpdir(), 'warden-intervention-scenario-'));
const configPath = join(configDir, 'interventions.yaml');
// No cooldown, so that each report of the pattern gets its intervention; an escalation weight of 0.2 so
// that a persisting low-scored issue climbs the ladder one step at a time.
// The seed's escalation: a persisting issue of any severity may end in an emergency stop.
writeFileSync(configPath, 'interventions:\n  intervention_cooldown_seconds: 0\n  emergency_stop:\n    min_severity: low\n  strategy:\n    escalation_weight: 0.2\n');

const GOOD = 'export function parseDate(text: string): Date {\n  return new Date(text);\n}\n';
const BROKEN = 'export function parseDate(text: string): Date {\n  return new Date(text;\n}\n';

/**
 * Interventions end to end, every service a real process on a real nats-server and the agent on the
 * SDK: a repeated error draws a soft correction; as it persists the interventions climb, step by step,
 * to context reinforcement, a throttle the breaker enforces, a rollback that restores the broken file
 * on disk (after a restart of the controller, which carries on from its stored record), and an
 * emergency stop that pauses the session at the gate and that the agent confirms, until an operator
 * approves at the gate and the agent is told to resume.
 */
describe('an agent that keeps failing the same way', () => {
  let path: DecisionPath;
  let breaker: ServiceProcess;
  let controller: ServiceProcess;
  let observer: BusConnection;
  let recorder: BusRecorder;
  let client: WardenClient | undefined;
  const workdir = mkdtempSync(join(tmpdir(), 'warden-intervention-agent-'));

  // The seed's breakers: no check for the same action failing the same way in a row (Warden's default holds
  // back the sixth identical failure, before the controller's ladder would reach its top).
  const breakerConfig = join(configDir, 'breakers.yaml');
  writeFileSync(breakerConfig, 'breakers:\n  iteration:\n    repeated_failures: 0\n');
  const startController = () =>
    ServiceProcess.start({ app: 'intervention-controller', nats: path.nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, INTERVENTIONS_CONFIG: configPath } });

  beforeAll(async () => {
    path = await DecisionPath.start(1);
    breaker = await ServiceProcess.start({ app: 'breaker', nats: path.nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, BREAKER_CONFIG: breakerConfig } });
    controller = await startController();
    observer = await BusConnection.open(path.nats.service);
    recorder = await BusRecorder.start(observer.nc, 'warden.>');
  });

  afterAll(async () => {
    await client?.close();
    recorder?.stop();
    await observer?.close();
    await controller?.stop();
    await breaker?.stop();
    await path?.stop();
    rmSync(configDir, { recursive: true, force: true });
    rmSync(workdir, { recursive: true, force: true });
  });

  it('is corrected, reinforced, throttled, rolled back, stopped, and resumes once an operator approves', async () => {
    client = await WardenClient.connect({ servers: path.nats.url, agentId: 'agent-1', password: path.nats.agent('agent-1').password, decisionTimeoutMs: 30_000, checkpointRoot: workdir });
    const session = client.session(`spiral-${Date.now().toString(36)}`);
    const sessionId = session.sessionId;
    const controls: ControlMessage[] = [];
    session.onControl((control) => controls.push(control));
    let loopStopped = false;
    session.onStop(() => {
      loopStopped = true;
    });

    await session.start({
      context: { goal: 'Fix the date parser', expected_paths: [`${workdir}/**`], constraints: ['Keep the public API of parseDate'], cwd: workdir },
      phase: 'implementation',
    });
    mkdirSync(join(workdir, 'src'));
    const parser = join(workdir, 'src/parser.ts');
    const scratch = join(workdir, 'src/scratch.ts');
    await act(session, 'write-good', 'success', () => writeFileSync(parser, GOOD));
    await session.checkpoint(['src/parser.ts', 'src/scratch.ts'], { id: 'ckpt-green', label: 'parser compiles', conversationPosition: 4 });

    // The agent breaks the parser, leaves a scratch file behind, and the tests fail the same way.
    await act(session, 'break-parser', 'success', () => {
      writeFileSync(parser, BROKEN);
      writeFileSync(scratch, 'debugging');
    });
    await act(session, 'test-1', 'error');
    await act(session, 'test-2', 'error');

    let episode = 0;
    const report = () => publishPattern(sessionId, ++episode, ['break-parser', 'test-1', 'test-2']);

    await report();
    const soft = await nextControl(controls, 'soft_correction');
    expect(soft.payload.message).toContain('different approach');
    await session.acknowledge(soft, 'applied');

    await act(session, 'test-3', 'error');
    await report();
    const reinforcement = await nextControl(controls, 'context_reinforcement');
    expect(reinforcement.payload.message).toContain('**Original Request**: Fix the date parser');
    await session.acknowledge(reinforcement, 'applied');

    await act(session, 'test-4', 'error');
    await report();
    const throttle = await nextControl(controls, 'resource_throttling');
    expect(throttle.payload.limits?.max_iterations).toBeLessThan(50);
    await session.acknowledge(throttle, 'applied');
    // Enforced, not only announced: the breaker's ledger for the session carries the tighter limits.
    const ledger = await eventually('the throttle in the breaker ledger', async () => {
      const entry = await (await new Kvm(observer.nc).open(BREAKER_LEDGER_BUCKET)).get(`session.agent-1.${sessionId}`);
      return entry && entry.operation === 'PUT' ? entry.json<{ throttle?: { iterations: number; cost: number } }>().throttle : undefined;
    });
    expect(ledger.iterations).toBeLessThan(1);

    // The controller restarts: what it knows of the session (history, checkpoint) comes from its store.
    await controller.kill();
    controller = await startController();

    await act(session, 'test-5', 'error');
    await report();
    const rollback = await nextControl(controls, 'checkpoint_rollback');
    expect(rollback.payload).toMatchObject({ checkpoint_id: 'ckpt-green', conversation_position: 4 });
    const restored = await recorder.waitFor((m) => m.body.type === 'control.acknowledged' && (m.body.payload as { control_id: string }).control_id === rollback.payload.control_id, 30_000);
    expect(restored.body.payload).toMatchObject({ status: 'applied', restored_files: ['src/parser.ts', 'src/scratch.ts'] });
    expect(readFileSync(parser, 'utf8')).toBe(GOOD);
    expect(existsSync(scratch)).toBe(false);

    await act(session, 'test-6', 'error');
    await report();
    const stop = await nextControl(controls, 'emergency_stop');
    expect(session.stopped).toBe(true);
    expect(loopStopped).toBe(true);
    const incident = await recorder.waitFor((m) => m.body.type === 'incident.created' && m.body.session_id === sessionId);
    expect(stop.payload.incident_id).toBe((incident.body.payload as { incident_id: string }).incident_id);
    expect((incident.body.payload as { recovery_options: string[] }).recovery_options.length).toBeGreaterThan(0);
    const paused = await recorder.waitFor((m) => m.body.type === 'hitl.paused' && m.body.session_id === sessionId, 30_000);
    expect(paused.body.payload).toMatchObject({ operator_id: 'intervention-controller' });
    const stopped = await recorder.waitFor((m) => m.body.type === 'control.acknowledged' && (m.body.payload as { control_id: string }).control_id === stop.payload.control_id, 30_000);
    expect(stopped.body.payload).toMatchObject({ status: 'stopped' });

    // The whole ladder, in order, each step one above the last.
    const ladder = recorder.messages
      .filter((m) => m.body.type === 'intervention.issued' && m.body.session_id === sessionId)
      .map((m) => (m.body.payload as { intervention_type: string }).intervention_type);
    expect(ladder).toEqual(['soft_correction', 'context_reinforcement', 'resource_throttling', 'checkpoint_rollback', 'emergency_stop']);
    // The controller heard the agent stop.
    await eventually('the stop confirmation in the controller metrics', async () => {
      const text = await (await fetch(`${controller.url}/metrics`)).text();
      return /^warden_interventions_total\{[^}]*intervention_type="emergency_stop",outcome="stopped"[^}]*\} 1$/m.test(text);
    });

    // Stopped means stopped: the agent sends nothing until an operator has looked at the incident.
    expect(await session.propose({ actionId: 'while-stopped', tool: 'Bash', input: { command: 'npm test' } })).toMatchObject({ allowed: false, decidedBy: 'stopped' });
    // An operator approves the stop's pause at the gate: the agent is told to resume and may act again.
    const unpause = createMessage('gate.command', { agent_id: 'agent-1', session_id: sessionId, payload: { command_type: 'hitl_unpause', operator_id: 'alice', reason: 'parser fixed by hand' } });
    await observer.js.publish(publishSubject('gate_command', 'agent-1', sessionId), JSON.stringify(unpause), { msgID: unpause.id });
    const resume = await nextControl(controls, 'resume');
    expect(resume.payload.message).toContain('alice');
    await eventually('the session to resume', () => !session.stopped);
    await act(session, 'after-resume', 'success');
  });

  /** Proposes an action; when allowed, runs `effect` and reports the outcome. */
  async function act(session: AgentSession, actionId: string, status: 'success' | 'error', effect: () => void = () => undefined): Promise<void> {
    const decision = await session.propose({ actionId, tool: 'Bash', input: { command: 'npm test -- parser' } });
    // A denial fails with its reason.
    expect(decision.allowed ? 'allowed' : `${actionId} denied: ${decision.reason}`).toBe('allowed');
    effect();
    await session.report({ actionId, status, ...(status === 'error' ? { error: { message: "src/parser.ts(2,25): error TS1005: ')' expected.", class: 'TS1005' } } : {}) });
  }

  /** Publishes a repetitive_errors pattern for the session, as the pattern detector would. */
  async function publishPattern(sessionId: string, episode: number, evidence: string[]): Promise<void> {
    const payload: PayloadOf<'pattern.detected'> = {
      pattern_id: `pat-${episode}`,
      pattern_type: 'repetitive_errors',
      severity: 'low',
      confidence: 0.25,
      impact_factor: 0,
      description: "npm test keeps failing with TS1005: ')' expected in src/parser.ts",
      evidence_action_ids: evidence,
      details: { file_path: 'src/parser.ts', error_class: 'TS1005', count: evidence.length + episode },
      episode,
      shadow: false,
    };
    const message = createMessage('pattern.detected', { agent_id: 'agent-1', session_id: sessionId, payload });
    await observer.js.publish(publishSubject('pattern', 'agent-1', sessionId), JSON.stringify(message), { msgID: message.id });
  }
});

/** The first control message of a kind the agent received (waiting for it). */
async function nextControl(controls: ControlMessage[], kind: ControlMessage['payload']['kind']): Promise<ControlMessage> {
  return eventually(`a ${kind} control message`, () => controls.find((c) => c.payload.kind === kind));
}

