import { BusConnection } from '@warden/messaging';
import type { ActionDecision } from '@warden/sdk';
import { DecisionPath, expectDecidedByReviewer, scriptedAction } from './path-fixture.js';

/**
 * The reviewer is killed (SIGKILL, no cleanup) while agents keep proposing, then started again. Every
 * action must still get exactly one decision, from the reviewer, and nothing may be lost.
 */
describe('killing the reviewer mid-run', () => {
  let path: DecisionPath;

  beforeAll(async () => {
    path = await DecisionPath.start(1);
  });

  afterAll(async () => {
    await path?.stop();
  });

  it('loses no action and answers every pending one after it is started again', async () => {
    const client = await path.agent();
    const sessions = Array.from({ length: 10 }, (_, s) => client.session(`crash-${s}`));
    const proposals: { actionId: string; denied: boolean; decision: Promise<ActionDecision> }[] = [];
    const propose = (round: number) => {
      for (const [s, session] of sessions.entries()) {
        const action = scriptedAction(round * sessions.length + s);
        const actionId = `crash-${s}-${round}`;
        proposals.push({ actionId, denied: action.denied, decision: session.propose({ ...action, actionId }) });
      }
    };

    for (let round = 0; round < 10; round++) propose(round);
    await Promise.all(proposals.map((p) => p.decision));

    // Kill it while actions are in flight, and keep proposing while it is gone.
    for (let round = 10; round < 15; round++) propose(round);
    await path.reviewers[0]!.kill();
    for (let round = 15; round < 30; round++) propose(round);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answeredWhileDown = (await Promise.all(proposals.slice(150).map((p) => Promise.race([p.decision, Promise.resolve(null)])))).filter(Boolean);
    expect(answeredWhileDown).toHaveLength(0);

    const restarted = await path.startReviewer('reviewer-restarted');
    const decisions = await Promise.all(proposals.map((p) => p.decision));
    // The dead replica never handed its partitions over: the new one took them over after the lease.
    expect(restarted.logs.match(/"takeover":true,"msg":"partition acquired"/g)?.length).toBe(8);
    expectDecidedByReviewer(decisions);
    expect(decisions).toHaveLength(300);
    for (const [i, decision] of decisions.entries()) {
      expect({ id: decision.actionId, allowed: decision.allowed }).toEqual({ id: proposals[i]!.actionId, allowed: !proposals[i]!.denied });
    }

    // Exactly one decision and one verdict stored per action, also for those redelivered after the crash.
    const bus = await BusConnection.open(path.nats.service);
    try {
      for (const stream of ['WARDEN_ACTION', 'WARDEN_VERDICT', 'WARDEN_DECISION']) {
        expect({ stream, messages: (await bus.jsm.streams.info(stream)).state.messages }).toEqual({ stream, messages: 300 });
      }
    } finally {
      await bus.close();
      await client.close();
    }
  });
});
