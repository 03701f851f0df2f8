import type { ActionDecision } from '@warden/sdk';
import { eventually } from '@warden/testing';
import { DecisionPath, expectDecidedByReviewer, ownedPartitions, PARTITIONS, scriptedAction } from './path-fixture.js';

/**
 * A replica stopped gracefully (SIGTERM, as in a rolling deploy) finishes what it is handling, hands its
 * partitions over and exits; the other replica takes them over at once, not after the lease expires.
 */
describe('a reviewer replica stopped gracefully', () => {
  let path: DecisionPath;

  beforeAll(async () => {
    path = await DecisionPath.start(2);
  });

  afterAll(async () => {
    await path?.stop();
  });

  it('hands its partitions over cleanly while sessions go on, losing nothing', async () => {
    const [leaving, staying] = path.reviewers as [typeof path.reviewers[0], typeof path.reviewers[0]];
    await eventually('the partitions to be divided', async () => (await ownedPartitions(leaving)) + (await ownedPartitions(staying)), (owned) => owned === PARTITIONS, { timeoutMs: 20_000 });
    const client = await path.agent();
    const sessions = Array.from({ length: 12 }, (_, s) => client.session(`handover-${s}`));
    const decisions: Promise<ActionDecision>[] = [];
    for (let round = 0; round < 30; round++) {
      for (const [s, session] of sessions.entries()) decisions.push(session.propose({ ...scriptedAction(round + s), actionId: `h-${s}-${round}` }));
      if (round === 10) void leaving.stop();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expectDecidedByReviewer(await Promise.all(decisions));
    await leaving.whenExited();
    expect(await ownedPartitions(staying)).toBe(PARTITIONS);
    expect(leaving.logs).toMatch(/"reason":"shutdown","msg":"partition released"/);
    // Handed over, not taken over after a lease expiry.
    expect(staying.logs).not.toMatch(/"takeover":true/);
    await client.close();
  });
});
