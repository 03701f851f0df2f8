import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newMessageId, partitionOf } from '@warden/contracts';
import { eventually } from '@warden/testing';
import { GateFixture } from './gate-fixture.js';

/** A session whose partition the given replica owns. */
function ownedBy(f: GateFixture, replica: number): string {
  for (;;) {
    const session = `r-${newMessageId().slice(0, 8)}`;
    if (f.gates[replica]!.transport.ownedPartitions().includes(partitionOf(session, f.nats.partitions))) return session;
  }
}

/**
 * Two gate replicas share the partitions: a command given to either reaches the replica that owns the
 * session, and a paused session moves with its partition when its owner stops.
 */
describe('gate replicas', () => {
  let f: GateFixture;

  beforeAll(async () => {
    f = await GateFixture.start({}, 2);
    await eventually('both replicas to own partitions', () => f.gates.every((g) => g.transport.ownedPartitions().length > 0));
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  const sessionOwnedBy = (replica: number) => ownedBy(f, replica);

  it('applies a command sent to the replica that does not own the session and answers with the owner\'s outcome', async () => {
    const session = sessionOwnedBy(0);
    expect(await f.command(session, 'pause', {}, 1)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await f.command(session, 'pause', {}, 1)).toEqual({ status: 200, body: { status: 'ok', note: 'already_paused' } });
    const held = await f.verdict(session);
    await f.waitBuffered(session, 1);
    expect((await f.command(session, 'rewrite', { original_trace_id: 'nope', new_content: '{}' }, 1)).body).toEqual({
      status: 'error',
      reason: 'trace_id_not_found_in_buffer',
    });
    // Either replica shows the same state: it is read from the stores.
    expect((await f.http('GET', `/gateway/sessions/${session}`, { replica: 1 })).body.messages).toHaveLength(1);
    expect(await f.command(session, 'unpause', {}, 1)).toEqual({ status: 200, body: { status: 'ok' } });
    await f.waitDecision(session, held.payload.action_id);
  });

  it('hands a paused session with its buffer to the other replica when the owner stops', async () => {
    const session = sessionOwnedBy(0);
    await f.command(session, 'pause', {}, 0);
    const held = [await f.verdict(session), await f.verdict(session), await f.verdict(session)];
    await f.waitBuffered(session, 3);
    await f.gates[0]!.close();
    f.reader = 1;
    const partition = partitionOf(session, f.nats.partitions);
    await eventually('the other replica to take the partition over', () => f.gates[1]!.transport.ownedPartitions().includes(partition));
    const more = await f.verdict(session);
    await f.waitBuffered(session, 4);
    expect(f.on('decision', session)).toHaveLength(0);
    expect(await f.command(session, 'unpause', {}, 1)).toEqual({ status: 200, body: { status: 'ok' } });
    await f.waitDecision(session, more.payload.action_id);
    expect(f.on('decision', session).map((m) => (m.body.payload as { action_id: string }).action_id)).toEqual([...held, more].map((v) => v.payload.action_id));
  });
});

/** A gate request's timeout lives with its session: the replica that takes the partition over arms it again. */
describe('gate replicas and a pending request', () => {
  let f: GateFixture;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gate-replicas-'));
    const config = join(dir, 'gates.yaml');
    writeFileSync(config, ['gates:', '  - id: quick_deny', '    prompt: Publishing needs an answer soon.', '    when: { path: action.input.command, matches: "^npm publish" }', '    timeout_ms: 4000'].join('\n'));
    f = await GateFixture.start({ GATE_CONFIG: config }, 2);
    await eventually('both replicas to own partitions', () => f.gates.every((g) => g.transport.ownedPartitions().length > 0));
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('times the request out at the replica that took the session over when its owner stopped, once', async () => {
    const session = ownedBy(f, 0);
    const verdict = await f.verdict(session, { action: { kind: 'tool_use', tool: 'Bash', input: { command: 'npm publish' } }, reasons: ['Command with medium risk'] });
    await f.waitOn('gate', session, 'gate.requested');
    await f.gates[0]!.close();
    const decision = await f.waitDecision(session, verdict.payload.action_id, 20_000);
    expect(decision.payload).toMatchObject({ decision: 'deny', decided_by: 'gate_timeout' });
    expect(f.gates[1]!.transport.ownedPartitions()).toContain(partitionOf(session, f.nats.partitions));
    expect(f.on('gate', session, 'gate.escalated')).toHaveLength(1);
    expect(f.on('decision', session)).toHaveLength(1);
  }, 30_000);
});
