import { Inject, Injectable } from '@nestjs/common';
import { parseSessionSubject, sessionSubject, type MessageOf } from '@warden/contracts';
import { asTransient, BusConnection, onTheBus, SessionLifecycle, streamName, TOPOLOGY_DEFAULTS } from '@warden/messaging';
import { LOGGER, type Logger } from '@warden/observability';
import type { ReviewerConfig } from '../config.js';
import { REVIEWER_CONFIG, StepReviewerHost } from './step-reviewer.host.js';

const decoder = new TextDecoder();
/**
 * Lookups in a row that find no outcome of a session at all after which the session counts as one that
 * does not report outcomes (an SDK agent that only proposes): its actions stop paying a round trip each,
 * until an outcome of it arrives.
 */
export const QUIET_AFTER_EMPTY_LOOKUPS = 3;

type Address = { agentId: string; sessionId: string };
type Envelope = { type?: string; agent_id?: string; session_id?: string; payload?: unknown };

/**
 * Makes the review of an action see what the agent published before it on other streams. Actions,
 * session declarations and outcomes travel on different streams, read by different consumers, so the
 * action can arrive first. Before reviewing:
 * - an action of a session whose session.started the reviewer has not applied reads that session's
 *   lifecycle subject from the session stream (a message get by subject, once per session);
 * - an action that follows one whose outcome has not arrived reads the session's last outcome, unless the
 *   session has shown that it does not report outcomes (QUIET_AFTER_EMPTY_LOOKUPS lookups found none).
 * In order (the usual case) neither costs a round trip.
 */
@Injectable()
export class SessionSync {
  private readonly lifecycle: SessionLifecycle;

  constructor(
    private readonly bus: BusConnection,
    private readonly host: StepReviewerHost,
    @Inject(REVIEWER_CONFIG) config: ReviewerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.lifecycle = new SessionLifecycle(bus.jsm, config.messaging.partitions ?? TOPOLOGY_DEFAULTS.partitions);
  }

  async beforeReview(address: Address, actionSubject: string): Promise<void> {
    const origin = parseSessionSubject(actionSubject);
    if (!origin) return;
    const session = this.host.reviewer.sessionStore.open(address);
    if (!session.declared && !session.declarationLookedUp) {
      try {
        await this.applyLifecycle(address);
        session.declarationLookedUp = true;
      } catch (error) {
        // Reviewed without its declaration, the action could be decided otherwise: it waits for the bus.
        this.logger.warn({ err: error, session_id: address.sessionId }, 'could not read the session stream before a review; the action is retried');
        throw asTransient('reading the session stream before a review', error);
      }
    }
    const previous = session.history.at(-1);
    if (previous?.status === 'pending' && session.outcomeLookupsEmpty < QUIET_AFTER_EMPTY_LOOKUPS) {
      const subject = sessionSubject({ channel: 'outcome', partition: origin.partition, ...address });
      await onTheBus('reading the last outcome before a review', () => this.applyLastOutcome(address, previous.actionId, subject));
    }
  }

  private async applyLifecycle(address: Address): Promise<void> {
    for (const { message } of await this.lifecycle.read(address)) {
      if (message.type === 'session.started') this.host.reviewer.startSession(address, message.payload);
      else if (message.type === 'session.phase_changed') this.host.reviewer.changePhase(address, message.payload.phase);
    }
  }

  private async applyLastOutcome(address: Address, actionId: string, subject: string): Promise<void> {
    const stored = await this.bus.jsm.streams.getMessage(streamName('outcome'), { last_by_subj: subject });
    const session = this.host.reviewer.sessionStore.open(address);
    session.outcomeLookupsEmpty = stored ? 0 : session.outcomeLookupsEmpty + 1;
    const envelope = stored ? this.envelopeOf(stored.data, address) : null;
    const payload = envelope?.type === 'action.outcome' ? (envelope.payload as MessageOf<'action.outcome'>['payload']) : null;
    if (payload?.action_id === actionId) this.host.reviewer.recordOutcome(address, payload);
  }

  /** A stored message of this session, or null: what does not parse or belongs elsewhere is left to the consumers (and their dead letters). */
  private envelopeOf(data: Uint8Array, address: Address): Envelope | null {
    try {
      const envelope = JSON.parse(decoder.decode(data)) as Envelope;
      return envelope.agent_id === address.agentId && envelope.session_id === address.sessionId && envelope.payload && typeof envelope.payload === 'object' ? envelope : null;
    } catch {
      return null;
    }
  }
}
