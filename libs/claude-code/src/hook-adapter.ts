import { derivedMessageId } from '@warden/contracts';
import type { AgentSession, ControlMessage, WardenClient } from '@warden/sdk';
import { approverFor, failsOpen, isInteractive, type AnswerPolicy, type SessionSurroundings } from './answer-policy.js';
import { readControlBacklog } from './control-backlog.js';
import {
  controlText,
  failClosedAnswer,
  failOpenAnswer,
  guidanceAnswer,
  preToolUseAnswer,
  promptAnswer,
  stopAnswer,
  stopReasonOf,
  stoppedAnswer,
  type ControlGuidance,
  type HookOutput,
} from './hook-answer.js';
import type { AnyHookInput, HookInput, SessionEndInput } from './hook-input.js';
import { claudeSessionDeclaration, type DeclarationSettings } from './session-declaration.js';
import { SEEN_CONTROLS_KEPT, type HookSessionState, type SessionStates } from './session-state.js';
import { filesTouched, outputExcerpt, toolAction } from './tool-action.js';
import { requestOf } from './transcript-goal.js';

/** Everything one hook call needs besides its payload; the transport (command or HTTP) supplies it. */
export interface HookContext {
  /** Connected as the agent, with `applyControl: false`: the adapter carries out stops itself. */
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
}

/**
 * What a call comes to: an answer for Claude Code (null: nothing to say), or an event that could not
 * be recorded (the tool already ran, or the session ended: Claude Code cannot be held there).
 */
export type HookOutcome = { kind: 'answer'; output: HookOutput | null; note?: string } | { kind: 'not_recorded'; why: string };

class DeadlineExceeded extends Error {}

const remainingOf = (ctx: HookContext) => Math.max(1, ctx.deadline - Date.now());

