import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { HookSuite, runWarden } from './hook-suite.fixture.js';

const SAMPLES = join(WORKSPACE_ROOT, 'examples/sessions');
const AGENT = 'demo-agent';

interface Report {
  format: string;
  recordedSessionId?: string;
  sessionId: string;
  actions: { actionId: string; recordedId?: string; title: string; verdict: string | null; decision: string; decidedBy: string; reason: string; heldForApproval: boolean; outcome: string; patterns: string[]; updatedInput?: unknown }[];
  patterns: { patternId: string; type: string; evidence: string[] }[];
  interventions: { interventionId: string; type: string; trigger: string; controlId?: string }[];
  controls: { controlId: string; kind: string; message?: string }[];
  breakerTrips: { breaker: string; reason: string; currentValue: number; threshold: number }[];
  summary: Record<string, number>;
}

/** `warden replay` over each supported format, through a real nats-server, reviewer and gate. */
describe('warden replay against the running suite', () => {
  let suite: HookSuite;
  let cwd: string;

  beforeAll(async () => {
    suite = await HookSuite.start([AGENT]);
    cwd = mkdtempSync(join(tmpdir(), 'replay-'));
  }, 120_000);

  afterAll(async () => {
    await suite?.stop();
    rmSync(cwd, { recursive: true, force: true });
  }, 60_000);

  const replay = (args: string[]) =>
    runWarden(['replay', ...args], {
      cwd,
      env: {
        NATS_URL: suite.nats.url,
        NATS_USER: suite.nats.operator.user,
        NATS_PASSWORD: suite.nats.operator.password,
        WARDEN_AGENT_ID: AGENT,
        WARDEN_AGENT_PASSWORD: suite.nats.agent(AGENT).password,
      },
    });

  const jsonReplay = async (args: string[]): Promise<Report> => {
    const run = await replay([...args, '--json', '--settle-ms', '300']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as Report;
  };

  const decisions = (report: Report) => report.actions.map((a) => [a.actionId, a.verdict, a.decision, a.decidedBy, a.outcome]);

  it("replays Warden's JSONL: verdicts, decisions, the outcomes of what ran, and the summary", async () => {
    const report = await jsonReplay([join(SAMPLES, '01-fix-date-parser.warden.jsonl'), '--session', 'replay-warden-1']);
    expect(report).toMatchObject({ format: 'warden', recordedSessionId: 'demo-fix-date-parser', sessionId: 'replay-warden-1' });
    expect(decisions(report)).toEqual([
      ['a-01', 'allow', 'allow', 'reviewer', 'success'],
      ['a-02', 'allow', 'allow', 'reviewer', 'error'],
      ['a-03', null, 'deny', 'rejected', 'none'],
      ['a-04', 'allow', 'allow', 'reviewer', 'success'],
      ['a-05', 'allow', 'allow', 'reviewer', 'success'],
      ['a-06', 'allow', 'allow', 'reviewer', 'success'],
      ['a-07', 'modify', 'allow', 'reviewer', 'success'],
      ['a-08', 'block', 'deny', 'reviewer', 'none'],
      ['a-09', 'allow', 'allow', 'reviewer', 'success'],
    ]);
    expect(report.actions[2]!.reason).toBe('Warden rejected the action (schema_invalid): /payload/tool: must be string; /payload/input: must be object');
    expect(report.actions[6]!.updatedInput).toEqual({ command: 'git push --force-with-lease origin fix/date-parser', description: 'Publish the fix' });
    expect(report.summary).toEqual({ actions: 9, allowed: 7, blocked: 2, warned: 0, modified: 1, heldForApproval: 0, rejected: 1, stopped: 0, undecided: 0, patterns: 0, interventions: 0, breakerTrips: 0, skippedLines: 0 });
    // The suite saw the session as it would have lived: declared, and the recorded outcome of each allowed action.
    const outcomes = suite.recorder.messages.filter((m) => m.body.type === 'action.outcome' && m.body.session_id === 'replay-warden-1').map((m) => m.body.payload as { action_id: string; status: string });
    expect(outcomes.map((o) => [o.action_id, o.status])).toEqual([['a-01', 'success'], ['a-02', 'error'], ['a-04', 'success'], ['a-05', 'success'], ['a-06', 'success'], ['a-07', 'success'], ['a-09', 'success']]);
  }, 60_000);

  it('replays a Claude Code transcript, counting the calls a resumed session repeats once', async () => {
    const report = await jsonReplay([join(SAMPLES, '02-claude-code-date-fix.jsonl'), '--session', 'replay-claude-1']);
    expect(report.format).toBe('claude-code');
    expect(report.recordedSessionId).toBe('7c1e2b90-4a5d-4f6e-9b1a-2d3c4e5f6a7b');
    expect(decisions(report)).toEqual([
      ['toolu_01Demo0001', 'allow', 'allow', 'reviewer', 'success'],
      ['toolu_01Demo0002', 'allow', 'allow', 'reviewer', 'success'],
      ['toolu_01Demo0003', 'allow', 'allow', 'reviewer', 'success'],
      ['toolu_01Demo0004', 'allow', 'allow', 'reviewer', 'error'],
      ['toolu_01Demo0005', 'allow', 'allow', 'reviewer', 'success'],
      ['toolu_01Demo0006', 'warn', 'allow', 'reviewer', 'success'],
      ['toolu_01Demo0007', 'modify', 'allow', 'reviewer', 'success'],
      ['toolu_01Demo0008', 'allow', 'allow', 'reviewer', 'success'],
      ['toolu_01Demo0009', 'block', 'deny', 'reviewer', 'none'],
    ]);
    const started = await suite.recorder.waitFor((m) => m.body.type === 'session.started' && m.body.session_id === 'replay-claude-1');
    expect(started.body.payload).toEqual({
      context: { cwd: '/home/dev/shop', expected_paths: ['/home/dev/shop/**'], goal: 'Fix the failing date parser test in src/utils/date.ts' },
      agent_kind: 'claude-code',
      replay: true,
    });
    const failed = suite.recorder.messages.find((m) => m.body.type === 'action.outcome' && m.body.session_id === 'replay-claude-1' && (m.body.payload as { action_id: string }).action_id === 'toolu_01Demo0004')!;
    expect(failed.body.payload).toMatchObject({
      status: 'error',
      tool: 'Bash',
      duration_ms: 1000,
      model: 'claude-sonnet-4-5-20250929',
      tokens: { prompt: 2400, completion: 130, cache_read: 9000 },
      error: { message: expect.stringContaining('FAIL src/utils/date.test.ts') },
    });
    expect(report.summary).toMatchObject({ actions: 9, allowed: 8, blocked: 1, warned: 1, modified: 1, heldForApproval: 0 });
  }, 60_000);

  it('replays a SWE-agent trajectory and answers the action the gate holds for approval', async () => {
    const report = await jsonReplay([join(SAMPLES, '03-swe-agent-bulk-update.traj'), '--session', 'replay-swe-1']);
    expect(report.format).toBe('swe-agent');
    expect(report.actions.map((a) => [a.actionId, a.title.split(':')[0], a.outcome])).toEqual([
      // SWE-agent's own commands become the tools they amount to: find_file a Glob, edit an Edit of the open file, submit a message.
      ['step-1', 'Glob', 'success'],
      ['step-2', 'Read', 'success'],
      ['step-3', 'Bash', 'error'],
      ['step-4', 'Bash', 'error'],
      ['step-5', 'Bash', 'success'],
      ['step-6', 'Bash', 'error'],
      ['step-7', 'Edit', 'success'],
      ['step-8', 'Bash', 'success'],
      ['step-9', 'submit (SWE-agent ends its run)', 'success'],
    ]);
    expect(report.actions[4]).toMatchObject({
      verdict: 'require_approval',
      decision: 'allow',
      decidedBy: 'operator',
      heldForApproval: true,
      reason: 'Approved by operator warden-replay (apt-get install -y python3-dev changes the software of the whole machine with administrator rights. A person must approve it.)',
    });
    expect(report.summary).toMatchObject({ actions: 9, heldForApproval: 1, undecided: 0 });

    const rejected = await jsonReplay([join(SAMPLES, '03-swe-agent-bulk-update.traj'), '--session', 'replay-swe-2', '--approvals', 'reject']);
    expect(rejected.actions[4]).toMatchObject({ verdict: 'require_approval', decision: 'deny', decidedBy: 'operator', heldForApproval: true, outcome: 'not_run' });
  }, 90_000);

  describe('what the suite says about the session while it replays', () => {
    /** Publishes, as the detector, controller and breaker would, once the replayed session's first action is proposed. */
    async function whenProposed(session: string): Promise<void> {
      await suite.recorder.waitFor((m) => m.body.type === 'action.proposed' && m.body.session_id === session, 30_000);
      await suite.publish('pattern.detected', 'pattern', AGENT, session, {
        pattern_id: 'pat-1',
        pattern_type: 'repetitive_errors',
        severity: 'medium',
        confidence: 0.8,
        impact_factor: 2,
        description: 'The same test failed twice',
        evidence_action_ids: ['a-01', 'a-02'],
        details: {},
        episode: 1,
        shadow: false,
      });
      await suite.publish('intervention.issued', 'intervention', AGENT, session, {
        intervention_id: 'int-1',
        intervention_type: 'soft_correction',
        trigger: { kind: 'pattern', message_id: 'pat-1', issue_type: 'repetitive_errors' },
        severity: 'medium',
        severity_score: 1.6,
        escalation_level: 0,
        control_id: 'ctl-1',
        strategy: 'progressive',
      });
      await suite.publish('control.issued', 'control', AGENT, session, { control_id: 'ctl-1', kind: 'soft_correction', message: 'Read the failing assertion before running the tests again.', requires_ack: true });
      await suite.publish('breaker.tripped', 'breaker', AGENT, session, { breaker: 'error_rate', reason: 'Error rate 50% over the last 2 actions', current_value: 0.5, threshold: 0.4 });
      // The block of rm -rf / stops the session: what the recording did after it would not have run.
      await suite.recorder.waitFor((m) => m.body.type === 'decision.made' && m.body.session_id === session && (m.body.payload as { action_id: string }).action_id === 'a-08', 30_000);
      await suite.publish('control.issued', 'control', AGENT, session, { control_id: 'ctl-2', kind: 'emergency_stop', message: 'Warden blocked rm -rf /', requires_ack: true });
    }

    it('reports patterns with their evidence, interventions, control messages and breaker trips', async () => {
      const published = whenProposed('replay-extras-1');
      const report = await jsonReplay([join(SAMPLES, '01-fix-date-parser.warden.jsonl'), '--session', 'replay-extras-1']);
      await published;
      expect(report.patterns).toEqual([{ patternId: 'pat-1', type: 'repetitive_errors', severity: 'medium', confidence: 0.8, description: 'The same test failed twice', evidence: ['a-01', 'a-02'], shadow: false }]);
      expect(report.actions.map((a) => a.patterns)).toEqual([['pat-1'], ['pat-1'], [], [], [], [], [], [], []]);
      expect(report.actions[8]).toMatchObject({ actionId: 'a-09', decision: 'deny', decidedBy: 'stopped', reason: 'Warden stopped this session: Warden blocked rm -rf /', outcome: 'not_run' });
      expect(suite.recorder.messages.some((m) => m.body.type === 'action.proposed' && m.body.session_id === 'replay-extras-1' && (m.body.payload as { action_id: string }).action_id === 'a-09')).toBe(false);
      expect(report.interventions).toEqual([{ interventionId: 'int-1', type: 'soft_correction', severity: 'medium', trigger: 'pattern repetitive_errors', controlId: 'ctl-1' }]);
      expect(report.controls).toEqual([
        { controlId: 'ctl-1', kind: 'soft_correction', message: 'Read the failing assertion before running the tests again.' },
        { controlId: 'ctl-2', kind: 'emergency_stop', message: 'Warden blocked rm -rf /' },
      ]);
      expect(report.breakerTrips).toEqual([{ breaker: 'error_rate', reason: 'Error rate 50% over the last 2 actions', currentValue: 0.5, threshold: 0.4 }]);
      expect(report.summary).toMatchObject({ stopped: 1, patterns: 1, interventions: 1, breakerTrips: 1 });
    }, 60_000);

    it('prints them in the report for people', async () => {
      const published = whenProposed('replay-extras-2');
      const run = await replay([join(SAMPLES, '01-fix-date-parser.warden.jsonl'), '--session', 'replay-extras-2', '--settle-ms', '300']);
      await published;
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toContain(`Replay of ${join(SAMPLES, '01-fix-date-parser.warden.jsonl')}: warden format (recorded session demo-fix-date-parser), as session replay-extras-2 of agent demo-agent`);
      expect(run.stdout).toMatch(/ {2}2\. Run the tests\n {5}→ ALLOW {2}verdict allow, decided by reviewer, [\d.]+ ms\n {7}No concerns: command execution with medium risk\.\n {7}evidence of pattern pat-1\n/);
      expect(run.stdout).toMatch(/ {2}8\. Bash: rm -rf \/\n {5}→ DENY {2}verdict block, decided by reviewer, [\d.]+ ms\n {7}Recursive deletion of \//);
      expect(run.stdout).toMatch(/ {2}9\. Bash: git status\n {5}→ STOPPED {2}verdict none, decided by stopped, 0\.0 ms\n {7}Warden stopped this session: Warden blocked rm -rf \/\n/);
      expect(run.stdout).toContain('Patterns\n  repetitive_errors (medium, confidence 0.80): The same test failed twice\n    evidence: actions #1, #2\n');
      expect(run.stdout).toContain(
        'Interventions\n  soft_correction (medium) triggered by pattern repetitive_errors, control ctl-1\n  sent to the agent: soft_correction: Read the failing assertion before running the tests again.\n  sent to the agent: emergency_stop: Warden blocked rm -rf /\n',
      );
      expect(run.stdout).toContain('Breaker trips\n  error_rate: Error rate 50% over the last 2 actions (0.5 of 0.4)\n');
      expect(run.stdout).toContain(
        'Summary\n  9 actions: 6 allowed, 3 would have been blocked, 0 warned, 1 modified, 0 held for approval, 1 rejected as malformed, 1 not run after the emergency stop\n  1 pattern, 1 intervention, 1 breaker trip\n',
      );
    }, 60_000);
  });

  it('replays an Antigravity transcript: positional ids proposed as action ids, the damaged line skipped and counted', async () => {
    const file = join(WORKSPACE_ROOT, 'apps/cli/test/fixtures/recordings/antigravity-transcript.jsonl');
    const run = await replay([file, '--json', '--settle-ms', '300', '--session', 'replay-antigravity-1']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^warning: ${file.replace(/[.]/g, '\\.')} line 6: not JSON \\(.*\\); skipped\n$`));
    const report = JSON.parse(run.stdout) as Report & { skippedLines: { line: number }[] };
    expect(report.format).toBe('antigravity');
    expect(report.actions.map((a) => [a.actionId, a.recordedId])).toEqual([
      ['L3-0', 'L3.0'],
      ['L3-1', 'L3.1'],
      ['L7-0', 'L7.0'],
      ['L9-0', 'L9.0'],
      ['L13-0', 'L13.0'],
    ]);
    expect(report.actions.every((a) => a.decision !== 'none' && a.decidedBy !== 'rejected')).toBe(true);
    expect(report.skippedLines.map((s) => s.line)).toEqual([6]);
    expect(report.summary['skippedLines']).toBe(1);
  }, 60_000);

  it('says what is wrong with a recording, or with the options', async () => {
    const bad = join(cwd, 'bad.jsonl');
    writeFileSync(bad, '{"type":"session","context":{}}\n{"type":"action","action_id":"a 1","tool":"Bash","input":{}}\n');
    expect(await replay([bad])).toEqual({ code: 1, stdout: '', stderr: `error: ${bad}: line 2: action_id must be 1-128 letters, digits, - or _\n` });
    const orphan = join(cwd, 'orphan.jsonl');
    writeFileSync(orphan, '{"type":"outcome","action_id":"a-1","status":"success"}\n');
    expect((await replay([orphan])).stderr).toBe(`error: ${orphan}: line 1: outcome for unknown action "a-1" (actions come before their outcomes)\n`);
    expect((await replay([join(cwd, 'missing.jsonl')])).stderr).toContain(`error: cannot read ${join(cwd, 'missing.jsonl')}: ENOENT`);
    expect(await replay([])).toMatchObject({ code: 2, stderr: expect.stringContaining('name the recorded session(s) to replay') });
    expect(await replay([bad, '--timing', 'fast'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--timing must be recorded, compressed, real') });
    expect(await replay([bad, '--format', 'openhands'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--format must be one of warden, claude-code, swe-agent, labelled, codex, gemini-cli, copilot-cli, opencode, antigravity, aider, cursor, specstory') });
  }, 30_000);
});
