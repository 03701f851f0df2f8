import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { HookSuite, runWarden } from './hook-suite.fixture.js';

const AGENT = 'demo-agent';
const RECORDING = join(WORKSPACE_ROOT, 'test/corpus/sessions/repetitive-errors-edit-and-retry.json');

interface Report {
  actions: { actionId: string; verdict: string | null; decision: string; decidedBy: string }[];
  patterns: { type: string; severity: string }[];
  breakerTrips: { breaker: string; reason: string }[];
  unsettledSteps?: number;
}

/**
 * A recording replayed through the whole suite gives the same answers every time: the replay waits after
 * each action until every service has handled what it caused (the breaker's trip, the detector's
 * pattern, the controller's intervention), so the next action is reviewed knowing all of it. And the
 * suite answers as `warden eval`, which runs the same domain code in process, does.
 */
describe('warden replay through the whole suite', () => {
  let suite: HookSuite;
  let cwd: string;

  beforeAll(async () => {
    suite = await HookSuite.start([AGENT], ['reviewer', 'gate', 'breaker', 'pattern-detector', 'intervention-controller']);
    cwd = mkdtempSync(join(tmpdir(), 'replay-determinism-'));
  }, 180_000);

  afterAll(async () => {
    await suite?.stop();
    rmSync(cwd, { recursive: true, force: true });
  }, 60_000);

  async function replay(session: string): Promise<Report> {
    const run = await runWarden(['replay', RECORDING, '--json', '--session', session], {
      cwd,
      env: {
        NATS_URL: suite.nats.url,
        NATS_USER: suite.nats.operator.user,
        NATS_PASSWORD: suite.nats.operator.password,
        WARDEN_AGENT_ID: AGENT,
        WARDEN_AGENT_PASSWORD: suite.nats.agent(AGENT).password,
      },
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as Report;
  }

  const answers = (r: Report) => r.actions.map((a) => `${a.actionId}: ${a.verdict} → ${a.decision}`);

  it('answers the same twice, and as warden eval does', async () => {
    const first = await replay('determinism-1');
    const second = await replay('determinism-2');
    expect(first.unsettledSteps).toBeUndefined();
    expect(answers(second)).toEqual(answers(first));
    expect(second.breakerTrips).toEqual(first.breakerTrips);
    expect(second.patterns.map((p) => `${p.type}/${p.severity}`)).toEqual(first.patterns.map((p) => `${p.type}/${p.severity}`));
    // The fifth identical failure trips the iteration breaker, and the suite holds back the sixth try.
    expect(first.breakerTrips).toEqual([expect.objectContaining({ breaker: 'iteration', reason: 'REPEATED_FAILURE' })]);

    const evaluated = await runWarden(['eval', RECORDING, '--json'], { cwd });
    const judged = (JSON.parse(evaluated.stdout) as { sessions: { judged: { actions: { actionId: string; verdict: string | null; decision: string }[] } }[] }).sessions[0]!.judged;
    expect(judged.actions.map((a) => `${a.actionId}: ${a.verdict} → ${a.decision}`)).toEqual(answers(first));
  }, 180_000);
});
