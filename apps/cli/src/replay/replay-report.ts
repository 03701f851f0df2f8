import type { VerdictKind } from '@warden/contracts';
import type { RecordingFormat, SkippedLine } from './recorded-session.js';
import { SUITE_CLOCK_PARTS } from './recording-clock.js';

export interface ReplayedAction {
  index: number;
  /** The id it was proposed under. */
  actionId: string;
  /** The recording's own id of the action when it was proposed under another (a positional `L22.0`). */
  recordedId?: string;
  tool: string;
  title: string;
  /** The reviewer's verdict (null when nobody reviewed it, e.g. Warden rejected the message). */
  verdict: VerdictKind | null;
  decision: 'allow' | 'deny' | 'none';
  decidedBy: string;
  reason: string;
  updatedInput?: Record<string, unknown>;
  /** The gate held the action for a human; the replay answered as its --approvals option says. */
  heldForApproval: boolean;
  /** What the recorded action did: reported to Warden when it was allowed, `not_run` when Warden denied it. */
  outcome: 'success' | 'error' | 'not_run' | 'none';
  /** Ids of the patterns that cite this action as evidence. */
  patterns: string[];
  latencyMs: number;
}

export interface ReplayedPattern {
  patternId: string;
  type: string;
  severity: string;
  confidence: number;
  description: string;
  evidence: string[];
  shadow: boolean;
}

export interface ReplayedIntervention {
  interventionId: string;
  type: string;
  severity: string;
  trigger: string;
  controlId?: string;
}

export interface ReplayedControl {
  controlId: string;
  kind: string;
  message?: string;
}

export interface ReplayedBreakerTrip {
  breaker: string;
  reason: string;
  currentValue: number;
  threshold: number;
}

export interface ReplaySummary {
  actions: number;
  allowed: number;
  /** Denied: by a block verdict, an operator, a gate timeout or a rejection of the message. */
  blocked: number;
  warned: number;
  modified: number;
  heldForApproval: number;
  rejected: number;
  /** Not proposed: the suite had stopped the session (emergency stop) before them. */
  stopped: number;
  undecided: number;
  patterns: number;
  interventions: number;
  breakerTrips: number;
  /** Damaged lines of the recording the reader skipped. */
  skippedLines: number;
}

export interface ReplayReport {
  file: string;
  format: RecordingFormat;
  recordedSessionId?: string;
  sessionId: string;
  agentId: string;
  actions: ReplayedAction[];
  patterns: ReplayedPattern[];
  interventions: ReplayedIntervention[];
  controls: ReplayedControl[];
  breakerTrips: ReplayedBreakerTrip[];
  /** How the replay kept time: its mode, how long the recording spans and how long the replay took. */
  timing: { mode: 'recorded' | 'compressed' | 'real'; recordedMs: number; replayedMs: number };
  /** Damaged lines of the recording the reader skipped (each also a warning). */
  skippedLines?: SkippedLine[];
  /** What the reader could not read, or read in a way worth knowing. */
  notes?: string[];
  /** Why the recorded session holds no action, when it holds none. */
  empty?: string;
  summary: ReplaySummary;
  /**
   * Steps after which the suite was still busy when the replay went on (it waits up to 10 s for every
   * consumer to be done): what followed may have been reviewed without all of it.
   */
  unsettledSteps?: number;
}

export function summarize(report: Omit<ReplayReport, 'summary'>): ReplaySummary {
  const a = report.actions;
  return {
    actions: a.length,
    allowed: a.filter((x) => x.decision === 'allow').length,
    blocked: a.filter((x) => x.decision === 'deny').length,
    warned: a.filter((x) => x.verdict === 'warn').length,
    modified: a.filter((x) => x.decision === 'allow' && x.updatedInput).length,
    heldForApproval: a.filter((x) => x.heldForApproval).length,
    rejected: a.filter((x) => x.decidedBy === 'rejected').length,
    stopped: a.filter((x) => x.decidedBy === 'stopped').length,
    undecided: a.filter((x) => x.decision === 'none').length,
    patterns: report.patterns.length,
    interventions: report.interventions.length,
    breakerTrips: report.breakerTrips.length,
    skippedLines: report.skippedLines?.length ?? 0,
  };
}

