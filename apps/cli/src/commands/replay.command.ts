import { basename } from 'node:path';
import { isSubjectToken, newMessageId } from '@warden/contracts';
import { integerOption, UsageError, type Command } from '../command.js';
import { out, style } from '../output.js';
import { ProgressBar } from '../replay/progress-bar.js';
import { formatList, FORMATS, readingWarnings, readRecording } from '../replay/read-recording.js';
import { RecordingError, type RecordingFormat } from '../replay/recorded-session.js';
import { replayConnection, REPLAY_AGENT_DEFAULT } from '../replay/replay-connection.js';
import { renderReport, type ReplayReport } from '../replay/replay-report.js';
import { REPLAY_DEFAULTS, replaySession, type ReplayTiming } from '../replay/replay-runner.js';

const REPLAY_TIMINGS: readonly ReplayTiming[] = ['recorded', 'compressed', 'real'];

/** A fresh session id for a replay, so that it never mixes with the recorded (maybe live) session. */
export function replaySessionId(file: string): string {
  const stem = basename(file).replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 40);
  return `replay-${stem}-${newMessageId().slice(0, 8)}`;
}

export const replayCommand: Command = {
  name: 'replay',
  summary: 'Replay a recorded agent session through the suite and report what Warden would have done',
  help: `Usage: warden replay <file>... [options]

Feeds a recorded session through the running suite as if it were live: declares the session, proposes
each action as the agent did and waits for the decision, reports the recorded outcome of the actions
Warden allowed. Prints per action the verdict and decision, the patterns found with their evidence, the
interventions and control messages that would have been sent, the breaker trips, and a summary.

Formats, detected from the content (--format to choose):
${formatList()}

A damaged line of a JSON Lines recording (truncated, or starting in the middle of a record) is skipped
with a warning naming the file and the line; the report says how many were skipped.

Options:
  --format F          one of the formats above
  --json              print only the report as JSON (an array for several files)
  --session ID        replay as this session id [replay-<file>-<random>]
  --agent ID          replay as this agent (its NATS user) [${REPLAY_AGENT_DEFAULT}]
  --timing T          recorded: no pauses, each message stamped with the recording's time;
                      compressed: no pauses, stamped now; real: the recorded pauses (at most
                      ${REPLAY_DEFAULTS.maxGapMs / 1000} s each), stamped now [recorded]
  --approvals A       what to answer when the gate holds an action for a human: approve or reject [approve]
  --timeout-ms N      how long one action waits for its decision [${REPLAY_DEFAULTS.decisionTimeoutMs}]
  --settle-ms N       how long to wait after the last action for patterns and interventions [${REPLAY_DEFAULTS.settleMs}]
  --nats-url URL      NATS [WARDEN_NATS_URL, NATS_URL, nats://127.0.0.1:4222]
  --credentials FILE  credentials file of \`warden up\` [./.warden/credentials.json when present]

Environment: WARDEN_AGENT_ID, WARDEN_AGENT_PASSWORD (the agent); NATS_USER, NATS_PASSWORD (an operator,
to watch the session and answer held actions).

Exit status: 0 when every action got Warden's answer, 1 otherwise.`,
  options: {
    format: { type: 'string' },
    json: { type: 'boolean' },
    session: { type: 'string' },
    agent: { type: 'string' },
    timing: { type: 'string' },
    approvals: { type: 'string' },
    'timeout-ms': { type: 'string' },
    'settle-ms': { type: 'string' },
    'nats-url': { type: 'string' },
    credentials: { type: 'string' },
  },
  async run(values, positionals) {
    if (!positionals.length) throw new UsageError('name the recorded session(s) to replay: warden replay <file>...');
    const format = values.format as RecordingFormat | undefined;
    if (format && !FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
    const timing = (values.timing as string | undefined) ?? 'recorded';
    if (!REPLAY_TIMINGS.includes(timing as ReplayTiming)) throw new UsageError(`--timing must be ${REPLAY_TIMINGS.join(', ')}`);
    const approvals = (values.approvals as string | undefined) ?? 'approve';
    if (approvals !== 'approve' && approvals !== 'reject') throw new UsageError('--approvals must be approve or reject');
    const session = values.session as string | undefined;
    if (session && !isSubjectToken(session)) throw new UsageError(`--session "${session}" must be 1-128 letters, digits, - or _`);
    if (session && positionals.length > 1) throw new UsageError('--session names one session: replay one file with it');
    const connection = replayConnection(values);
    const json = values.json === true;
    const reports: ReplayReport[] = [];
    for (const file of positionals) {
      let recording;
      try {
        recording = readRecording(file, format);
      } catch (error) {
        if (error instanceof RecordingError) {
          out.error(error.message);
          return 1;
        }
        throw error;
      }
      for (const warning of readingWarnings(file, recording)) out.warn(warning);
      const bar = new ProgressBar(process.stderr, !json && process.stderr.isTTY === true);
      try {
        reports.push(
          await replaySession({
            file,
            recording,
            ...connection,
            sessionId: session ?? replaySessionId(file),
            timing: timing as ReplayTiming,
            approvals,
            decisionTimeoutMs: integerOption(values, 'timeout-ms', REPLAY_DEFAULTS.decisionTimeoutMs),
            settleMs: integerOption(values, 'settle-ms', REPLAY_DEFAULTS.settleMs, 0),
            onProgress: (done, total, title) => bar.update(done, total, title),
          }),
        );
      } catch (error) {
        bar.clear();
        out.error(`cannot replay ${file}: ${(error as Error).message}`);
        return 1;
      }
      bar.clear();
      if (!json) out.line(`${renderReport(reports.at(-1)!, style)}\n`);
    }
    if (json) out.line(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2));
    return reports.some((r) => r.summary.undecided > 0) ? 1 : 0;
  },
};
