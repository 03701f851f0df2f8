import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { anyChannelSubscription, createMessage, parseMessage, publishSubject, type AnyMessage, type PayloadOf } from '@warden/contracts';
import type { NatsSettings } from '@warden/messaging';
import { WardenClient, type ActionDecision } from '@warden/sdk';
import { actionSummary } from '@warden/agent-edge';
import type { RecordedAction, RecordedSession } from './recorded-session.js';
import { RecordingClock, recordedSpanMs } from './recording-clock.js';
import { summarize, type ReplayedAction, type ReplayReport } from './replay-report.js';
import { waitForQuiet } from './suite-quiet.js';

/** Defaults of `warden replay`, in one place. */
export const REPLAY_DEFAULTS = {
  /** How long one action may wait for its decision. */
  decisionTimeoutMs: 30_000,
  /** After the last action and the suite quiet, how long to keep listening for what is still on its way. */
  settleMs: 250,
  /** With --timing real: the longest pause kept between two actions. */
  maxGapMs: 60_000,
  connectTimeoutMs: 5_000,
  /**
   * Without the recorded pauses, the pause kept after a denied action: a live agent reads the denial before
   * its next call, and what the suite sends back (an emergency stop after a block) arrives in its place.
   */
  afterDenyMs: 500,
} as const;

export type ReplayTiming = 'recorded' | 'compressed' | 'real';

/** The operator id the replay answers held actions as. */
export const REPLAY_OPERATOR = 'warden-replay';

export interface ReplayOptions {
  file: string;
  recording: RecordedSession;
  /** The agent the session is replayed as (its NATS user). */
  agent: { servers: string; agentId: string; password?: string };
  /** Reads the session's verdicts, patterns, interventions and breaker events, and answers held actions: an operator user. */
  observer: NatsSettings;
  sessionId: string;
  /**
   * recorded: as fast as the suite answers, each message stamped with the recording's own time (what
   * `warden eval` judges on); compressed: as fast, stamped now; real: the recorded pauses, stamped now.
   */
  timing: ReplayTiming;
  /** What the replay answers when the gate holds an action for a human. */
  approvals: 'approve' | 'reject';
  decisionTimeoutMs: number;
  settleMs: number;
  onProgress?(done: number, total: number, title: string): void;
}

const titleOf = (action: RecordedAction) =>
  action.title ?? (typeof action.tool === 'string' && action.input && typeof action.input === 'object' ? actionSummary(action.tool, action.input) : `a malformed action (${JSON.stringify(action.tool)})`);

/**
 * Feeds a recorded session through the running suite as the agent would have: declares the session,
 * proposes every action and waits for its decision, reports the recorded outcome of the actions Warden
 * allowed, and records what the suite said about the session meanwhile (verdicts, patterns,
 * interventions and control messages, breaker trips).
 */
