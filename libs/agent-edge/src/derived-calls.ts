import { hasOpenCall, newCallId, noteOutcome, noteProposed, noteRefused, repeatedCallId } from './call-id.js';
import type { EdgeToolCall } from './edge-event.js';
import type { HookSessionState, SessionStates } from './session-state.js';

/**
 * How long an outcome waits for the record of its call when the session's state has none open: the record
 * is stored once the agent has its answer, by whichever replica gave it, and the outcome may come through
 * another replica (the command shim alone takes longer to start than the record to be stored).
 */
export const RECORD_WAIT_MS = 2_000;

/**
 * How long after the answer a call's record is stored, unless its outcome comes first to the same
 * process (then one write stores both): shorter than any agent's outcome takes through another replica's
 * command shim, which waits for it all the same (RECORD_WAIT_MS).
 */
export const RECORD_DELAY_MS = 10;

/**
 * A derived call under the session's lock, in the update the edge makes of the state at every call: an
 * outcome whose call this process holds open takes its id and closes it (written with that update's
 * compare-and-set, which runs it again on the stored state when another replica wrote since). Otherwise
 * `stored`: the id is settled on the state as stored (outcomeId, proposalId), for an outcome whose call
 * is not open here (another replica may have proposed it) and a proposal that looks like its hook
 * delivered again (another replica may have closed that call since).
 */
export function callUnderLock(state: HookSessionState, type: 'before_tool' | 'after_tool', call: EdgeToolCall): { callId?: string; stored: boolean } {
  if (type === 'after_tool') return hasOpenCall(state, call) ? { callId: noteOutcome(state, call), stored: false } : { stored: true };
  return { stored: repeatedCallId(state, call) !== undefined };
}

/** The id a derived call is proposed under. */
export interface ProposalId {
  id: string;
  /** Its record is in the stored state already (settled there: the hook delivered again, or checked for being so). */
  recorded: boolean;
}

/**
 * Names a call the agent names no id for, before it is proposed. A new call takes a new id at once, unique
 * whatever another replica does: nothing is written before the proposal (its record follows the answer,
 * recordProposal). The same hook delivered again while its call is open keeps the call's id, settled on the
 * stored state.
 */
export function proposalId(states: SessionStates, sessionId: string, call: EdgeToolCall, waitMs: number, stored: boolean): ProposalId | Promise<ProposalId> {
  const id = newCallId(call.id);
  return stored ? settledProposalId(states, sessionId, call, waitMs, id) : { id, recorded: false };
}

/** A proposal that looks like its hook delivered again, settled on the stored state. */
async function settledProposalId(states: SessionStates, sessionId: string, call: EdgeToolCall, waitMs: number, id: string): Promise<ProposalId> {
  const settled = await states.update(
    sessionId,
    waitMs,
    async (state) => {
      const repeated = repeatedCallId(state, call);
      if (repeated) return repeated;
      noteProposed(state, call, id);
      return id;
    },
    { latest: true },
  );
  return { id: settled, recorded: true };
}

/**
 * Records what a derived call's outcome is reported under, once the agent has its answer: this process
 * sees it at once, and it is stored off the decision's path (SessionStates.later); a call the agent was
 * told not to run is closed, so that the same payload again is a new call. Nothing to record for a call
 * recorded already and not refused.
 */
export async function recordProposal(states: SessionStates, sessionId: string, call: EdgeToolCall, proposal: ProposalId, refused: boolean): Promise<void> {
  if (proposal.recorded && !refused) return;
  await states.later(sessionId, (state) => (proposal.recorded ? noteRefused(state, call, proposal.id) : noteProposed(state, call, proposal.id, refused)), RECORD_DELAY_MS);
}

/**
 * The id of an outcome whose call this process does not hold open (callUnderLock): its call's latest
 * proposal in the stored state, closed by it. When that holds no open call of the key, the call's record
 * may still be on its way from the replica that answered it: the outcome waits for it (RECORD_WAIT_MS)
 * before it goes under the latest call of its key, or under none.
 */
export async function outcomeId(states: SessionStates, sessionId: string, call: EdgeToolCall, waitMs: number): Promise<string> {
  const waits = states.whenStored !== undefined;
  const found = await states.update(sessionId, waitMs, async (state) => (!waits || hasOpenCall(state, call) ? noteOutcome(state, call) : undefined), { latest: true });
  if (found !== undefined) return found;
  await states.whenStored!(sessionId, (state) => hasOpenCall(state, call), Math.min(RECORD_WAIT_MS, waitMs));
  return states.update(sessionId, waitMs, async (state) => noteOutcome(state, call), { latest: true });
}
