import { relative, resolve } from 'node:path';
import type { Command } from '../command.js';
import { sampleSessions, SAMPLE_SESSIONS_DIR } from '../demo/sample-sessions.js';
import { out, style } from '../output.js';
import { readRecording } from '../replay/read-recording.js';
import { renderReport } from '../replay/replay-report.js';
import { REPLAY_DEFAULTS, replaySession } from '../replay/replay-runner.js';
import { replaySessionId } from './replay.command.js';
import { SuiteLifetime } from '../local-suite/suite-lifetime.js';
import { printRunning, runUntilInterrupted, startSuite, SUITE_OPTIONS, SUITE_OPTIONS_HELP } from './up.command.js';

/**
 * Each sample replays as its own agent: the automation ladder keeps a track record per agent, and one
 * sample's emergency stop must not change how the next sample is treated.
 */
const DEMO_AGENTS = ['demo-agent', 'demo-claude-code', 'demo-swe-agent'];
const agentFor = (index: number) => DEMO_AGENTS[index % DEMO_AGENTS.length]!;

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Run the suite and replay the sample agent sessions through it',
  help: `Usage: warden demo [options]

Starts the suite as \`warden up\` does, then replays the recorded sessions that ship in examples/sessions
through it, as \`warden replay\` does: a coding agent in Warden's own format (a read, failing tests, a
malformed action, a forced push, rm -rf /), a Claude Code transcript and a SWE-agent trajectory, each as
its own agent.
Prints the report of each (verdicts, decisions, patterns, interventions, breaker trips), then keeps the
suite running until Ctrl-C.

${SUITE_OPTIONS_HELP}
  --sessions DIR      recordings to replay [examples/sessions]`,
  options: { ...SUITE_OPTIONS, sessions: { type: 'string' } },
  async run(values) {
    const dir = resolve((values.sessions as string | undefined) ?? SAMPLE_SESSIONS_DIR);
    const files = sampleSessions(dir);
    const lifetime = new SuiteLifetime();
    const suite = await startSuite({ ...values, agent: [...((values.agent as string[] | undefined) ?? []), ...DEMO_AGENTS.slice(1)] }, lifetime);
    if (!suite) return 0;
    let failed = false;
    try {
      const operator = suite.credentials.operator;
      for (const [index, file] of files.entries()) {
        // Asked to stop: the sessions not replayed yet are left.
        if (lifetime.signal.aborted) break;
        const agentId = agentFor(index);
        const agent = suite.agentSettings(agentId);
        const shown = relative(process.cwd(), file) || file;
        out.line();
        const replay = replaySession({
          file: shown.startsWith('..') ? file : shown,
          recording: readRecording(file),
          agent: { servers: agent.servers, agentId, password: agent.password },
          observer: { servers: suite.natsUrl, user: operator.user, password: operator.password, name: 'warden-demo' },
          sessionId: replaySessionId(file),
          timing: 'recorded',
          approvals: 'approve',
          decisionTimeoutMs: REPLAY_DEFAULTS.decisionTimeoutMs,
          settleMs: REPLAY_DEFAULTS.settleMs,
        });
        // A stop does not wait for the replay under way: the suite stops under it.
        replay.catch(() => undefined);
        const report = await Promise.race([replay, lifetime.stopRequested().then(() => null)]);
        if (!report) break;
        out.line(renderReport(report, style));
        if (report.summary.undecided) failed = true;
      }
    } catch (error) {
      await suite.stop();
      throw error;
    }
    if (lifetime.signal.aborted) return runUntilInterrupted(suite, lifetime);
    printRunning(suite);
    if (failed) out.warn('some actions got no answer from Warden in time; see the logs');
    if (values.exit) {
      await suite.stop();
      return failed ? 1 : 0;
    }
    return runUntilInterrupted(suite, lifetime);
  },
};
