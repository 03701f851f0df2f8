import type { Subscription } from '@nats-io/transport-node';
import type { PayloadOf } from '@warden/contracts';
import { describeServiceContract } from '@warden/testing';
import { ReviewerAppModule } from '../src/app.module.js';
import { loadReviewerConfig } from '../src/config.js';
import { QUIET_AFTER_EMPTY_LOOKUPS } from '../src/review/session-sync.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Sessions declared and acted on at the same time; each pair is published back to back. */
const CONCURRENT = 25;
const ROUNDS = 1000;
/** Other sessions' messages published just before each round. */
const BACKLOG = 40;

describeServiceContract(
  {
    service: 'reviewer',
    createModule: (env, logger) => ReviewerAppModule.forRoot(loadReviewerConfig(env), logger),
  },
  (harness) => {
    type Verdict = { causation_id: string; payload: PayloadOf<'review.verdict'> };
    // Verdicts by the action they answer: a thousand sessions are too many for the recorder's scans.
    const waiting = new Map<string, (verdict: Verdict) => void>();
    let subscription: Subscription;
    beforeAll(() => {
      subscription = harness.bus.nc.subscribe('warden.verdict.>', {
        callback: (_error, message) => {
          const verdict = JSON.parse(decoder.decode(message.data)) as Verdict;
          waiting.get(verdict.causation_id)?.(verdict);
        },
      });
    });
    afterAll(() => subscription.unsubscribe());

    async function propose(session: string, tool: string, input: Record<string, unknown>): Promise<Verdict> {
      const action = harness.example('action.proposed', session) as { id: string; payload: Record<string, unknown> };
      action.payload = { action_id: `toolu_${action.id.slice(0, 8)}`, kind: 'tool_use', tool, input };
      const verdict = new Promise<Verdict>((resolve) => waiting.set(action.id, resolve));
      await harness.publishRaw('action', session, encoder.encode(JSON.stringify(action)), action.id);
      try {
        return await verdict;
      } finally {
        waiting.delete(action.id);
      }
    }

    async function publish(type: 'session.started' | 'session.phase_changed' | 'action.outcome', session: string, payload: Record<string, unknown>): Promise<void> {
      const message: Record<string, unknown> = { ...harness.example(type, session), payload };
      await harness.publishRaw(type === 'action.outcome' ? 'outcome' : 'session', session, encoder.encode(JSON.stringify(message)), message['id'] as string);
    }

    /** Other sessions' lifecycle messages ahead of ours: the session stream's consumers are busy, the action's are not. */
    async function busySessionStream(round: number): Promise<void> {
      await Promise.all(Array.from({ length: BACKLOG }, (_, i) => publish('session.phase_changed', `busy-${round}-${i}`, { phase: 'implementation' })));
    }

    it(`reviews a session's first action with the declaration published just before it, ${ROUNDS} times in a row`, async () => {
      const missed: string[] = [];
      for (let round = 0; round < ROUNDS; round += CONCURRENT) {
        // Issued first, so stored ahead of this round's declarations; not awaited, so the declarations follow at once.
        const backlog = busySessionStream(round);
        await Promise.all(
          Array.from({ length: CONCURRENT }, async (_, i) => {
            const session = `order-${round + i}-${Date.now().toString(36)}`;
            await publish('session.started', session, { context: { goal: 'Fix the date parser', expected_paths: ['/work/shop/**'], cwd: '/work/shop' } });
            // Declared scope is /work/shop: only a reviewer that saw the declaration calls this write out of scope.
            const verdict = await propose(session, 'Write', { file_path: '/srv/elsewhere/config.json', content: '{}' });
            if (!verdict.payload.risk.factors.includes('out_of_scope')) missed.push(session);
          }),
        );
        await backlog;
      }
      expect(missed).toEqual([]);
    }, 600_000);

    it("reviews an action with the previous action's outcome published just before it", async () => {
      const missed: string[] = [];
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const session = `outcome-order-${i}-${Date.now().toString(36)}`;
          await publish('session.started', session, { context: { goal: 'Fix the date parser', expected_paths: ['/work/shop/**'], cwd: '/work/shop' } });
          const first = await propose(session, 'Bash', { command: 'npm test -- date' });
          // Other sessions' outcomes ahead of ours keep the outcome consumers busy.
          await Promise.all(Array.from({ length: BACKLOG }, (_, j) => publish('action.outcome', `busy-outcome-${i}-${j}`, { action_id: `toolu_busy${j}`, status: 'success' })));
          await publish('action.outcome', session, { action_id: first.payload.action_id, status: 'error', error: { message: 'Expected 2024-01-01, got Invalid Date' } });
          const second = await propose(session, 'Bash', { command: 'npm test -- date' });
          if (!second.payload.risk.factors.includes('repeated_failure')) missed.push(session);
        }),
      );
      expect(missed).toEqual([]);
    }, 120_000);

    it('stops looking up the outcomes of a session that does not report them', async () => {
      const session = `no-outcomes-${Date.now().toString(36)}`;
      const lookups: string[] = [];
      const watch = harness.bus.nc.subscribe('$JS.API.STREAM.MSG.GET.>', {
        callback: (_error, message) => {
          const query = JSON.parse(decoder.decode(message.data)) as { last_by_subj?: string };
          if (query.last_by_subj?.endsWith(`.${session}`)) lookups.push(query.last_by_subj);
        },
      });
      try {
        await publish('session.started', session, { context: { goal: 'Fix the date parser', expected_paths: ['/work/shop/**'], cwd: '/work/shop' } });
        for (let i = 0; i < QUIET_AFTER_EMPTY_LOOKUPS + 5; i++) await propose(session, 'Read', { file_path: `/work/shop/src/date-${i}.ts` });
        // The first action has no previous one; each of the next QUIET_AFTER_EMPTY_LOOKUPS looks once and finds nothing.
        expect(lookups).toHaveLength(QUIET_AFTER_EMPTY_LOOKUPS);
        expect(lookups.every((subject) => subject.startsWith('warden.outcome.'))).toBe(true);
      } finally {
        watch.unsubscribe();
      }
    });
  },
);
