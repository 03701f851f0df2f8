import { Controller, Module } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { createMessage, partitionOf, type MessageOf } from '@warden/contracts';
import { BusConnection, RejectMessageError, TransientError, type MessageReceipt } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import { ObservabilityModule } from '@warden/observability-nest';
import { BusRecorder, eventually, startInProcess, TestNatsServer, type InProcessService } from '@warden/testing';
import { JetStreamContext, MessagingModule, OnMessage } from '../src/index.js';

type Action = MessageOf<'action.proposed'>;

const seen: { message: Action; deliveries: number }[] = [];
const attempts = new Map<string, number>();
/** Receipts of the messages whose handler took the acknowledgement over, by message id. */
const receipts = new Map<string, MessageReceipt>();

/** The lease (leaseMs below) is acted on for 80% of it: a stall this long leaves it past the fence. */
const STALL_MS = 900;

/** The process does nothing else for `ms` (a long collection, a starved CPU): no timer, no I/O runs. */
function blockTheProcess(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Behaviour chosen by the action's tool name. */
@Controller()
class ProbeHandlers {
  @OnMessage('action.proposed')
  async onAction(@Payload() message: Action, @Ctx() context: JetStreamContext): Promise<void> {
    const tries = (attempts.get(message.id) ?? 0) + 1;
    attempts.set(message.id, tries);
    switch (message.payload.tool) {
      case 'flaky':
        if (tries < 3) throw new TransientError('dependency unavailable');
        break;
      case 'broken':
        throw new Error('bug in the handler');
      case 'broken-once':
        if (tries < 2) throw new Error('bug in the handler, once');
        break;
      case 'reject':
        throw new RejectMessageError('session was never started');
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
        break;
      case 'stall':
        blockTheProcess(STALL_MS);
        break;
      case 'deferred':
        receipts.set(message.id, context.deferAcknowledgement());
        break;
    }
    seen.push({ message, deliveries: context.getDeliveryCount() });
  }
}

function testModule(nats: TestNatsServer, logger: Logger) {
  @Module({
    imports: [
      ObservabilityModule.forRoot({ service: 'reviewer', logger }),
      MessagingModule.forRoot({
        service: 'reviewer',
        nats: nats.service,
        partitions: nats.partitions,
        channels: ['action'],
        maxDeliver: 3,
        heartbeatMs: 200,
        leaseMs: 1000,
      }),
    ],
    controllers: [ProbeHandlers],
  })
  class TransportTestModule {}
  return TransportTestModule;
}

let nats: TestNatsServer;
let service: InProcessService;
let bus: BusConnection;
let deadLetters: BusRecorder;

const encoder = new TextEncoder();
const action = (session: string, tool: string, extra: Partial<Action['payload']> = {}) =>
  createMessage('action.proposed', {
    session_id: session,
    agent_id: 'agent-1',
    payload: { action_id: `a-${Math.random().toString(36).slice(2)}`, kind: 'tool_use', tool, input: {}, ...extra },
  });

async function publish(message: object, subject = `warden.action.agent-1.${(message as Action).session_id}`, id?: string) {
  return bus.js.publish(subject, encoder.encode(JSON.stringify(message)), { msgID: id ?? (message as Action).id });
}

async function waitHandled(id: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const hit = seen.find((s) => s.message.id === id);
    if (hit) return hit;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`message ${id} was not handled`);
}

beforeAll(async () => {
  nats = await TestNatsServer.start({ partitions: 8 });
  bus = await BusConnection.open(nats.service);
  deadLetters = await BusRecorder.start(bus.nc, 'warden.deadletter.>');
  service = await startInProcess('reviewer', (logger) => testModule(nats, logger));
  await new Promise((resolve) => setTimeout(resolve, 300));
});

afterAll(async () => {
  await service.close();
  deadLetters.stop();
  await bus.close();
  await nats.stop();
});

