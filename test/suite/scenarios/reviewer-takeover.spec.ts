import { join } from 'node:path';
import { WORKSPACE_ROOT, type ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import type { AgentSession } from '@warden/sdk';
import { BusRecorder, consumersSettled } from '@warden/testing';
import { DecisionPath, expectDecidedByReviewer } from './path-fixture.js';

/** The deployment's example policy: its CEL rule infra_writes_after_failures asks a person after three failed commands. */
const POLICY = join(WORKSPACE_ROOT, 'deploy/reviewer/reviewer.yaml');
const INFRA_WRITE = { file_path: '/work/app/infra/main.tf', content: 'resource "null_resource" "x" {}\n' };

async function sessionsRebuilt(reviewer: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${reviewer.url}/metrics`)).text();
  return Number(/^warden_review_sessions_rebuilt_total(?:\{[^}]*\})? (\d+)$/m.exec(text)?.[1] ?? NaN);
}

/**
 * A reviewer replica killed mid-session (SIGKILL: nothing saved, nothing handed over) and started again
 * knows nothing of the session in memory; it rebuilds it from the streams when the session's next action
 * comes, so that what the session did before counts: three failed commands still make the policy hold an
 * infrastructure change for a person. A session that begins after the restart is not rebuilt.
 */
describe('a reviewer replica that takes a session over mid-way', () => {
  let path: DecisionPath;
  let bus: BusConnection;
  let recorder: BusRecorder;

  beforeAll(async () => {
    path = await DecisionPath.start(1, { REVIEWER_CONFIG: POLICY });
    bus = await BusConnection.open(path.nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.verdict.>');
  }, 120_000);

  afterAll(async () => {
    recorder?.stop();
    await bus?.close();
    await path?.stop();
  }, 90_000);

  const verdictOf = (session: AgentSession, actionId: string) =>
    recorder.waitFor((m) => m.body.session_id === session.sessionId && (m.body.payload as { action_id: string }).action_id === actionId, 60_000);

  it('rebuilds the session from its stored messages after a restart: failures before it still count', async () => {
    const client = await path.agent();
    try {
      const session = client.session('takeover-1');
      await session.start({ context: { goal: 'Make the nightly build pass', expected_paths: ['/work/app/**'], cwd: '/work/app' } });
      const decisions = [];
      for (const i of [1, 2, 3]) {
        decisions.push(await session.propose({ tool: 'Bash', input: { command: `false # step ${i}` }, actionId: `fail-${i}` }));
        await session.report({ actionId: `fail-${i}`, status: 'error', error: { message: 'exit code 1' } });
      }
      expectDecidedByReviewer(decisions);

      // Killed once it has acknowledged what it handled: an action not yet acknowledged would come again to the
      // new replica and be what rebuilds the session, before the next action.
      await consumersSettled(bus.jsm, ['reviewer']);
      await path.reviewers[0]!.kill();
      const restarted = await path.startReviewer('reviewer-restarted');
      expect(await sessionsRebuilt(restarted)).toBe(0);

      void session.propose({ tool: 'Write', input: INFRA_WRITE, actionId: 'infra-1' }).catch(() => undefined);
      expect((await verdictOf(session, 'infra-1')).body.payload).toMatchObject({ verdict: 'require_approval', rule_hits: ['infra_writes_after_failures'] });
      expect(await sessionsRebuilt(restarted)).toBe(1);
      expect(restarted.logs).toMatch(/"actions":3,.*"failures":3,.*"msg":"session taken over mid-way: rebuilt from its stored messages"/);

      // A session that begins on the new replica has nothing to rebuild: the same write passes.
      const fresh = client.session('takeover-2');
      await fresh.start({ context: { goal: 'Make the nightly build pass', expected_paths: ['/work/app/**'], cwd: '/work/app' } });
      expect(await fresh.propose({ tool: 'Write', input: INFRA_WRITE, actionId: 'infra-2' })).toMatchObject({ allowed: true, decidedBy: 'reviewer' });
      expect(await sessionsRebuilt(restarted)).toBe(1);
    } finally {
      await client.close();
    }
  });
});
