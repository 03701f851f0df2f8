import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessage, publishSubject, type PayloadOf } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, eventually, startInProcess, TestNatsServer, type InProcessService } from '@warden/testing';
import { InterventionControllerAppModule } from '../src/app.module.js';
import { loadInterventionControllerConfig } from '../src/config.js';

/**
 * What the controller knows of a session outlives the controller: history, cooldown and checkpoints
 * are in its KV record, so a new instance escalates where the old one stopped.
 */
describe('intervention controller restart', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let service: InProcessService | undefined;
  const configDir = mkdtempSync(join(tmpdir(), 'warden-ic-restart-'));
  const configPath = join(configDir, 'interventions.yaml');
  writeFileSync(configPath, 'interventions:\n  intervention_cooldown_seconds: 2\n');

  const start = async () => {
    const env = {
      NATS_URL: nats.url,
      NATS_USER: nats.service.user,
      NATS_PASSWORD: nats.service.password,
      WARDEN_PARTITIONS: String(nats.partitions),
      WARDEN_HEARTBEAT_MS: '200',
      WARDEN_LEASE_MS: '1000',
      HTTP_PORT: '0',
      INTERVENTIONS_CONFIG: configPath,
    };
    service = await startInProcess('intervention-controller', (logger) => InterventionControllerAppModule.forRoot(loadInterventionControllerConfig(env), logger));
  };

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2 });
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.>');
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    recorder?.stop();
    await bus?.close();
    await nats?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  async function publish<T extends 'pattern.detected' | 'checkpoint.saved'>(type: T, channel: 'pattern' | 'checkpoint', session: string, payload: PayloadOf<T>): Promise<void> {
    const message = createMessage(type, { agent_id: 'agent-1', session_id: session, payload } as never);
    await bus.js.publish(publishSubject(channel, 'agent-1', session), JSON.stringify(message), { msgID: (message as { id: string }).id });
  }

  const pattern = (n: number): PayloadOf<'pattern.detected'> => ({
    pattern_id: `p${n}`,
    pattern_type: 'goal_drift',
    severity: 'low',
    confidence: 0.5,
    impact_factor: 0,
    description: 'The agent is refactoring the logger instead of fixing the parser',
    evidence_action_ids: [],
    details: {},
    episode: n,
    shadow: false,
  });

  const issued = (session: string) =>
    recorder.messages.filter((m) => m.body.type === 'intervention.issued' && m.body.session_id === session).map((m) => m.body.payload as Record<string, unknown>);

  it('escalates after a restart from the stored history, and keeps the cooldown', async () => {
    const session = 'restart-1';
    await start();
    await publish('pattern.detected', 'pattern', session, pattern(1));
    await recorder.waitFor((m) => m.body.type === 'intervention.issued' && m.body.session_id === session, 15_000);
    expect(issued(session)).toEqual([expect.objectContaining({ intervention_type: 'soft_correction', escalation_level: 0 })]);

    await service!.close();
    service = undefined;
    // Within the 2 s cooldown: the new instance holds back the next step, which it can know only from the record.
    await start();
    await publish('pattern.detected', 'pattern', session, pattern(2));
    const evaluated = await recorder.waitFor((m) => m.body.type === 'intervention.evaluated' && m.body.session_id === session, 15_000);
    expect(evaluated.body.payload).toMatchObject({ outcome: 'ineffective', next_step: 'escalate' });
    // Counted once the record is stored and the evaluation published: the recorder can see the message first.
    const suppressed = /^warden_interventions_total\{[^}]*intervention_type="context_reinforcement",outcome="suppressed_cooldown"[^}]*\} 1$/m;
    const text = await eventually('the suppression counted', async () => (await fetch(`${service!.url}/metrics`)).text(), (t) => suppressed.test(t), { timeoutMs: 15_000 });
    expect(text).toMatch(suppressed);
    expect(issued(session)).toHaveLength(1);

    // After the cooldown: the escalated step, with the stored soft correction as its predecessor.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await publish('pattern.detected', 'pattern', session, pattern(3));
    await recorder.waitForCount(2, 15_000, (m) => m.body.type === 'intervention.issued' && m.body.session_id === session);
    expect(issued(session)[1]).toMatchObject({ intervention_type: 'context_reinforcement', escalation_level: 1, previous_intervention_type: 'soft_correction' });
  }, 60_000);
});