describe('the JetStream transport', () => {
  it('hands a valid message to its handler and acknowledges it', async () => {
    const message = action('sess-ok', 'Read');
    await publish(message);
    const handled = await waitHandled(message.id);
    expect(handled.message).toEqual(message);
    expect(handled.deliveries).toBe(1);
    const partition = partitionOf('sess-ok', 8);
    // The acknowledgement reaches the server just after the handler returns.
    const info = await eventually(
      'the acknowledgement at the server',
      () => bus.jsm.consumers.info('WARDEN_ACTION', `reviewer-action-p${partition}`),
      (i) => i.num_ack_pending === 0,
    );
    expect(info.ack_floor.stream_seq).toBeGreaterThan(0);
  });

  it('leaves a message whose handler took the acknowledgement over unacknowledged until its receipt acknowledges it', async () => {
    const deferred = action('sess-deferred', 'deferred');
    const next = action('sess-deferred', 'Read');
    const first = await publish(deferred);
    const second = await publish(next);
    await waitHandled(next.id);
    const consumer = `reviewer-action-p${partitionOf('sess-deferred', 8)}`;
    const info = () => bus.jsm.consumers.info('WARDEN_ACTION', consumer);
    // The later message acknowledged, the deferred one not: one pending, and the floor stays below it.
    await eventually('only the deferred message unacknowledged', info, (i) => i.num_ack_pending === 1 && i.ack_floor.stream_seq < first.seq);
    receipts.get(deferred.id)!.ack();
    await eventually('the receipt acknowledged', info, (i) => i.num_ack_pending === 0 && i.ack_floor.stream_seq >= second.seq);
  });

  const good = () => action('sess-bad', 'Read');
  const cases: [string, () => { data: Uint8Array | object; subject?: string }, string, string][] = [
    ['invalid JSON', () => ({ data: encoder.encode('{"id": "x", "type": "action.proposed", PGPASSWORD=hunter2hunter2') }), 'invalid_json', 'not valid UTF-8 JSON'],
    ['a wrong schema', () => ({ data: { ...good(), payload: { ...good().payload, tool: 42 } } }), 'schema_invalid', '/payload/tool'],
    ['an unknown type', () => ({ data: { ...good(), type: 'action.teleported' } }), 'unknown_type', 'action.teleported'],
    ['an unsupported version', () => ({ data: { ...good(), version: 9 } }), 'unsupported_version', 'version 9'],
    ['a 2 MB payload', () => ({ data: { ...good(), payload: { ...good().payload, input: { content: 'x'.repeat(2 * 1024 * 1024) } } } }), 'oversized', 'the limit is 1048576'],
    ['a message of another channel', () => ({ data: createMessage('session.ended', { session_id: 'sess-bad', agent_id: 'agent-1', payload: { status: 'success' } }) }), 'unexpected_type', 'does not belong on the action channel'],
    ['an envelope that names another session', () => ({ data: { ...good(), session_id: 'sess-other' } }), 'identity_mismatch', 'session sess-other'],
    [
      'a message published straight into the wrong partition',
      () => ({ data: good(), subject: `warden.action.${(partitionOf('sess-bad', 8) + 1) % 8}.agent-1.sess-bad` }),
      'wrong_partition',
      `belongs to partition ${partitionOf('sess-bad', 8)}`,
    ],
  ];

  it.each(cases)('dead-letters %s with the reason and keeps serving', async (_name, make, reason, detail) => {
    const { data, subject } = make();
    const id = `bad-${reason}-${Math.random().toString(36).slice(2)}`;
    const bytes = data instanceof Uint8Array ? data : encoder.encode(JSON.stringify(data));
    await bus.js.publish(subject ?? 'warden.action.agent-1.sess-bad', bytes, { msgID: id });
    const letter = await deadLetters.waitFor((m) => (m.body.payload as { original_message_id?: string }).original_message_id === id);
    expect(letter.subject).toMatch(/^warden\.deadletter\.reviewer\.action\.\d\.agent-1\.sess-bad$/);
    expect(letter.body).toMatchObject({ type: 'deadletter.recorded', session_id: 'sess-bad', agent_id: 'agent-1' });
    expect(letter.body.payload).toMatchObject({ service: 'reviewer', reason, original_size: bytes.byteLength, stream: 'WARDEN_ACTION' });
    expect((letter.body.payload as { detail: string }).detail).toContain(detail);
    expect((letter.body.payload as { original_excerpt: string }).original_excerpt.length).toBeLessThanOrEqual(4096);
    const after = action('sess-bad', 'Read');
    await publish(after);
    await waitHandled(after.id);
  });

  it('never copies a secret from a rejected message into its dead letter', async () => {
    const letter = deadLetters.messages.find((m) => (m.body.payload as { reason: string }).reason === 'invalid_json');
    expect(JSON.stringify(letter?.body)).not.toContain('hunter2hunter2');
    expect(JSON.stringify(letter?.body)).toContain('[REDACTED:assigned_secret]');
  });

  it('retries a message whose dependency is down in its place until it succeeds; the session\'s later messages wait for it', async () => {
    const message = action('sess-flaky', 'flaky');
    const later = action('sess-flaky', 'Read');
    await publish(message);
    await publish(later);
    const handled = await waitHandled(message.id);
    await waitHandled(later.id);
    // Handled on its first delivery, after two attempts that failed: a redelivery would have come after `later`.
    expect(handled.deliveries).toBe(1);
    expect(attempts.get(message.id)).toBe(3);
    const order = seen.filter((s) => s.message.session_id === 'sess-flaky').map((s) => s.message.id);
    expect(order).toEqual([message.id, later.id]);
  });

  it('redelivers a failing handler\'s message with a delay until it succeeds', async () => {
    const message = action('sess-broken-once', 'broken-once');
    await publish(message);
    const handled = await waitHandled(message.id);
    expect(handled.deliveries).toBe(2);
    expect(attempts.get(message.id)).toBe(2);
  });

  it('dead-letters a message whose handler keeps failing, after the delivery limit', async () => {
    const message = action('sess-broken', 'broken');
    await publish(message);
    const letter = await deadLetters.waitFor((m) => (m.body.payload as { original_message_id?: string }).original_message_id === message.id);
    expect(letter.body.payload).toMatchObject({ reason: 'handler_failed', delivery_count: 3 });
    expect((letter.body.payload as { detail: string }).detail).toBe('bug in the handler (failed 3 times)');
    expect(attempts.get(message.id)).toBe(3);
  });

  it('dead-letters at once what a handler rejects', async () => {
    const message = action('sess-reject', 'reject');
    await publish(message);
    const letter = await deadLetters.waitFor((m) => (m.body.payload as { original_message_id?: string }).original_message_id === message.id);
    expect(letter.body.payload).toMatchObject({ reason: 'rejected', detail: 'session was never started', delivery_count: 1 });
    expect(attempts.get(message.id)).toBe(1);
  });

  it('stores a message published twice once', async () => {
    const message = action('sess-dup', 'Read');
    const first = await publish(message);
    const second = await publish(message);
    expect(second.duplicate).toBe(true);
    expect(second.seq).toBe(first.seq);
    await waitHandled(message.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.filter((s) => s.message.id === message.id)).toHaveLength(1);
  });

  it("keeps each session's messages in order while sessions run concurrently", async () => {
    const sessions = ['ord-a', 'ord-b', 'ord-c', 'ord-d', 'ord-e'];
    const sent = new Map<string, string[]>(sessions.map((s) => [s, []]));
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      for (const s of sessions) {
        const message = action(s, 'slow', { description: String(i) });
        sent.get(s)!.push(message.id);
        pending.push(publish(message));
      }
    }
    await Promise.all(pending);
    for (const s of sessions) await waitHandled(sent.get(s)!.at(-1)!, 20_000);
    for (const s of sessions) {
      const order = seen.filter((x) => x.message.session_id === s).map((x) => x.message.id);
      expect(order).toEqual(sent.get(s));
    }
  });

  it("keeps a session's messages in order when the process stalls past its lease's fence: they wait for the renewal, none is left for a redelivery", async () => {
    const session = 'fenced';
    const sent = [action(session, 'stall'), ...Array.from({ length: 10 }, (_, i) => action(session, 'plain', { description: String(i) }))];
    await Promise.all(sent.map((message) => publish(message)));
    await waitHandled(sent.at(-1)!.id);
    const handled = seen.filter((x) => x.message.session_id === session);
    expect(handled.map((x) => x.message.id)).toEqual(sent.map((m) => m.id));
    expect(handled.every((x) => x.deliveries === 1)).toBe(true);
    // The stall did put the lease past the fence: messages waited for its renewal.
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(Number(/^warden_partition_fence_waits_total\{outcome="held",service="reviewer"\} (\d+)$/m.exec(metrics)?.[1] ?? 0)).toBeGreaterThan(0);
  });

  it('reports readiness and its series over HTTP', async () => {
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', checks: { nats: { up: true }, consumers: { up: true } } });
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toMatch(/warden_messages_processed_total\{channel="action",type="action.proposed",result="handled",service="reviewer"\} \d+/);
    expect(metrics).toMatch(/warden_messages_dead_lettered_total\{channel="action",reason="oversized",service="reviewer"\} 1/);
    expect(metrics).toMatch(/warden_messages_failed_total\{channel="action",type="action.proposed",disposition="retry",service="reviewer"\} \d+/);
    expect(metrics).toContain('warden_partitions_owned{service="reviewer"} 8');
    expect(metrics).toContain('warden_handler_duration_seconds_bucket');
    expect(metrics).not.toMatch(/sess-/);
  });

  it('logs each dead letter with its reason and the trace of handled messages, never a tool input', () => {
    const text = service.log.text();
    expect(service.log.lines.some((l) => l.msg === 'message dead-lettered' && l.reason === 'oversized')).toBe(true);
    expect(service.log.lines.some((l) => l.msg === 'handler failed; the message will be redelivered' && l.trace_id)).toBe(true);
    expect(text).not.toContain('hunter2hunter2');
    expect(text).not.toContain('xxxxxxxxxx');
  });
});
