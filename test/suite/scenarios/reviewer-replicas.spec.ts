import { BusConnection } from '@warden/messaging';
import type { ActionDecision } from '@warden/sdk';
import { eventually } from '@warden/testing';
import { DecisionPath, expectDecidedByReviewer, ownedPartitions, PARTITIONS, scriptedAction } from './path-fixture.js';

/**
 * Two reviewer replicas divide the partitions between them; each session stays in order; when one is
 * killed, the other takes its partitions and the sessions go on, still in order.
 */
describe('two reviewer replicas', () => {
  let path: DecisionPath;
  let bus: BusConnection;

  beforeAll(async () => {
    path = await DecisionPath.start(2);
    bus = await BusConnection.open(path.nats.service);
  });

  afterAll(async () => {
    await bus?.close();
    await path?.stop();
  });

  /** The action ids of a session's verdicts, in the order they were stored. */
  async function verdictOrder(sessionId: string): Promise<string[]> {
    const consumer = await bus.jsm.consumers.add('WARDEN_VERDICT', {
      filter_subject: `warden.verdict.*.agent-1.${sessionId}`,
      ack_policy: 'none' as never,
      inactive_threshold: 10_000_000_000,
    });
    const messages = await (await bus.js.consumers.get('WARDEN_VERDICT', consumer.name)).fetch({ max_messages: 1000, expires: 1000 });
    const order: string[] = [];
    for await (const m of messages) {
      order.push(m.json<{ payload: { action_id: string } }>().payload.action_id);
      if (m.info.pending === 0) break;
    }
    return order;
  }

  it('share the partitions, keep each session in order, and survive the death of one', async () => {
    const [first, second] = path.reviewers as [typeof path.reviewers[0], typeof path.reviewers[0]];
    await eventually('the partitions to be divided', async () => (await ownedPartitions(first)) + (await ownedPartitions(second)), (owned) => owned === PARTITIONS, { timeoutMs: 20_000 });
    expect(await ownedPartitions(first)).toBe(PARTITIONS / 2);
    expect(await ownedPartitions(second)).toBe(PARTITIONS / 2);

    const client = await path.agent();
    const sessions = Array.from({ length: 16 }, (_, s) => client.session(`order-${s}`));
    const sent = new Map<string, string[]>(sessions.map((s) => [s.sessionId, []]));
    const decisions: Promise<ActionDecision>[] = [];
    // Each session proposes without waiting for its decisions, so that order is the reviewer's to keep.
    const propose = (round: number) => {
      for (const [s, session] of sessions.entries()) {
        const actionId = `${session.sessionId}-${String(round).padStart(3, '0')}`;
        sent.get(session.sessionId)!.push(actionId);
        decisions.push(session.propose({ ...scriptedAction(round + s), actionId }));
      }
    };
    for (let round = 0; round < 20; round++) propose(round);
    await first.kill();
    for (let round = 20; round < 40; round++) propose(round);

    await eventually('the survivor to own every partition', () => ownedPartitions(second), (owned) => owned === PARTITIONS, { timeoutMs: 20_000 });
    expectDecidedByReviewer(await Promise.all(decisions));
    expect(second.logs).toMatch(/"takeover":true,"msg":"partition acquired"/);

    for (const session of sessions) {
      expect({ session: session.sessionId, order: await verdictOrder(session.sessionId) }).toEqual({
        session: session.sessionId,
        order: sent.get(session.sessionId),
      });
    }
    await client.close();
  });
});
