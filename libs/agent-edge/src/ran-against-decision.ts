import { derivedMessageId, type PayloadOf } from '@warden/contracts';
import type { WardenClient } from '@warden/sdk';
import type { AgentAdapter } from './agent-adapter.js';
import type { ControlGuidance } from './edge-answer.js';
import type { EdgeEvent } from './edge-event.js';
import type { HookSessionState, SessionStates } from './session-state.js';
import { toolAction } from './tool-action.js';

/**
 * How the edge answered a tool call Warden has no decision record for: denied because the session was
 * stopped, denied because Warden had not decided in time (`held`: held for an approval, or undecided),
 * or left to the agent's own rules because the policy fails open for the tool.
 */
export type UnrecordedAnswer = 'stopped' | 'held' | 'fail_open';

/** Calls the state remembers an unrecorded answer for: the latest ones, enough for the calls still running. */
const ANSWERS_KEPT = 64;

/**
 * Remembers how the edge answered a tool call that has no decision of Warden's behind it, so that the
 * call's outcome can be held against it (`checkRanAgainstDecision`). Never throws, never waits long: it
 * runs beside the answer.
 */
export async function noteUnrecordedAnswer(states: SessionStates, sessionId: string, callId: string, answer: UnrecordedAnswer): Promise<void> {
  try {
    await states.update(sessionId, 1_500, async (state) => {
      const kept = (state.unrecordedAnswers ?? []).filter(([id]) => id !== callId);
      state.unrecordedAnswers = [...kept, [callId, answer] as [string, UnrecordedAnswer]].slice(-ANSWERS_KEPT);
    });
  } catch {
    // The outcome is then judged without it: a call Warden had not decided reads as never proposed.
  }
}

const answerOf = (state: HookSessionState, callId: string) => state.unrecordedAnswers?.find(([id]) => id === callId)?.[1];

type Finding = Pick<PayloadOf<'action.ran_against_decision'>, 'warden_decision' | 'reason' | 'decided_by' | 'decision_message_id'>;

/** What Warden had said of a call that ran: a finding when it ran against it, undefined when Warden allowed it (or cannot tell). */
async function findingFor(client: WardenClient, states: SessionStates, sessionId: string, callId: string, waitMs: number): Promise<Finding | undefined> {
  let record;
  try {
    record = await client.storedDecision(sessionId, callId, waitMs);
  } catch {
    // Warden's record cannot be read now: no incident on a guess.
    return undefined;
  }
  if (record) {
    const decision = record.decision;
    if (decision.payload.decision !== 'deny') return undefined;
    return { warden_decision: 'denied', reason: decision.payload.reason.slice(0, 4000), decided_by: decision.payload.decided_by, decision_message_id: decision.id };
  }
  const answer = answerOf(await states.read(sessionId), callId);
  if (answer === 'fail_open') return undefined;
  if (answer === 'stopped') return { warden_decision: 'stopped', reason: 'the session was stopped (emergency stop): every tool call was denied' };
  if (answer === 'held') return { warden_decision: 'held', reason: 'Warden had not decided (held for an approval, or undecided when the hook answered): the call was denied' };
  return { warden_decision: 'never_proposed', reason: 'no hook proposed this tool call to Warden before it ran' };
}

const WHAT_WARDEN_SAID: Record<Finding['warden_decision'], string> = {
  denied: 'Warden denied it',
  stopped: 'Warden had stopped the session',
  held: 'Warden had not approved it',
  never_proposed: 'Warden never saw it proposed',
};

/**
 * The outcome of a tool call (a PostToolUse, or the agent's equivalent) held against what Warden decided
 * of it. A call Warden denied, still held, or never saw proposed (a subagent whose hooks did not run
 * before it) ran against Warden's decision: `action.ran_against_decision` is published (the audit keeps
 * it, the console shows it, the intervention controller answers it: an emergency stop for what Warden
 * blocked) and the model is told. Returns the text for the model; never throws.
 */
export async function checkRanAgainstDecision(
  event: Extract<EdgeEvent, { type: 'after_tool' }>,
  context: { client: WardenClient; states: SessionStates; adapter: AgentAdapter; waitMs: number },
): Promise<ControlGuidance> {
  const { client, states, adapter } = context;
  const { call, session } = event;
  const finding = await findingFor(client, states, session.id, call.id, context.waitMs);
  if (!finding) return { context: [] };
  const action = toolAction(call.tool, call.input);
  const payload: PayloadOf<'action.ran_against_decision'> = {
    action_id: call.id,
    tool: action.tool,
    input: action.input,
    ...finding,
    status: event.result.ok ? 'success' : 'error',
    reported_by: `${adapter.name} after-tool hook`,
    ...(session.subagent ? { subagent: session.subagent } : {}),
  };
  try {
    await client.publish(client.message('action.ran_against_decision', session.id, { id: derivedMessageId('action.ran_against_decision', `${client.agentId}:${session.id}:${call.id}`), payload }), Math.max(1, context.waitMs));
  } catch {
    // Not recorded: the answer still tells the model.
  }
  return { context: [`Warden: ${call.tool} (${call.id}) ran although ${WHAT_WARDEN_SAID[finding.warden_decision]}${finding.reason ? ` (${finding.reason})` : ''}. This is reported to the operator as an incident; do not run actions Warden denied.`] };
}
