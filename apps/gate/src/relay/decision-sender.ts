import { actionDigest, reusedActionIdDetail, type AnyMessage, type DecisionRecord, type MessageOf } from '@warden/contracts';
import { approvalGoesToAgentUser, type Verdict } from '@warden/gate';
import type { DecisionRecordStore } from '../core/gate-stores.js';

export interface DecisionSenderOptions {
  decisions: DecisionRecordStore;
  publish(message: AnyMessage): Promise<unknown>;
  /** Refuses a proposal, with the reason, to the agent (a dead letter of its verdict). */
  refuse(verdict: Verdict, reason: string): Promise<unknown>;
  /** A require_approval may go to the agent's own user when the proposal asks so. */
  agentUserApprovals: boolean;
}

/**
 * One decision per action id: a decision is stored (with a digest of its action) before it is sent,
 * and an action id that has a stored decision is answered from it: the same decision again, or a
 * refusal for a different action under that id.
 */
export class DecisionSender {
  constructor(private readonly options: DecisionSenderOptions) {}

  /** Stores the decision's record, then sends it. True when sent as new; false when answered from an earlier record. */
  async send(message: MessageOf<'decision.made'>, verdict: Verdict): Promise<boolean> {
    const earlier = await this.options.decisions.claim({ action_digest: actionDigest(verdict.payload.action), decision: message });
    if (earlier) {
      await this.answer(verdict, earlier);
      return false;
    }
    await this.options.publish(message);
    return true;
  }

  /** Answers a verdict whose action id was decided before, when it has been; false when it has not. */
  async answerIfDecided(verdict: Verdict): Promise<boolean> {
    const earlier = await this.options.decisions.get(verdict.agent_id, verdict.session_id, verdict.payload.action_id);
    if (earlier) await this.answer(verdict, earlier);
    return !!earlier;
  }

  /** The proposal hands a require_approval to the agent's own user, and the gate lets it. */
  delegated(verdict: Verdict): boolean {
    return approvalGoesToAgentUser(verdict, this.options.agentUserApprovals);
  }

  private async answer(verdict: Verdict, earlier: DecisionRecord): Promise<void> {
    if (earlier.action_digest === actionDigest(verdict.payload.action)) {
      await this.options.publish(earlier.decision);
      return;
    }
    await this.options.refuse(verdict, reusedActionIdDetail(verdict.payload.action_id, verdict.session_id));
  }
}
