import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually } from '@warden/testing';
import type { AgentSession, ControlMessage, WardenClient } from '@warden/sdk';
import { DecisionPath, FAST_LEASES, PARTITIONS } from './path-fixture.js';

interface Pattern {
  pattern_id: string;
  pattern_type: string;
  severity: string;
  evidence_action_ids: string[];
  shadow: boolean;
}

interface Intervention {
  intervention_type: string;
  control_id?: string;
  trigger: { kind: string; message_id: string; issue_type: string };
}

/**
 * The supervision loop with nothing stubbed: an agent on the SDK keeps running the same failing test;
 * the real pattern detector sees it in the session's outcomes and reports repeated errors with the
 * agent's own actions as evidence; the real intervention controller answers that report with a control
 * message that reaches the agent and speaks of its declared goal. Every service is a process on a real
 * nats-server, with its default configuration.
 */
describe('the supervision loop', () => {
  let path: DecisionPath;
  let detector: ServiceProcess;
  let controller: ServiceProcess;
  let observer: BusConnection;
  let recorder: BusRecorder;
  let client: WardenClient | undefined;

  beforeAll(async () => {
    path = await DecisionPath.start(1);
    detector = await ServiceProcess.start({ app: 'pattern-detector', nats: path.nats.service, partitions: PARTITIONS, env: FAST_LEASES });
    controller = await ServiceProcess.start({ app: 'intervention-controller', nats: path.nats.service, partitions: PARTITIONS, env: FAST_LEASES });
    observer = await BusConnection.open(path.nats.service);
    recorder = await BusRecorder.start(observer.nc, 'warden.>');
  });

  afterAll(async () => {
    await client?.close();
    recorder?.stop();
    await observer?.close();
    await controller?.stop();
    await detector?.stop();
    await path?.stop();
  });

  it('turns an agent repeating a failing test into a pattern, an intervention and a message the agent receives', async () => {
    client = await path.agent(30_000);
    const session = client.session(`loop-${Date.now().toString(36)}`);
    const controls: ControlMessage[] = [];
    session.onControl((control) => controls.push(control));
    await session.start({
      context: { goal: 'Fix the date parser in src/parser.ts', expected_paths: ['/work/app/**'], cwd: '/work/app' },
      phase: 'implementation',
    });

    await act(session, 'read-parser', 'Read', { file_path: '/work/app/src/parser.ts' }, 'success');
    const failures = ['test-1', 'test-2', 'test-3'];
    for (const id of failures) await act(session, id, 'Bash', { command: 'npm test -- parser' }, 'error');

    const pattern = await recorder.waitFor(
      (m) => m.body.type === 'pattern.detected' && m.body.session_id === session.sessionId && (m.body.payload as Pattern).pattern_type === 'repetitive_errors',
      30_000,
    );
    const reported = pattern.body.payload as Pattern;
    expect(reported).toMatchObject({ severity: 'medium', shadow: false });
    expect(reported.evidence_action_ids).toEqual(failures);

    const issued = await recorder.waitFor(
      (m) => m.body.type === 'intervention.issued' && m.body.session_id === session.sessionId && (m.body.payload as Intervention).trigger.kind === 'pattern',
      30_000,
    );
    const intervention = issued.body.payload as Intervention;
    expect(intervention.trigger).toMatchObject({ message_id: pattern.body.id, issue_type: 'repetitive_errors' });

    const received = await eventually('the control message at the agent', () => controls.find((c) => c.payload.control_id === intervention.control_id));
    expect(received.payload.kind).toBe(intervention.intervention_type);
    expect(received.payload.message).toContain('Fix the date parser');
  });

  /** Proposes an action; when allowed, reports its outcome as the agent would after running it. */
  async function act(session: AgentSession, actionId: string, tool: string, input: Record<string, unknown>, status: 'success' | 'error'): Promise<void> {
    const decision = await session.propose({ actionId, tool, input });
    expect(decision).toMatchObject({ allowed: true });
    await session.report({
      actionId,
      tool,
      status,
      durationMs: 1200,
      ...(status === 'error' ? { error: { message: "src/parser.ts(2,25): error TS1005: ')' expected.", class: 'TS1005' } } : {}),
    });
  }
});

