import { derivedMessageId, GOAL_MAX_LENGTH } from '@warden/contracts';
import type { AgentSession, ControlMessage, FallbackRecord, WardenClient } from '@warden/sdk';
import type { AgentAdapter } from './agent-adapter.js';
import { approverFor, failsOpen, isInteractive, type AnswerPolicy, type SessionSurroundings } from './answer-policy.js';
import { callUnderLock, outcomeId, proposalId, recordProposal, type ProposalId } from './derived-calls.js';
import { canAsk, stoppedAnswer, toolCallAnswer, undecidedAnswer } from './capabilities.js';
import {
  controlText,
  guidanceAnswer,
  mergeGuidance,
  promptAnswer,
  stopReasonOf,
  turnEndAnswer,
  type ControlGuidance,
  type EdgeAnswer,
} from './edge-answer.js';
import type { EdgeEvent, EdgeSession, EdgeToolCall } from './edge-event.js';
import { sessionDeclaration, type DeclarationSettings } from './session-declaration.js';
import { SEEN_CONTROLS_KEPT, type HookSessionState, type SessionStates } from './session-state.js';
import { filesTouched, outputExcerpt, reportedFailure, toolAction } from './tool-action.js';
import { checkRanAgainstDecision, noteUnrecordedAnswer } from './ran-against-decision.js';
import { reportTranscriptUsage } from './transcript-usage.js';

/** Everything one hook call needs besides its event; the transport (command or HTTP) supplies it. */
export interface EdgeContext {
  adapter: AgentAdapter;
  /** Connected as the agent, with `applyControl: false`: the edge carries out stops itself. */
  client: WardenClient;
  states: SessionStates;
  policy: AnswerPolicy;
  surroundings: SessionSurroundings;
  declaration: DeclarationSettings;
  /** Read the control messages stored for the session since the state's cursor (else only those that arrive live). */
  readStoredControls: boolean;
  controlReadMs: number;
  /** When this call must have answered (epoch ms), and the setting it comes from, for the reason. */
  deadline: number;
  deadlineMs: number;
  /** Who answers when Warden does not (recorded with each such answer: `action.fallback`). */
  answeredBy: 'hook' | 'gateway';
  /** Read the session's model usage from its transcript: no telemetry of the agent reaches Warden (`usage=transcript`). */
  usageFromTranscript?: boolean;
}

/**
 * What a call comes to: Warden's answer, or an event that could not be recorded (the tool already ran,
 * or the session ended: the agent cannot be held there). `settle`: what follows the answer, off the
 * decision's path (the record of a call the agent names no id for, recordProposal): the transport runs
 * it once the agent has its answer, and before it ends; it never throws.
 */
export type EdgeOutcome = { kind: 'answer'; answer: EdgeAnswer; note?: string; settle?: () => Promise<void> } | { kind: 'not_recorded'; why: string };

class DeadlineExceeded extends Error {}

const remainingOf = (ctx: { deadline: number }) => Math.max(1, ctx.deadline - Date.now());

function beforeDeadline<T>(work: Promise<T>, ctx: EdgeContext, why: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DeadlineExceeded(why)), remainingOf(ctx));
    timer.unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: Error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The answer to an event Warden could not handle: a tool call is denied (or left to the agent where the policy fails open); anything else is said to be unrecorded. */
export function unhandledOutcome(event: EdgeEvent, adapter: AgentAdapter, policy: AnswerPolicy, why: string): EdgeOutcome {
  if (event.type === 'before_tool') return { kind: 'answer', answer: undecidedAnswer(failsOpen(policy, event.call.tool), adapter.title, event.call.tool, why) };
  return { kind: 'not_recorded', why: notRecordedWhy(event, why) };
}

/** Why an event other than a tool call was not recorded, for the user. */
export function notRecordedWhy(event: EdgeEvent, why: string): string {
  if (event.type === 'after_tool') return `the outcome of ${event.call.tool} (${event.call.id}) was not reported to Warden: ${why}`;
  return `the ${event.type.replace(/_/g, ' ')} of session ${event.session.id} was not recorded in Warden: ${why}`;
}

/**
 * One hook call of any agent under Warden, whatever carried it: declares the session, passes on control
 * messages, proposes a tool call and answers with Warden's decision in the terms the agent can take
 * (its adapter's capabilities), reports outcomes, records the end. Never throws: every path ends in an
 * outcome, and a tool call Warden could not decide on in time is denied (fail closed).
 */
