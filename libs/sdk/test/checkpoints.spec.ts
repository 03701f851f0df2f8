import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointBucket, createMessage, publishSubject, type MessageOf } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, TestNatsServer } from '@warden/testing';
import { WardenClient, type ControlMessage } from '../src/index.js';

let nats: TestNatsServer;
let bus: BusConnection;
let client: WardenClient;
let workdir: string;
const encoder = new TextEncoder();

beforeAll(async () => {
  nats = await TestNatsServer.start({ partitions: 4, agents: ['agent-1', 'agent-2'] });
  bus = await BusConnection.open(nats.service);
  workdir = mkdtempSync(join(tmpdir(), 'warden-sdk-checkpoints-'));
  client = await WardenClient.connect({ servers: nats.url, agentId: 'agent-1', password: nats.agent('agent-1').password, checkpointRoot: workdir });
});

afterAll(async () => {
  await client.close();
  await bus.close();
  await nats.stop();
  rmSync(workdir, { recursive: true, force: true });
});

/** Sends a control message to the session as the intervention controller does. */
async function sendControl(sessionId: string, payload: MessageOf<'control.issued'>['payload']): Promise<void> {
  const control = createMessage('control.issued', { session_id: sessionId, agent_id: 'agent-1', payload });
  await bus.js.publish(publishSubject('control', 'agent-1', sessionId), encoder.encode(JSON.stringify(control)), { msgID: control.id });
}

describe('checkpoints', () => {
  it('says how to get a checkpoint store when Warden has not provisioned one for the agent', async () => {
    await bus.jsm.streams.delete(`OBJ_${checkpointBucket('agent-2')}`);
    const other = await WardenClient.connect({ servers: nats.url, agentId: 'agent-2', password: nats.agent('agent-2').password, checkpointRoot: workdir });
    try {
      await expect(other.session('sess-none').checkpoint([], { id: 'ckpt-none' })).rejects.toThrow(
        'the checkpoint bucket warden_checkpoints_agent-2 is unavailable (object store not found); Warden creates it for each agent it knows: `warden provision --agent <agent id>`',
      );
    } finally {
      await other.close();
    }
  });

  it('snapshots files into the agent object store and reports checkpoint.saved', async () => {
    const session = client.session('sess-ckpt');
    writeFileSync(join(workdir, 'parser.ts'), 'export const ok = true;\n');
    const saved = await BusRecorder.start(bus.nc, 'warden.checkpoint.>');
    const checkpoint = await session.checkpoint(['parser.ts', 'generated.ts'], { id: 'ckpt-1', label: 'green', conversationPosition: 7 });
    expect(checkpoint).toMatchObject({ checkpointId: 'ckpt-1', bucket: checkpointBucket('agent-1'), key: 'sess-ckpt/ckpt-1' });
    const message = await saved.waitFor(() => true);
    expect(message.body.payload).toEqual({
      checkpoint_id: 'ckpt-1',
      label: 'green',
      object_store: { bucket: 'warden_checkpoints_agent-1', key: 'sess-ckpt/ckpt-1' },
      files: [{ path: 'parser.ts', sha256: expect.stringMatching(/^[a-f0-9]{64}$/) }, { path: 'generated.ts', deleted: true }],
      conversation_position: 7,
    });
    saved.stop();
  });

  it('restores files on a rollback order, deletes those the snapshot marks deleted, and acknowledges with the paths', async () => {
    const session = client.session('sess-rollback');
    const parser = join(workdir, 'rollback.ts');
    const stray = join(workdir, 'stray.ts');
    writeFileSync(parser, 'export const good = 1;\n');
    await session.checkpoint(['rollback.ts', 'stray.ts'], { id: 'ckpt-good' });
    // The agent breaks the file and creates one that did not exist at the checkpoint.
    writeFileSync(parser, 'export const good = ;\n');
    writeFileSync(stray, 'oops');
    const seen: ControlMessage[] = [];
    session.onControl((control) => seen.push(control));
    const acks = await BusRecorder.start(bus.nc, 'warden.control_ack.>');
    await sendControl('sess-rollback', { control_id: 'ctl-rb', kind: 'checkpoint_rollback', checkpoint_id: 'ckpt-good', message: 'Rolled back', requires_ack: true });
    const ack = await acks.waitFor(() => true);
    expect(ack.body.payload).toEqual({ control_id: 'ctl-rb', status: 'applied', detail: 'restored checkpoint ckpt-good', restored_files: ['rollback.ts', 'stray.ts'] });
    expect(readFileSync(parser, 'utf8')).toBe('export const good = 1;\n');
    expect(existsSync(stray)).toBe(false);
    await session.settled();
    expect(seen.map((c) => c.payload.control_id)).toEqual(['ctl-rb']);
    acks.stop();
  });

  it('acknowledges a rollback it cannot apply as failed, with the reason', async () => {
    const session = client.session('sess-missing');
    await session.checkpoint([], { id: 'ckpt-exists' });
    const acks = await BusRecorder.start(bus.nc, 'warden.control_ack.>');
    await sendControl('sess-missing', { control_id: 'ctl-missing', kind: 'checkpoint_rollback', checkpoint_id: 'ckpt-nowhere', requires_ack: true });
    const ack = await acks.waitFor(() => true);
    expect(ack.body.payload).toMatchObject({ control_id: 'ctl-missing', status: 'failed' });
    expect(String((ack.body.payload as { detail: string }).detail)).toContain('sess-missing/ckpt-nowhere is not in bucket');
    acks.stop();
  });
});

describe('emergency stop', () => {
  it('aborts the stop signal, waits for the stop hooks, confirms the stop and denies further actions unsent', async () => {
    const session = client.session('sess-stop');
    const order: string[] = [];
    session.stopSignal.addEventListener('abort', () => order.push('signal'));
    session.onStop(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('loop wound down');
    });
    const acks = await BusRecorder.start(bus.nc, 'warden.control_ack.>');
    const actions = await BusRecorder.start(bus.nc, 'warden.action.>');
    await sendControl('sess-stop', { control_id: 'ctl-stop', kind: 'emergency_stop', message: 'Emergency stop: loop', incident_id: 'inc-1', requires_ack: true });
    const ack = await acks.waitFor(() => true);
    order.push('acknowledged');
    expect(ack.body.payload).toEqual({ control_id: 'ctl-stop', status: 'stopped', detail: 'the agent stopped' });
    expect(order).toEqual(['signal', 'loop wound down', 'acknowledged']);
    expect(session.stopped).toBe(true);
    const decision = await session.propose({ tool: 'Bash', input: { command: 'ls' }, actionId: 'after-stop' });
    expect(decision).toMatchObject({ allowed: false, decidedBy: 'stopped' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(actions.messages).toHaveLength(0);
    // An operator resumes the session: a fresh signal, and actions go out again.
    const stoppedSignal = session.stopSignal;
    await sendControl('sess-stop', { control_id: 'ctl-resume', kind: 'resume', message: 'The operator resumed the session.', requires_ack: false });
    const deadline = Date.now() + 5_000;
    while (session.stopped && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(session.stopped).toBe(false);
    expect(stoppedSignal.aborted).toBe(true);
    void session.propose({ tool: 'Bash', input: { command: 'ls' }, actionId: 'after-resume' }, { timeoutMs: 500 });
    await actions.waitFor((m) => (m.body.payload as { action_id: string }).action_id === 'after-resume');
    acks.stop();
    actions.stop();
  });
});