export async function replaySession(options: ReplayOptions): Promise<ReplayReport> {
  const { recording, agent, sessionId } = options;
  const began = performance.now();
  const observer = await connect({
    servers: options.observer.servers.split(',').map((s) => s.trim()),
    user: options.observer.user,
    pass: options.observer.password,
    name: 'warden-replay',
    timeout: REPLAY_DEFAULTS.connectTimeoutMs,
  });
  // Like a live agent that does not check its own messages: a malformed recorded action reaches Warden, which rejects it.
  let client: WardenClient | undefined;
  const seen: AnyMessage[] = [];
  const verdicts = new Map<string, PayloadOf<'review.verdict'>>();
  const holds = new Set<string>();
  try {
    client = await WardenClient.connect({
      servers: agent.servers,
      agentId: agent.agentId,
      password: agent.password,
      decisionTimeoutMs: options.decisionTimeoutMs,
      validate: false,
      // A replay restores no checkpoint on this machine and stops nothing: it records what was sent.
      applyControl: false,
      name: 'warden-replay-agent',
    });
    const sub = observer.subscribe(anyChannelSubscription(agent.agentId, sessionId), {
      callback: (error, msg) => {
        if (error) return;
        const parsed = parseMessage(msg.data);
        if (!parsed.ok) return;
        seen.push(parsed.message);
        if (parsed.message.type === 'review.verdict') {
          const verdict = parsed.message.payload as PayloadOf<'review.verdict'>;
          verdicts.set(verdict.action_id, verdict);
        }
        if (parsed.message.type === 'hitl.paused' && heldForAnswer(parsed.message.payload as PayloadOf<'hitl.paused'>)) {
          void answerHold(observer, agent.agentId, sessionId, options.approvals, holds, verdicts);
        }
      },
    });
    await observer.flush();

    const session = client.session(sessionId);
    let stop: string | undefined;
    session.onControl((control) => {
      if (control.payload.kind === 'emergency_stop') stop = control.payload.message ?? 'emergency stop';
      if (control.payload.kind === 'resume') stop = undefined;
    });
    // Stamped with the recording's own times (--timing recorded), the messages carry the clock eval judges on.
    const clock = options.timing === 'recorded' ? new RecordingClock(recording) : undefined;
    const stamp = (at: number | undefined) => (at !== undefined ? new Date(at) : undefined);
    // Declared as a replay: an emergency stop in it leaves the agent's track record alone.
    await session.start({ ...recording.declaration, replay: true }, stamp(clock?.declaredAt));
    let unsettled = (await waitForQuiet(observer)) ? 0 : 1;
    const actions: ReplayedAction[] = [];
    const total = recording.actions.length;
    let previousAt: number | undefined;
    for (const [i, recorded] of recording.actions.entries()) {
      const title = titleOf(recorded);
      options.onProgress?.(i, total, title);
      if (options.timing === 'real' && recorded.at) {
        const at = Date.parse(recorded.at);
        if (previousAt !== undefined && Number.isFinite(at) && at > previousAt) await sleep(Math.min(at - previousAt, REPLAY_DEFAULTS.maxGapMs));
        if (Number.isFinite(at)) previousAt = at;
      }
      if (stop !== undefined) {
        // A live agent would have stopped here: the rest of the recording would not have run.
        const reason = `Warden stopped this session: ${stop}`;
        actions.push({ index: i + 1, actionId: recorded.actionId, ...(recorded.recordedId ? { recordedId: recorded.recordedId } : {}), tool: String(recorded.tool), title, verdict: null, decision: 'deny', decidedBy: 'stopped', reason, heldForApproval: false, outcome: recorded.outcome ? 'not_run' : 'none', patterns: [], latencyMs: 0 });
        continue;
      }
      const proposedAt = stamp(clock?.action(recorded));
      if (recorded.request) {
        await session.changeGoal(recorded.request, 'user_prompt', proposedAt);
        // The goal travels on the session stream and the action on another, read by other consumers: the
        // action is proposed once the suite has applied the request it answers, as eval applies it.
        if (!(await waitForQuiet(observer))) unsettled++;
      }
      const decision = await session.propose({
        tool: recorded.tool,
        input: recorded.input,
        actionId: recorded.actionId,
        kind: recorded.kind ?? 'tool_use',
        ...(recorded.description ? { description: recorded.description } : {}),
        ...(recorded.phase ? { phase: recorded.phase } : {}),
        ...(recorded.cwd ? { cwd: recorded.cwd } : {}),
        ...(recorded.turn ? { turn: recorded.turn } : {}),
        ...(proposedAt ? { at: proposedAt } : {}),
      });
      const outcome = await reportOutcome(session, recorded, decision, clock);
      // The turn ended after this action: its last words, as the agent's Stop hook sends them.
      if (recorded.turnEnd) await session.turnEnded(recorded.turnEnd, (clock && recorded.outcome ? stamp(clock.outcome(recorded)) : undefined) ?? proposedAt);
      // The next action is reviewed knowing all this one caused (outcome, breakers, patterns, interventions):
      // two replays of a recording agree.
      if (!(await waitForQuiet(observer))) unsettled++;
      actions.push({
        index: i + 1,
        actionId: recorded.actionId,
        ...(recorded.recordedId ? { recordedId: recorded.recordedId } : {}),
        tool: String(recorded.tool),
        title,
        verdict: decision.verdict ?? verdicts.get(recorded.actionId)?.verdict ?? null,
        decision: decision.decidedBy === 'fallback' ? 'none' : decision.allowed ? 'allow' : 'deny',
        decidedBy: decision.decidedBy,
        reason: decision.reason,
        ...(decision.updatedInput ? { updatedInput: decision.updatedInput } : {}),
        heldForApproval:
          holds.has(recorded.actionId) || verdicts.get(recorded.actionId)?.verdict === 'require_approval' || decision.message?.payload.operator_id === REPLAY_OPERATOR,
        outcome,
        patterns: [],
        latencyMs: decision.latencyMs,
      });
      if (!decision.allowed && options.timing !== 'real') await sleep(REPLAY_DEFAULTS.afterDenyMs);
    }
    options.onProgress?.(total, total, 'waiting for patterns and interventions');
    await waitForQuiet(observer);
    await sleep(options.settleMs);
    sub.unsubscribe();
    const timing = { mode: options.timing, recordedMs: recordedSpanMs(recording), replayedMs: Math.round(performance.now() - began) };
    return { ...buildReport(options, actions, seen, timing), ...(unsettled ? { unsettledSteps: unsettled } : {}) };
  } finally {
    await client?.close();
    await observer.drain().catch(() => observer.close());
  }
}