export async function answerEvent(event: EdgeEvent, ctx: EdgeContext): Promise<EdgeOutcome> {
  // The id a call the agent names no id for is proposed under, once it has one: what an answer given without Warden's decision is recorded under.
  const named: { proposal?: ProposalId } = {};
  try {
    return await beforeDeadline(handle(event, ctx, named), ctx, `${event.type === 'before_tool' ? 'no decision' : 'not done'} within ${ctx.deadlineMs} ms (the hook's deadline)`);
  } catch (error) {
    const { proposal } = named;
    const called = event.type === 'before_tool' && proposal ? withId(event, proposal.id) : event;
    const outcome = unhandledOutcome(called, ctx.adapter, ctx.policy, (error as Error).message);
    if (outcome.kind !== 'answer') return outcome;
    answeredUndecided(called, outcome.answer, ctx);
    return event.type === 'before_tool' && proposal ? { ...outcome, settle: recording(event, proposal, outcome.answer, ctx) } : outcome;
  }
}

/** An event whose call goes under the id given to it (a call the agent names no id for). */
const withId = <E extends { call: EdgeToolCall }>(event: E, id: string): E => ({ ...event, call: { ...event.call, id } });

/** Records a derived call once the agent has its answer (recordProposal). A record that cannot be stored leaves its outcome under no proposal. */
function recording(event: Extract<EdgeEvent, { type: 'before_tool' }>, proposal: ProposalId, answer: EdgeAnswer, ctx: EdgeContext): () => Promise<void> {
  const refused = answer.tool?.decision === 'deny';
  return () => recordProposal(ctx.states, event.session.id, event.call, proposal, refused).catch(() => undefined);
}

/** The record of a tool call's answer given without Warden's decision (`action.fallback`); none for other events. */
export function fallbackRecord(event: EdgeEvent, answer: EdgeAnswer, answeredBy: 'hook' | 'gateway'): FallbackRecord | undefined {
  if (event.type !== 'before_tool') return undefined;
  const tool = answer.tool;
  return {
    sessionId: event.session.id,
    action_id: event.call.id,
    tool: event.call.tool.slice(0, 256),
    decision: tool?.decision === 'deny' ? 'deny' : 'allow',
    reason: (tool?.decision === 'deny' ? tool.reason : (answer.notice ?? "left to the agent's own rules")).slice(0, 4000),
    answered_by: answeredBy,
    answered_at: new Date().toISOString(),
  };
}

/**
 * Records a tool call's answer given without Warden's decision: the record then shows what the agent
 * was told beside what Warden decided later. Sent in the background, or once Warden can be reached again.
 */
export function recordUndecided(event: EdgeEvent, answer: EdgeAnswer, client: Pick<WardenClient, 'recordFallback'>, answeredBy: 'hook' | 'gateway'): void {
  const record = fallbackRecord(event, answer, answeredBy);
  if (record) void client.recordFallback(record);
}

/** A tool call answered without Warden's decision: its outcome is held against that answer, and the answer is on record. */
function answeredUndecided(event: EdgeEvent, answer: EdgeAnswer, ctx: EdgeContext): void {
  if (event.type === 'before_tool') void noteUnrecordedAnswer(ctx.states, event.session.id, event.call.id, failsOpen(ctx.policy, event.call.tool) ? 'fail_open' : 'held');
  recordUndecided(event, answer, ctx.client, ctx.answeredBy);
}

