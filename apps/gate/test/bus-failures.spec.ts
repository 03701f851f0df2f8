import { DEAD_LETTER_ROOT, GATE_BUFFER_STREAM, GATE_CONTEXT_BUCKET, GATE_SESSION_BUCKET } from '@warden/contracts';
import type { SessionRelayState } from '@warden/gate';
import { RecordConflictError, TransientError } from '@warden/messaging';
import { eventually } from '@warden/testing';
import { GateStores } from '../src/core/gate-stores.js';
import { AGENT, GateFixture } from './gate-fixture.js';

const kvStream = (bucket: string) => `KV_${bucket}`;

/**
 * The gate's state lives on the bus: every failure of its stores is a TransientError, so the message
 * being handled is retried for as long as it takes and never dead-lettered (a dead-lettered verdict
 * would leave its action without a decision); a compare-and-set conflict is one too.
 */
describe('the gate when the bus fails under it', () => {
  let f: GateFixture;

  beforeAll(async () => {
    f = await GateFixture.start();
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  it('raises TransientError from its stores: a compare-and-set conflict, a bucket or the buffer stream gone', async () => {
    const stores = await GateStores.open(f.bus);
    const session = f.newSession('stores');
    const state = { agent_id: AGENT, session_id: session } as SessionRelayState;
    const revision = await stores.states.save(state, undefined);
    // Another writer came first: created already, or changed since the revision read.
    await expect(stores.states.save(state, undefined)).rejects.toBeInstanceOf(RecordConflictError);
    await stores.states.save(state, revision);
    await expect(stores.states.save(state, revision)).rejects.toBeInstanceOf(TransientError);
    await stores.states.remove(AGENT, session, undefined);

    await f.bus.jsm.streams.delete(kvStream(GATE_SESSION_BUCKET));
    await f.bus.jsm.streams.delete(GATE_BUFFER_STREAM);
    try {
      await expect(stores.states.load(AGENT, session)).rejects.toBeInstanceOf(TransientError);
      await expect(stores.buffer.read(AGENT, session)).rejects.toBeInstanceOf(TransientError);
      await expect(stores.buffer.counts()).rejects.toBeInstanceOf(TransientError);
    } finally {
      await f.nats.provision();
    }
    expect(await stores.states.load(AGENT, session)).toEqual({ state: undefined, revision: undefined });
  });

  it('retries a verdict past the delivery limit while a bucket is gone, dead-letters nothing, and decides it once the bucket is back', async () => {
    const session = f.newSession('outage');
    await f.bus.jsm.streams.delete(kvStream(GATE_CONTEXT_BUCKET));
    let provisioned = false;
    try {
      const verdict = await f.verdict(session);
      // Five deliveries would dead-letter a message that failed otherwise.
      await eventually('the verdict retried more than five times', async () => (await retried(f)) > 5, { timeoutMs: 30_000 });
      expect(f.recorder.messages.filter((m) => m.subject.startsWith(`${DEAD_LETTER_ROOT}.`))).toEqual([]);

      await f.nats.provision();
      provisioned = true;
      expect((await f.waitDecision(session, verdict.payload.action_id, 30_000)).payload).toMatchObject({ decision: 'allow', decided_by: 'reviewer' });
      expect(f.recorder.messages.filter((m) => m.subject.startsWith(`${DEAD_LETTER_ROOT}.`))).toEqual([]);
    } finally {
      if (!provisioned) await f.nats.provision();
    }
  }, 60_000);
});

/** Verdicts the gate gave back to the bus for a retry, from its /metrics. */
async function retried(f: GateFixture): Promise<number> {
  const text = await (await fetch(`${f.gate.url}/metrics`)).text();
  const line = /^warden_messages_failed_total\{[^}]*type="review\.verdict"[^}]*disposition="retry"[^}]*\} (\d+)$/m.exec(text);
  return Number(line?.[1] ?? 0);
}