async function reportOutcome(
  session: ReturnType<WardenClient['session']>,
  recorded: RecordedAction,
  decision: ActionDecision,
  clock: RecordingClock | undefined,
): Promise<ReplayedAction['outcome']> {
  if (!decision.allowed) return recorded.outcome ? 'not_run' : 'none';
  const o = recorded.outcome;
  if (!o) return 'none';
  const at = clock?.outcome(recorded);
  await session.report({
    ...(at !== undefined ? { at: new Date(at) } : {}),
    actionId: recorded.actionId,
    status: o.status,
    ...(typeof recorded.tool === 'string' ? { tool: recorded.tool } : {}),
    ...(o.error ? { error: { message: o.error.message.slice(0, 8000), ...(o.error.class ? { class: o.error.class } : {}) } } : {}),
    ...(o.durationMs !== undefined ? { durationMs: o.durationMs } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(o.tokens ? { tokens: o.tokens } : {}),
    ...(o.filesTouched ? { filesTouched: o.filesTouched } : {}),
    ...(o.output ? { outputExcerpt: o.output.slice(0, 4000) } : {}),
    ...(o.progress ? { progress: o.progress } : {}),
    ...(recorded.phase ? { phase: recorded.phase } : {}),
  });
  return o.status;
}

/**
 * A pause that holds actions for an answer (a require_approval verdict, a human gate, the proposal's
 * own flag), which the replay gives; not an operator's or an emergency stop's pause, which ends the
 * session as it would a live one.
 */
function heldForAnswer(paused: PayloadOf<'hitl.paused'>): boolean {
  return paused.trigger === 'require_approval' || paused.trigger === 'gate' || paused.trigger === 'hitl_required_flag';
}

/**
 * The gate paused the session for a human (a require_approval verdict or a human gate). A replay has no
 * human at hand: it answers as an operator, approving (the recorded session did run the action) or
 * rejecting as --approvals says, and marks the held actions.
 */
async function answerHold(
  nc: NatsConnection,
  agentId: string,
  sessionId: string,
  approvals: 'approve' | 'reject',
  holds: Set<string>,
  verdicts: Map<string, PayloadOf<'review.verdict'>>,
): Promise<void> {
  for (const [id, verdict] of verdicts) if (verdict.verdict === 'require_approval') holds.add(id);
  const command = createMessage('gate.command', {
    session_id: sessionId,
    agent_id: agentId,
    payload: { command_type: 'hitl_unpause', operator_id: REPLAY_OPERATOR, resolution: approvals, reason: `warden replay ${approvals}s what the recorded session held for approval` },
  });
  await jetstream(nc, { checkAPI: false }).publish(publishSubject('gate_command', agentId, sessionId), JSON.stringify(command), { msgID: command.id }).catch(() => undefined);
}

function buildReport(options: ReplayOptions, actions: ReplayedAction[], seen: AnyMessage[], timing: ReplayReport['timing']): ReplayReport {
  const of = <T extends AnyMessage['type']>(type: T) => seen.filter((m) => m.type === type).map((m) => m.payload as PayloadOf<T>);
  const patterns = of('pattern.detected').map((p) => ({
    patternId: p.pattern_id,
    type: p.pattern_type,
    severity: p.severity,
    confidence: p.confidence,
    description: p.description,
    evidence: p.evidence_action_ids,
    shadow: p.shadow,
  }));
  for (const action of actions) action.patterns = patterns.filter((p) => p.evidence.includes(action.actionId)).map((p) => p.patternId);
  const report: Omit<ReplayReport, 'summary'> = {
    file: options.file,
    format: options.recording.format,
    ...(options.recording.sessionId ? { recordedSessionId: options.recording.sessionId } : {}),
    sessionId: options.sessionId,
    agentId: options.agent.agentId,
    actions,
    patterns,
    interventions: of('intervention.issued').map((i) => ({
      interventionId: i.intervention_id,
      type: i.intervention_type,
      severity: i.severity,
      trigger: `${i.trigger.kind} ${i.trigger.issue_type}`,
      ...(i.control_id ? { controlId: i.control_id } : {}),
    })),
    controls: of('control.issued').map((c) => ({ controlId: c.control_id, kind: c.kind, ...(c.message ? { message: c.message } : {}) })),
    breakerTrips: of('breaker.tripped').map((t) => ({ breaker: t.breaker, reason: t.reason, currentValue: t.current_value, threshold: t.threshold })),
    timing,
    ...(options.recording.skippedLines?.length ? { skippedLines: options.recording.skippedLines } : {}),
    ...(options.recording.notes?.length ? { notes: options.recording.notes } : {}),
    ...(options.recording.empty ? { empty: options.recording.empty } : {}),
  };
  return { ...report, summary: summarize(report) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