async function handle(event: EdgeEvent, ctx: EdgeContext, named: { proposal?: ProposalId }): Promise<EdgeOutcome> {
  if (event.type === 'session_end') return endSession(event, ctx);
  const session = ctx.client.session(event.session.id);
  const live: ControlMessage[] = [];
  const unsubscribe = session.onControl((control) => live.push(control));
  try {
    // A turn already prolonged: nothing is taken, so nothing is lost for the next call.
    if (event.type === 'stop' && event.prolonged) return { kind: 'answer', answer: { context: [] } };
    // What the turn's last words claim is held against what it did (the pattern detector's claims).
    if (event.type === 'stop' && event.words) await session.turnEnded(event.words);
    // A refused call never ran and its answer carries nothing to the model: reported, and nothing is taken.
    if (event.type === 'after_tool' && event.result.refused && !event.call.derived) {
      await report(event, session, ctx.adapter.turnOf?.(event.session, event.call));
      return { kind: 'answer', answer: { context: [] } };
    }
    const taken = await takeControls(event, ctx, session, live);
    // Off the tool call's path: what the model spent so far is read when a tool has run or a turn ends.
    if (ctx.usageFromTranscript && (event.type === 'after_tool' || event.type === 'stop')) {
      await reportTranscriptUsage(event, { client: ctx.client, states: ctx.states, agentKind: ctx.adapter.agentKind, waitMs: Math.min(3_000, remainingOf(ctx)) });
    }
    const noted = (answer: EdgeAnswer): Extract<EdgeOutcome, { kind: 'answer' }> => ({ kind: 'answer', answer, ...(taken.note ? { note: taken.note } : {}) });
    const waitMs = () => Math.min(3_000, remainingOf(ctx));
    switch (event.type) {
      case 'session_start':
        return noted(guidanceAnswer(taken.guidance));
      case 'prompt':
        return noted(promptAnswer(taken.guidance));
      case 'stop':
        return noted(turnEndAnswer(taken.guidance, false));
      case 'after_tool': {
        // A call the agent names no id for is reported under the id its proposal went under (derived-calls.ts).
        const ran = event.call.derived ? withId(event, taken.callId ?? (await outcomeId(ctx.states, event.session.id, event.call, waitMs()))) : event;
        await report(ran, session, ctx.adapter.turnOf?.(ran.session, ran.call));
        const against = await checkRanAgainstDecision(ran, { client: ctx.client, states: ctx.states, adapter: ctx.adapter, waitMs: Math.min(2_000, remainingOf(ctx)) });
        const after = await absorbLive(event, ctx, live, session);
        return noted(guidanceAnswer(mergeGuidance(mergeGuidance(taken.guidance, against), after)));
      }
      case 'before_tool': {
        if (!event.call.derived) return noted(await decide(event, ctx, session, live, taken.guidance));
        const given = proposalId(ctx.states, event.session.id, event.call, waitMs(), taken.stored === true);
        // Awaited only when settled on the stored state: a new call's id is given at once.
        const proposal = given instanceof Promise ? await given : given;
        named.proposal = proposal;
        const answer = await decide(withId(event, proposal.id), ctx, session, live, taken.guidance);
        return { ...noted(answer), settle: recording(event, proposal, answer, ctx) };
      }
    }
  } finally {
    unsubscribe();
  }
}

function interactiveOf(session: EdgeSession, ctx: EdgeContext): boolean {
  return ctx.adapter.interactive ? ctx.adapter.interactive(session, ctx.surroundings) : isInteractive(session.permissionMode, ctx.surroundings);
}

async function decide(event: Extract<EdgeEvent, { type: 'before_tool' }>, ctx: EdgeContext, session: AgentSession, live: ControlMessage[], guidance: ControlGuidance): Promise<EdgeAnswer> {
  if (guidance.stop) {
    void noteUnrecordedAnswer(ctx.states, event.session.id, event.call.id, 'stopped');
    return stoppedAnswer(guidance.stop, guidance);
  }
  const { call } = event;
  const { adapter } = ctx;
  const action = toolAction(call.tool, call.input, event.session.subagent);
  const interactive = interactiveOf(event.session, ctx);
  const decision = await session.propose(
    {
      tool: action.tool,
      input: action.input,
      kind: action.kind,
      actionId: call.id,
      ...(action.description ? { description: action.description } : {}),
      ...(action.subagent ? { subagent: action.subagent } : {}),
      // The agent's shell keeps the directory a `cd` moved it to: relative paths are read from there.
      ...(event.session.cwd ? { cwd: event.session.cwd } : {}),
    },
    // The call's own deadline ends the wait; the SDK's timer is only a backstop.
    { timeoutMs: remainingOf(ctx) + 1_000, approver: approverFor(ctx.policy, interactive, canAsk(adapter.capabilities, call.tool)) },
  );
  const all = mergeGuidance(guidance, await absorbLive(event, ctx, live, session));
  if (decision.decidedBy === 'fallback') {
    const undecided = undecidedAnswer(failsOpen(ctx.policy, call.tool), adapter.title, call.tool, decision.reason, all);
    answeredUndecided(event, undecided, ctx);
    return undecided;
  }
  if (all.stop) return stoppedAnswer(all.stop, all);
  return toolCallAnswer(decision, adapter.capabilities, { decide: ctx.policy.decide, interactive }, call.tool, all);
}

