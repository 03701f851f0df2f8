import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessage, EXAMPLE_PAYLOADS, GATE_BUFFER_STREAM, gateBufferSubject, newMessageId, publishSubject, type PayloadOf } from '@warden/contracts';
import { ServiceProcess, WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import type { ActionDecision } from '@warden/sdk';
import { BusRecorder, eventually, operatorHeaders, operatorToken, TestNatsServer } from '@warden/testing';
import { DecisionPath, FAST_LEASES, PARTITIONS } from './path-fixture.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The built gate, made to kill itself in the middle of a flush (the fault lives in this test entry only). */
const KILLED_MID_FLUSH = join(WORKSPACE_ROOT, 'apps/gate/test/faults/killed-mid-flush.mjs');

/** The approver's API token, created in the nats-server of each test (see operatorToken). */
let token = '';

async function command(gate: ServiceProcess, session: string, name: string, fields: Record<string, unknown> = {}) {
  const response = await fetch(`${gate.url}/gateway/sessions/${session}/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...operatorHeaders(token, 'operator-xander') },
    body: JSON.stringify({ agent_id: 'agent-1', timestamp: new Date().toISOString(), ...fields }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function buffered(gate: ServiceProcess, session: string): Promise<number> {
  const response = await fetch(`${gate.url}/gateway/sessions/${session}?agent_id=agent-1`, { headers: operatorHeaders(token, 'operator-xander') });
  return ((await response.json()) as { messages: unknown[] }).messages.length;
}

/** The decisions JetStream stored for a session, in stored order. */
async function storedDecisions(bus: BusConnection, session: string): Promise<string[]> {
  const subject = `warden.decision.*.agent-1.${session}`;
  const info = await bus.jsm.streams.info('WARDEN_DECISION', { subjects_filter: subject });
  const total = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  if (!total) return [];
  const consumer = await bus.js.consumers.get('WARDEN_DECISION', { filter_subjects: subject });
  const ids: string[] = [];
  for await (const message of await consumer.consume()) {
    ids.push((JSON.parse(decoder.decode(message.data)) as { payload: { action_id: string } }).payload.action_id);
    if (message.info.pending === 0) break;
  }
  await consumer.delete().catch(() => undefined);
  return ids;
}

/**
 * The gate's buffer is durable: killing the gate (SIGKILL, no cleanup) while a session is paused loses
 * nothing, and neither does killing it in the middle of a flush; the restarted gate flushes every
 * held decision once, in order.
 */
describe('killing the gate', () => {
  it('while a session is paused: a new gate flushes every buffered decision, in order, on unpause', async () => {
    const path = await DecisionPath.start(1);
    const setup = await BusConnection.open(path.nats.service);
    token = await operatorToken(setup.nc, 'operator-xander', 'approver');
    await setup.close();
    let restarted: ServiceProcess | undefined;
    const client = await path.agent(120_000);
    try {
      const session = client.session(`paused-${newMessageId().slice(0, 8)}`);
      const proposals: { actionId: string; decision: Promise<ActionDecision> }[] = [];
      // The first action asks for a human: the session pauses with it first in the buffer.
      proposals.push({ actionId: 'held-0', decision: session.propose({ tool: 'Read', input: { file_path: '/work/app/a.ts' }, actionId: 'held-0' }, { hitlRequired: true }) });
      for (let i = 1; i < 6; i++) {
        proposals.push({ actionId: `held-${i}`, decision: session.propose({ tool: 'Read', input: { file_path: `/work/app/f${i}.ts` }, actionId: `held-${i}` }) });
      }
      await eventually('six buffered decisions', async () => (await buffered(path.gate!, session.sessionId)) === 6, { timeoutMs: 60_000 });

      await path.gate!.kill();
      restarted = await ServiceProcess.start({ app: 'gate', nats: path.nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, WARDEN_REPLICA_ID: 'gate-restarted' } });
      expect(await buffered(restarted, session.sessionId)).toBe(6);

      // The restarted gate takes the partitions over once the dead one's lease expires; the command waits for it.
      expect(await command(restarted, session.sessionId, 'unpause')).toEqual({ status: 200, body: { status: 'ok' } });
      const decisions = await Promise.all(proposals.map((p) => p.decision));
      expect(decisions.map((d) => [d.actionId, d.allowed])).toEqual(proposals.map((p) => [p.actionId, true]));
      expect(decisions[0]).toMatchObject({ decidedBy: 'operator' });
      const bus = await BusConnection.open(path.nats.service);
      try {
        expect(await storedDecisions(bus, session.sessionId)).toEqual(proposals.map((p) => p.actionId));
      } finally {
        await bus.close();
      }
    } finally {
      await client.close();
      await restarted?.stop();
      await path.stop();
    }
  });

  it('in the middle of a flush: the restarted gate finishes it with no decision lost or stored twice', async () => {
    const nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    const bus = await BusConnection.open(nats.service);
    token = await operatorToken(bus.nc, 'operator-xander', 'approver');
    const recorder = await BusRecorder.start(bus.nc, 'warden.>');
    const total = 1500;
    const killAt = 600;
    let gate = await ServiceProcess.start({
      app: 'gate',
      script: KILLED_MID_FLUSH,
      nats: nats.service,
      partitions: PARTITIONS,
      env: { ...FAST_LEASES, WARDEN_REPLICA_ID: 'gate-faulty', KILL_AFTER_FLUSHED: String(killAt) },
    });
    try {
      const session = `flush-${newMessageId().slice(0, 8)}`;
      expect((await command(gate, session, 'pause', { reason: 'Hold everything' })).status).toBe(200);
      const actions = Array.from({ length: total }, (_, i) => `a-${String(i).padStart(4, '0')}`);
      await Promise.all(
        actions.map((actionId) => {
          const verdict = createMessage('review.verdict', {
            session_id: session,
            agent_id: 'agent-1',
            payload: {
              ...EXAMPLE_PAYLOADS['review.verdict'],
              action_id: actionId,
              verdict: 'allow',
              reasons: ['Read: no concerns'],
              risk: { score: 0.1, severity: 'low', factors: ['file_read'] },
              action: { kind: 'tool_use', tool: 'Read', input: { file_path: `/work/app/${actionId}.ts` } },
            } as PayloadOf<'review.verdict'>,
          });
          return bus.js.publish(publishSubject('verdict', 'agent-1', session), encoder.encode(JSON.stringify(verdict)), { msgID: verdict.id });
        }),
      );
      const subject = gateBufferSubject('agent-1', session);
      await eventually('the full buffer', async () => ((await bus.jsm.streams.info(GATE_BUFFER_STREAM, { subjects_filter: subject })).state.subjects?.[subject] ?? 0) === total, { timeoutMs: 60_000 });

      // The gate of the test entry kills itself after publishing `killAt` decisions of the flush.
      await command(gate, session, 'unpause').catch(() => undefined);
      await gate.whenExited();
      expect(gate.logs).toContain('KILL_AFTER_FLUSHED reached');
      const beforeCrash = await storedDecisions(bus, session);
      expect(beforeCrash).toEqual(actions.slice(0, killAt));

      gate = await ServiceProcess.start({ app: 'gate', nats: nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, WARDEN_REPLICA_ID: 'gate-restarted' } });
      await recorder.waitFor((m) => m.body.type === 'hitl.resumed' && m.body.session_id === session, 90_000);
      const restarted = gate;
      await eventually('the log line of the resumed flush', () => restarted.logs.includes('resuming an interrupted flush'), { timeoutMs: 60_000 });
      const stored = await storedDecisions(bus, session);
      expect(stored).toHaveLength(total);
      expect(stored).toEqual(actions);
      expect((await bus.jsm.streams.info(GATE_BUFFER_STREAM, { subjects_filter: subject })).state.subjects?.[subject] ?? 0).toBe(0);
      const resumed = recorder.messages.filter((m) => m.body.type === 'hitl.resumed' && m.body.session_id === session);
      expect(resumed[0]!.body.payload).toMatchObject({ flushed: total });
    } finally {
      await gate.stop();
      recorder.stop();
      await bus.close();
      await nats.stop();
    }
  });

  it('while a gate request is pending: the restarted gate still escalates it on time and denies it at its final deadline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gate-crash-config-'));
    const config = join(dir, 'gates.yaml');
    writeFileSync(config, ['gates:', '  - id: publish', '    prompt: Publishing needs an approval.', '    when: { path: action.input.command, matches: "^npm publish" }', '    timeout_ms: 4000', '    escalation: release_manager'].join('\n'));
    const nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    const bus = await BusConnection.open(nats.service);
    token = await operatorToken(bus.nc, 'operator-xander', 'approver');
    const recorder = await BusRecorder.start(bus.nc, 'warden.>');
    const env = { ...FAST_LEASES, GATE_CONFIG: config };
    let gate = await ServiceProcess.start({ app: 'gate', nats: nats.service, partitions: PARTITIONS, env: { ...env, WARDEN_REPLICA_ID: 'gate-first' } });
    try {
      const session = `timeout-${newMessageId().slice(0, 8)}`;
      const verdict = createMessage('review.verdict', {
        session_id: session,
        agent_id: 'agent-1',
        payload: {
          ...EXAMPLE_PAYLOADS['review.verdict'],
          action_id: 'publish-1',
          verdict: 'allow',
          reasons: ['Command with medium risk'],
          risk: { score: 0.4, severity: 'medium', factors: ['command'] },
          action: { kind: 'tool_use', tool: 'Bash', input: { command: 'npm publish' } },
        } as PayloadOf<'review.verdict'>,
      });
      await bus.js.publish(publishSubject('verdict', 'agent-1', session), encoder.encode(JSON.stringify(verdict)), { msgID: verdict.id });
      await recorder.waitFor((m) => m.body.type === 'gate.requested' && m.body.session_id === session, 30_000);
      await gate.kill();
      gate = await ServiceProcess.start({ app: 'gate', nats: nats.service, partitions: PARTITIONS, env: { ...env, WARDEN_REPLICA_ID: 'gate-second' } });
      const decision = await recorder.waitFor((m) => m.body.type === 'decision.made' && m.body.session_id === session, 60_000);
      expect(decision.body.payload).toMatchObject({ action_id: 'publish-1', decision: 'deny', decided_by: 'gate_timeout' });
      const escalated = recorder.messages.filter((m) => m.body.type === 'gate.escalated' && m.body.session_id === session);
      expect(escalated.map((m) => m.body.payload)).toEqual([expect.objectContaining({ gate_id: 'publish', escalation: 'release_manager', reason: 'TIMEOUT' })]);
      expect(await storedDecisions(bus, session)).toEqual(['publish-1']);
    } finally {
      await gate.stop();
      recorder.stop();
      await bus.close();
      await nats.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