function beforeDeadline<T>(work: Promise<T>, ctx: HookContext, why: string): Promise<T> {
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

/** The answer when Warden could not decide on a PreToolUse: denied, or left to Claude Code for a fail-open tool. */
export function couldNotDecide(input: HookInput, policy: AnswerPolicy, why: string, guidance: ControlGuidance = { context: [] }): HookOutput {
  return failsOpen(policy, input.tool_name) ? failOpenAnswer(input.tool_name, why, guidance) : failClosedAnswer(why, guidance);
}

/** Why an event other than PreToolUse was not recorded, for the user. */
export function notRecordedWhy(input: AnyHookInput, why: string): string {
  if (input.hook_event_name === 'PostToolUse' || input.hook_event_name === 'PostToolUseFailure') {
    return `the outcome of ${input.tool_name} (${input.tool_use_id}) was not reported to Warden: ${why}`;
  }
  return `the ${input.hook_event_name} of session ${input.session_id} was not recorded in Warden: ${why}`;
}

/**
 * One Claude Code hook call under Warden, whatever carried it: declares the session, passes on control
 * messages, proposes a tool call and answers with Warden's decision, reports outcomes, records the end.
 * Never throws: every path ends in an outcome.
 */
export async function answerHook(input: AnyHookInput, ctx: HookContext): Promise<HookOutcome> {
  const pre = input.hook_event_name === 'PreToolUse';
  try {
    return await beforeDeadline(handle(input, ctx), ctx, `${pre ? 'no decision' : 'not done'} within ${ctx.deadlineMs} ms (the hook's deadline)`);
  } catch (error) {
    const why = (error as Error).message;
    if (pre) return { kind: 'answer', output: couldNotDecide(input as HookInput, ctx.policy, why) };
    return { kind: 'not_recorded', why: notRecordedWhy(input, why) };
  }
}

async function handle(input: AnyHookInput, ctx: HookContext): Promise<HookOutcome> {
  if (input.hook_event_name === 'SessionEnd') return endSession(input, ctx);
  const session = ctx.client.session(input.session_id);
  const live: ControlMessage[] = [];
  const unsubscribe = session.onControl((control) => live.push(control));
  try {
    // Stop with a turn already prolonged: nothing is taken, so nothing is lost for the next call.
    if ((input.hook_event_name === 'Stop' || input.hook_event_name === 'SubagentStop') && input.stop_hook_active) return { kind: 'answer', output: null };
    const taken = await takeControls(input, ctx, session, live);
    const noted = (output: HookOutput | null): HookOutcome => ({ kind: 'answer', output, ...(taken.note ? { note: taken.note } : {}) });
    switch (input.hook_event_name) {
      case 'SessionStart':
        return noted(guidanceAnswer('SessionStart', taken.guidance));
      case 'UserPromptSubmit':
        return noted(promptAnswer(taken.guidance));
      case 'Stop':
      case 'SubagentStop':
        return noted(stopAnswer(taken.guidance, false));
      case 'PostToolUse':
      case 'PostToolUseFailure': {
        await report(input, session);
        const after = await absorbLive(input.session_id, ctx, live, session);
        return noted(guidanceAnswer(input.hook_event_name, merge(taken.guidance, after)));
      }
      case 'PreToolUse':
        return noted(await decide(input, ctx, session, live, taken.guidance));
    }
  } finally {
    unsubscribe();
  }
}

async function decide(input: HookInput, ctx: HookContext, session: AgentSession, live: ControlMessage[], guidance: ControlGuidance): Promise<HookOutput | null> {
  if (guidance.stop) return stoppedAnswer(guidance.stop, guidance);
  const action = toolAction(input.tool_name, input.tool_input, { id: input.agent_id, type: input.agent_type });
  const approver = approverFor(ctx.policy, input.permission_mode, ctx.surroundings);
  const decision = await session.propose(
    {
      tool: action.tool,
      input: action.input,
      kind: action.kind,
      actionId: input.tool_use_id,
      ...(action.description ? { description: action.description } : {}),
      ...(action.subagent ? { subagent: action.subagent } : {}),
      // Claude Code's shell keeps the directory a `cd` moved it to: relative paths are read from there.
      ...(input.cwd ? { cwd: input.cwd } : {}),
    },
    // The call's own deadline ends the wait; the SDK's timer is only a backstop.
    { timeoutMs: remainingOf(ctx) + 1_000, approver },
  );
  const all = merge(guidance, await absorbLive(input.session_id, ctx, live, session));
  if (decision.decidedBy === 'fallback') return couldNotDecide(input, ctx.policy, decision.reason, all);
  if (all.stop) return stoppedAnswer(all.stop, all);
  return preToolUseAnswer(decision, all, { decide: ctx.policy.decide, interactive: isInteractive(input.permission_mode, ctx.surroundings) });
}

async function report(input: HookInput, session: AgentSession): Promise<void> {
  const action = toolAction(input.tool_name, input.tool_input);
  const failed = input.hook_event_name === 'PostToolUseFailure';
  const touched = filesTouched(action.tool, action.input);
  const excerpt = failed ? undefined : outputExcerpt(input.tool_response);
  await session.report({
    actionId: input.tool_use_id,
    tool: action.tool,
    status: failed ? 'error' : 'success',
    ...(failed ? { error: { message: (input.error ?? 'the tool failed').slice(0, 8000) } } : {}),
    ...(input.duration_ms !== undefined ? { durationMs: input.duration_ms } : {}),
    ...(touched ? { filesTouched: touched } : {}),
    ...(excerpt ? { outputExcerpt: excerpt } : {}),
  });
}

interface Taken {
  guidance: ControlGuidance;
  /** Why stored control messages could not be read, when they could not (for the user, verbose mode). */
  note?: string;
}

/**
 * Under the session's lock: declares the session (or its goal, once a prompt gives it), takes the
 * control messages not shown yet, and acknowledges those that ask for it.
 */
async function takeControls(input: Exclude<AnyHookInput, SessionEndInput>, ctx: HookContext, session: AgentSession, live: ControlMessage[]): Promise<Taken> {
  const { client } = ctx;
  const goal = input.hook_event_name === 'UserPromptSubmit' ? requestOf(input.prompt) : undefined;
  const absorbed = await ctx.states.update(input.session_id, Math.min(3_000, remainingOf(ctx)), async (state) => {
    if (!state.declared || (goal && !state.goalDeclared)) {
      const declaration = claudeSessionDeclaration({
        cwd: input.cwd,
        ...(input.transcript_path ? { transcriptPath: input.transcript_path } : {}),
        ...(goal ? { goal } : {}),
        ...(input.hook_event_name === 'SessionStart' && input.model ? { model: input.model } : {}),
        settings: ctx.declaration,
      });
      await client.publish(
        client.message('session.started', input.session_id, {
          // The goal's declaration is a message of its own: the first one stays de-duplicated.
          id: derivedMessageId('session.started', `${client.agentId}:${input.session_id}${state.declared ? ':goal' : ''}`),
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
      const backlog = await readControlBacklog(client.nc, client.agentId, input.session_id, state.controlSequence, Math.min(ctx.controlReadMs, remainingOf(ctx)));
      state.controlSequence = backlog.lastSequence;
      stored.push(...backlog.controls.map((c) => c.message));
      if (backlog.unavailable) note = `control messages stored for session ${input.session_id} could not be read (${backlog.unavailable}); only those sent during this call are shown`;
    }
    const result = absorb(state, [...stored, ...live.splice(0)]);
    return { ...result, ...(note ? { note } : {}) };
  });
  await acknowledge(session, absorbed.delivered);
  return { guidance: absorbed.guidance, ...(absorbed.note ? { note: absorbed.note } : {}) };
}

interface Absorbed {
  guidance: ControlGuidance;
  delivered: { control: ControlMessage; status: 'applied' | 'stopped' }[];
  note?: string;
}

/** Takes new control messages into the state: text for the model, the stop order, the resume that lifts it. */
function absorb(state: HookSessionState, controls: ControlMessage[]): Absorbed {
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
    result.delivered.push({ control, status: 'applied' });
  }
  if (state.stopped) result.guidance.stop = state.stopped;
  return result;
}

function merge(a: ControlGuidance, b: ControlGuidance): ControlGuidance {
  return { context: [...a.context, ...b.context], ...((b.stop ?? a.stop) ? { stop: b.stop ?? a.stop } : {}) };
}

/** Control messages that arrived while this call waited; recorded as seen so the next call does not show them again. */
async function absorbLive(sessionId: string, ctx: HookContext, live: ControlMessage[], session: AgentSession): Promise<ControlGuidance> {
  if (!live.length) return { context: [] };
  const absorbed = await ctx.states.update(sessionId, Math.min(3_000, remainingOf(ctx)), async (state) => absorb(state, live.splice(0)));
  await acknowledge(session, absorbed.delivered);
  return absorbed.guidance;
}

async function acknowledge(session: AgentSession, delivered: Absorbed['delivered']): Promise<void> {
  for (const { control, status } of delivered) {
    if (control.payload.requires_ack) await session.acknowledge(control, status);
  }
}

/**
 * SessionEnd: the run is over, and its end (session.ended) goes to the agent's track record on the
 * automation ladder. Claude Code does not say whether the task succeeded: a session that ends while
 * Warden has it stopped counts as `aborted`, any other as `success`. A session that was never declared
 * is not a run. Claude Code cannot be held here: the answer is always empty.
 */
async function endSession(input: SessionEndInput, ctx: HookContext): Promise<HookOutcome> {
  const { client } = ctx;
  if (!(await ctx.states.read(input.session_id)).declared) return { kind: 'answer', output: null };
  const session = client.session(input.session_id);
  const end = await ctx.states.update(input.session_id, Math.min(3_000, remainingOf(ctx)), async (state) => {
    // A stop sent after the last tool call still counts: read what was stored since.
    const backlog = await readControlBacklog(client.nc, client.agentId, input.session_id, state.controlSequence, Math.min(ctx.controlReadMs, remainingOf(ctx)));
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
  const summary = end.stopped ? `Claude Code session ended (${input.reason}) while Warden had it stopped: ${end.stopped}` : `Claude Code session ended (${input.reason})`;
  await client.publish(
    client.message('session.ended', input.session_id, {
      id: derivedMessageId('session.ended', `${client.agentId}:${input.session_id}:${end.run}`),
      payload: { status: end.stopped ? 'aborted' : 'success', summary: summary.slice(0, 4000) },
    }),
    Math.min(5_000, remainingOf(ctx)),
  );
  return { kind: 'answer', output: null };
}