async function report(event: Extract<EdgeEvent, { type: 'after_tool' }>, session: AgentSession, turn: string | undefined): Promise<void> {
  const { call, result } = event;
  // A call cancelled for a sibling's failure did not fail: counting it would make one failure many.
  if (result.cancelled) return;
  const action = toolAction(call.tool, call.input);
  const touched = filesTouched(action.tool, action.input);
  const failure = result.ok ? reportedFailure(call.input, result.output) : undefined;
  const ok = result.ok && failure === undefined;
  const excerpt = ok ? outputExcerpt(result.output) : undefined;
  await session.report({
    actionId: call.id,
    tool: action.tool,
    status: ok ? 'success' : 'error',
    ...(ok ? {} : { error: { message: (failure ?? result.error ?? 'the tool failed').slice(0, 8000) } }),
    ...(result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
    ...(touched ? { filesTouched: touched } : {}),
    ...(excerpt ? { outputExcerpt: excerpt } : {}),
    ...(turn ? { turn } : {}),
  });
}

interface Taken {
  guidance: ControlGuidance;
  /** Why stored control messages could not be read, when they could not (for the user, verbose mode). */
  note?: string;
  /** For a call the agent names no id for (callUnderLock): an outcome's id, taken under the lock; or, `stored`, to be settled on the stored state. */
  callId?: string;
  stored?: boolean;
}

/** The user's request in a prompt, as the goal; undefined when the prompt asks for no work. */
function requestIn(prompt: string, adapter: AgentAdapter): string | undefined {
  if (adapter.requestOf) return adapter.requestOf(prompt);
  return prompt.trim() ? prompt.trim().slice(0, GOAL_MAX_LENGTH) : undefined;
}

/**
 * Under the session's lock: declares the session (or its goal, once a prompt gives it), takes the
 * control messages not shown yet, and acknowledges those that ask for it.
 */
async function takeControls(event: Exclude<EdgeEvent, { type: 'session_end' }>, ctx: EdgeContext, session: AgentSession, live: ControlMessage[]): Promise<Taken> {
  const { client, adapter } = ctx;
  const goal = event.type === 'prompt' ? requestIn(event.prompt, adapter) : undefined;
  const absorbed = await ctx.states.update(event.session.id, Math.min(3_000, remainingOf(ctx)), async (state) => {
    if (!state.declared || (goal && !state.goalDeclared)) {
      const cwd = event.session.cwd ?? '/';
      // A session first seen after its prompt (a hook installed mid-session) takes the goal from the agent's record.
      const fromRecord = !goal && !ctx.declaration.goal && event.session.transcriptPath ? adapter.goalFromTranscript?.(event.session.transcriptPath) : undefined;
      const recorded = goal ?? fromRecord;
      const declaration = sessionDeclaration({
        agentKind: adapter.agentKind,
        cwd,
        ...(recorded ? { goal: recorded } : {}),
        ...(event.type === 'session_start' && event.session.model ? { model: event.session.model } : {}),
        settings: ctx.declaration,
      });
      await client.publish(
        client.message('session.started', event.session.id, {
          // The goal's declaration is a message of its own: the first one stays de-duplicated.
          id: derivedMessageId('session.started', `${client.agentId}:${event.session.id}${state.declared ? ':goal' : ''}`),
          payload: declaration,
        }),
        Math.min(5_000, remainingOf(ctx)),
      );
      state.declared = true;
      if (declaration.context.goal) state.goalDeclared = true;
    } else if (goal) {
      // A follow-up request steers the session: the goal becomes the first request and the latest one.
      await session.changeGoal(goal);
    }
    let note: string | undefined;
    const stored: ControlMessage[] = [];
    if (ctx.readStoredControls) {
      const backlog = await client.storedControls(event.session.id, state.controlSequence, Math.min(ctx.controlReadMs, remainingOf(ctx)));
      state.controlSequence = backlog.lastSequence;
      stored.push(...backlog.controls.map((c) => c.message));
      if (backlog.unavailable) note = `control messages stored for session ${event.session.id} could not be read (${backlog.unavailable}); only those sent during this call are shown`;
    }
    const result = absorb(state, [...stored, ...live.splice(0)], ctx.adapter, heardAt(event, ctx));
    const derived = (event.type === 'before_tool' || event.type === 'after_tool') && event.call.derived ? callUnderLock(state, event.type, event.call) : undefined;
    return { ...result, ...(note ? { note } : {}), ...derived };
  });
  await acknowledge(session, absorbed.delivered);
  const { guidance, note, callId, stored } = absorbed;
  return { guidance, ...(note ? { note } : {}), ...(callId !== undefined ? { callId } : {}), ...(stored !== undefined ? { stored } : {}) };
}

interface Absorbed {
  guidance: ControlGuidance;
  delivered: { control: ControlMessage; status: 'applied' | 'failed' | 'stopped'; detail?: string }[];
  note?: string;
}

/** Whether the agent's answer to this event can carry text for the model (AgentCapabilities.contextOn). */
const heardAt = (event: EdgeEvent, ctx: EdgeContext): boolean => ctx.adapter.capabilities.contextOn?.(event) ?? true;

/**
 * Takes new control messages into the state: text for the model, the stop order, the resume that lifts
 * it. At an event whose answer cannot carry text for the model, the text waits in the state for the next
 * one that can.
 */
function absorb(state: HookSessionState, controls: ControlMessage[], adapter: AgentAdapter, heard: boolean): Absorbed {
  const seen = new Set(state.seenControls);
  const result: Absorbed = { guidance: { context: [] }, delivered: [] };
  for (const control of controls) {
    if (seen.has(control.id)) continue;
    seen.add(control.id);
    state.seenControls = [...state.seenControls, control.id].slice(-SEEN_CONTROLS_KEPT);
    if (control.payload.kind === 'emergency_stop') {
      state.stopped = stopReasonOf(control);
      result.delivered.push({ control, status: 'stopped' });
      continue;
    }
    if (control.payload.kind === 'resume') delete state.stopped;
    result.guidance.context.push(controlText(control));
    // An agent whose hooks pass no text to its model never reads it: not applied, so Warden can escalate.
    const told = adapter.capabilities.context || control.payload.kind === 'resume';
    result.delivered.push(told ? { control, status: 'applied' } : { control, status: 'failed', detail: `${adapter.title}'s hooks cannot pass text to its model` });
  }
  if (state.stopped) result.guidance.stop = state.stopped;
  if (!heard) {
    if (result.guidance.context.length) state.unshownContext = [...(state.unshownContext ?? []), ...result.guidance.context].slice(-SEEN_CONTROLS_KEPT);
    result.guidance.context = [];
  } else if (state.unshownContext?.length) {
    result.guidance.context.unshift(...state.unshownContext);
    delete state.unshownContext;
  }
  return result;
}

/** Control messages that arrived while this call waited; recorded as seen so the next call does not show them again. */
async function absorbLive(event: Exclude<EdgeEvent, { type: 'session_end' }>, ctx: EdgeContext, live: ControlMessage[], session: AgentSession): Promise<ControlGuidance> {
  if (!live.length) return { context: [] };
  const absorbed = await ctx.states.update(event.session.id, Math.min(3_000, remainingOf(ctx)), async (state) => absorb(state, live.splice(0), ctx.adapter, heardAt(event, ctx)));
  await acknowledge(session, absorbed.delivered);
  return absorbed.guidance;
}

async function acknowledge(session: AgentSession, delivered: Absorbed['delivered']): Promise<void> {
  for (const { control, status, detail } of delivered) {
    if (control.payload.requires_ack) await session.acknowledge(control, status, detail);
  }
}

/**
 * The end of a session: the run is over, and its end (session.ended) goes to the agent's track record on
 * the automation ladder. Agents do not say whether the task succeeded: a session that ends while Warden
 * has it stopped counts as `aborted`, any other as `success`. A session that was never declared is not a
 * run. The agent cannot be held here: the answer is always empty.
 */
async function endSession(event: Extract<EdgeEvent, { type: 'session_end' }>, ctx: EdgeContext): Promise<EdgeOutcome> {
  const { client, adapter } = ctx;
  const id = event.session.id;
  if (!(await ctx.states.read(id)).declared) return { kind: 'answer', answer: { context: [] } };
  const session = client.session(id);
  const end = await ctx.states.update(id, Math.min(3_000, remainingOf(ctx)), async (state) => {
    // A stop sent after the last tool call still counts: read what was stored since.
    const backlog = await client.storedControls(id, state.controlSequence, Math.min(ctx.controlReadMs, remainingOf(ctx)));
    let stopped = state.stopped;
    const stops: ControlMessage[] = [];
    for (const { message } of backlog.controls) {
      if (message.payload.kind === 'emergency_stop') {
        stopped = stopReasonOf(message);
        stops.push(message);
      } else if (message.payload.kind === 'resume') {
        stopped = undefined;
      }
    }
    state.endedRuns = (state.endedRuns ?? 0) + 1;
    return { stopped, stops, run: state.endedRuns };
  });
  // The session is over, so a stop it had not seen yet is carried out: confirm it as stopped.
  for (const stop of end.stops) if (stop.payload.requires_ack) await session.acknowledge(stop, 'stopped');
  const summary = end.stopped ? `${adapter.title} session ended (${event.reason}) while Warden had it stopped: ${end.stopped}` : `${adapter.title} session ended (${event.reason})`;
  await client.publish(
    client.message('session.ended', id, {
      id: derivedMessageId('session.ended', `${client.agentId}:${id}:${end.run}`),
      payload: { status: end.stopped ? 'aborted' : 'success', summary: summary.slice(0, 4000) },
    }),
    Math.min(5_000, remainingOf(ctx)),
  );
  return { kind: 'answer', answer: { context: [] } };
}
