import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
  interventions: { type: string; severity: string }[];
  timing: { mode: string; recordedMs: number; replayedMs: number };
  unsettledSteps?: number;
}

interface Judged {
  actions: { actionId: string; verdict: string | null; decision: string }[];
  patterns: { type: string; severity: string }[];
  breakerTrips: { breaker: string; reason: string }[];
  interventions: { type: string; severity: string }[];
  stop?: { atAction: number };
}

/** Real recorded sessions nobody here wrote (../shared/corpus/real, kept out of the repository), when the folder is there. */
const REAL = join(WORKSPACE_ROOT, '..', 'shared', 'corpus', 'real');
const REAL_RECORDINGS = existsSync(REAL) ? readdirSync(REAL).filter((f) => /\.(jsonl|traj)$/.test(f)).map((f) => join(REAL, f)) : [];

/** What Warden did over a session, as the suite's replay and `warden eval` both report it, in one shape. */
function outcomeOfReplay(report: Report) {
  const stopped = report.actions.findIndex((a) => a.decidedBy === 'stopped');
  return {
    answers: report.actions.map((a) => `${a.actionId}: ${a.decidedBy === 'stopped' ? 'stopped' : `${a.verdict} → ${a.decision}`}`),
    patterns: report.patterns.map((p) => `${p.type}/${p.severity}`).sort(),
    trips: report.breakerTrips.map((t) => `${t.breaker}/${t.reason}`).sort(),
    interventions: report.interventions.map((i) => `${i.type}/${i.severity}`).sort(),
    stopAfter: stopped < 0 ? null : stopped,
  };
}

function outcomeOfEval(judged: Judged) {
  return {
    answers: judged.actions.map((a) => `${a.actionId}: ${a.decision === 'stopped' ? 'stopped' : `${a.verdict} → ${a.decision}`}`),
    patterns: judged.patterns.map((p) => `${p.type}/${p.severity}`).sort(),
    trips: judged.breakerTrips.map((t) => `${t.breaker}/${t.reason}`).sort(),
    interventions: judged.interventions.map((i) => `${i.type}/${i.severity}`).sort(),
    stopAfter: judged.stop?.atAction ?? null,
  };
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

  async function replay(session: string, recording = RECORDING, args: string[] = []): Promise<Report> {
    const run = await runWarden(['replay', recording, '--json', '--session', session, ...args], {
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

  async function evaluated(recording: string): Promise<Judged> {
    const run = await runWarden(['eval', recording, '--json'], { cwd });
    return (JSON.parse(run.stdout) as { sessions: { judged: Judged }[] }).sessions[0]!.judged;
  }

  if (!REAL_RECORDINGS.length) {
    it('would replay the real recorded sessions, which are absent here (no ../shared/corpus/real)', () => {
      expect(existsSync(REAL)).toBe(false);
    });
  }

  // Each message carries the recording's time (the default --timing recorded): the suite reads the agent's
  // clock where eval does, and gives the same verdicts, patterns, breaker trips, interventions and stop.
  if (REAL_RECORDINGS.length) {
    it.each(REAL_RECORDINGS)('answers a real recording (%s) as warden eval does', async (recording) => {
      const report = await replay(`real-${readdirSync(REAL).indexOf(recording.split('/').at(-1)!)}`, recording);
      expect(report.timing.mode).toBe('recorded');
      expect(outcomeOfReplay(report)).toEqual(outcomeOfEval(await evaluated(recording)));
    }, 300_000);
  }

  it('says where the suite\'s clock makes it differ: a replay far faster than its recording', async () => {
    const recording = join(WORKSPACE_ROOT, 'test/corpus/sessions/stagnation-review-without-progress.json');
    const run = await runWarden(['replay', recording, '--session', 'clock-note'], {
      cwd,
      env: {
        NATS_URL: suite.nats.url,
        NATS_USER: suite.nats.operator.user,
        NATS_PASSWORD: suite.nats.operator.password,
        WARDEN_AGENT_ID: AGENT,
        WARDEN_AGENT_PASSWORD: suite.nats.agent(AGENT).password,
      },
    });
    expect(run.stdout).toMatch(/timing: each message carried the recording's time, which the pattern detector and the intervention controller read as `warden eval` does; .* the breakers' time budget and cool-downs ran on the suite's clock: \d+ s here, 62 s in the recording \(and in `warden eval`\)/);
    const judged = await runWarden(['eval', recording], { cwd });
    expect(judged.stdout).toContain("the breakers' time budget and cool-downs run on the suite's clock there");
  }, 120_000);
});