export interface Painter {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

function label(action: ReplayedAction, paint: Painter): string {
  if (action.decidedBy === 'rejected') return paint.yellow('REJECTED');
  if (action.decision === 'none') return paint.red('NO ANSWER');
  if (action.decidedBy === 'stopped') return paint.red('STOPPED');
  if (action.decision === 'deny') return paint.red('DENY');
  if (action.updatedInput) return paint.yellow('ALLOW (modified)');
  if (action.heldForApproval) return paint.yellow('ALLOW (approved)');
  return action.verdict === 'warn' ? paint.yellow('ALLOW (warned)') : paint.green('ALLOW');
}

/** The report for people: one block per action, then patterns, interventions, breaker trips and the summary. */
export function renderReport(report: ReplayReport, paint: Painter): string {
  const lines: string[] = [];
  const origin = report.recordedSessionId ? ` (recorded session ${report.recordedSessionId})` : '';
  lines.push(paint.bold(`Replay of ${report.file}: ${report.format} format${origin}, as session ${report.sessionId} of agent ${report.agentId}`));
  for (const note of report.notes ?? []) lines.push(paint.dim(`  reading: ${note}`));
  if (report.empty) lines.push(`  nothing to replay: ${report.empty}`);
  for (const action of report.actions) {
    lines.push(`  ${paint.bold(`${action.index}.`)} ${action.title}${action.recordedId ? paint.dim(` [${action.recordedId}]`) : ''}`);
    const held = action.heldForApproval ? ', held for approval' : '';
    lines.push(`     → ${label(action, paint)}  ${paint.dim(`verdict ${action.verdict ?? 'none'}, decided by ${action.decidedBy}${held}, ${action.latencyMs.toFixed(1)} ms`)}`);
    lines.push(`       ${action.reason}`);
    if (action.updatedInput) lines.push(`       ${paint.dim(`runs instead: ${JSON.stringify(action.updatedInput)}`)}`);
    if (action.patterns.length) lines.push(`       ${paint.dim(`evidence of pattern ${action.patterns.join(', ')}`)}`);
  }
  const indexOf = new Map(report.actions.map((a) => [a.actionId, a.index]));
  if (report.patterns.length) {
    lines.push('', paint.bold('Patterns'));
    for (const p of report.patterns) {
      const evidence = p.evidence.map((id) => (indexOf.has(id) ? `#${indexOf.get(id)}` : id)).join(', ');
      lines.push(`  ${p.type} (${p.severity}, confidence ${p.confidence.toFixed(2)}${p.shadow ? ', shadow' : ''}): ${p.description}`);
      lines.push(`    ${paint.dim(`evidence: actions ${evidence || 'none'}`)}`);
    }
  }
  if (report.interventions.length || report.controls.length) {
    lines.push('', paint.bold('Interventions'));
    for (const i of report.interventions) lines.push(`  ${i.type} (${i.severity}) triggered by ${i.trigger}${i.controlId ? `, control ${i.controlId}` : ''}`);
    // Control messages are often several lines of text for the model: kept, indented under their line.
    for (const c of report.controls) lines.push(`  sent to the agent: ${c.kind}${c.message ? `: ${c.message.trim().replace(/\n/g, '\n      ')}` : ''}`);
  }
  if (report.breakerTrips.length) {
    lines.push('', paint.bold('Breaker trips'));
    for (const t of report.breakerTrips) lines.push(`  ${t.breaker}: ${t.reason} (${t.currentValue} of ${t.threshold})`);
  }
  const s = report.summary;
  lines.push(
    '',
    paint.bold('Summary'),
    `  ${s.actions} actions: ${s.allowed} allowed, ${s.blocked} would have been blocked, ${s.warned} warned, ${s.modified} modified, ${s.heldForApproval} held for approval` +
      (s.rejected ? `, ${s.rejected} rejected as malformed` : '') +
      (s.stopped ? `, ${s.stopped} not run after the emergency stop` : '') +
      (s.undecided ? `, ${s.undecided} without an answer` : ''),
    `  ${s.patterns} pattern${s.patterns === 1 ? '' : 's'}, ${s.interventions} intervention${s.interventions === 1 ? '' : 's'}, ${s.breakerTrips} breaker trip${s.breakerTrips === 1 ? '' : 's'}`,
  );
  if (s.skippedLines) lines.push(paint.yellow(`  ${skippedText(report.skippedLines ?? [])} of the recording skipped (not JSON): their actions, if any, are not in the replay`));
  const timing = timingNote(report.timing);
  if (timing) lines.push(paint.dim(`  ${timing}`));
  if (report.unsettledSteps) {
    lines.push(paint.yellow(`  the suite was still busy after ${report.unsettledSteps} step(s): what followed may have been reviewed without all of it, and another replay may differ`));
  }
  return lines.join('\n');
}

/** `1 damaged line (line 80)`, `3 damaged lines (lines 4, 9, 12)`. */
export function skippedText(skipped: readonly SkippedLine[]): string {
  const lines = skipped.map((s) => s.line);
  const shown = lines.length > 5 ? `${lines.slice(0, 5).join(', ')}, …` : lines.join(', ');
  return `${skipped.length} damaged line${skipped.length === 1 ? '' : 's'} (line${skipped.length === 1 ? '' : 's'} ${shown})`;
}

const minutes = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`);

/**
 * Where the suite's answers can differ from `warden eval` on the same recording because of time, or
 * nothing when they cannot: a replay that took about as long as the recording spans.
 */
export function timingNote(timing: ReplayReport['timing']): string | undefined {
  const { mode, recordedMs, replayedMs } = timing;
  // The suite's shortest clocks (an intervention's cool-down) are tens of seconds.
  const faster = recordedMs > 2 * replayedMs && recordedMs - replayedMs > 10_000;
  if (mode === 'recorded') {
    return faster
      ? `timing: each message carried the recording's time, which the pattern detector and the intervention controller read as \`warden eval\` does; ${SUITE_CLOCK_PARTS} ran on the suite's clock: ${minutes(replayedMs)} here, ${minutes(recordedMs)} in the recording (and in \`warden eval\`)`
      : undefined;
  }
  return `timing: ${mode}, stamped with the replay's own time: windows and rates were read over ${minutes(replayedMs)} where the recording spans ${minutes(recordedMs)}; \`warden eval\` and \`--timing recorded\` read them on the recording's time`;
}
