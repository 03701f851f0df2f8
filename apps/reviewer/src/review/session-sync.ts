import { Inject, Injectable } from '@nestjs/common';
import type { MsgRequest } from '@nats-io/jetstream';
import { parseSessionSubject, type MessageOf, type PayloadOf } from '@warden/contracts';
import { asTransient, BusConnection, onTheBus, streamName } from '@warden/messaging';
import { LOGGER, type Logger } from '@warden/observability';
import { StepReviewerHost } from './step-reviewer.host.js';

const decoder = new TextDecoder();
/** Messages of one session's lifecycle subject read at most: the declaration comes first, phase changes follow. */
const MAX_LIFECYCLE_MESSAGES = 32;
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
  constructor(
    private readonly bus: BusConnection,
    private readonly host: StepReviewerHost,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async beforeReview(address: Address, actionSubject: string): Promise<void> {
    const origin = parseSessionSubject(actionSubject);
    if (!origin) return;
    const session = this.host.reviewer.sessionStore.open(address);
    if (!session.declared && !session.declarationLookedUp) {
      try {
        await this.applyLifecycle(address, `warden.session.${origin.partition}.${address.agentId}.${address.sessionId}`);
        session.declarationLookedUp = true;
      } catch (error) {
        // Reviewed without its declaration, the action could be decided otherwise: it waits for the bus.
        this.logger.warn({ err: error, session_id: address.sessionId }, 'could not read the session stream before a review; the action is retried');
        throw asTransient('reading the session stream before a review', error);
      }
    }
    const previous = session.history.at(-1);
    if (previous?.status === 'pending' && session.outcomeLookupsEmpty < QUIET_AFTER_EMPTY_LOOKUPS) {
      const subject = `warden.outcome.${origin.partition}.${address.agentId}.${address.sessionId}`;
      await onTheBus('reading the last outcome before a review', () => this.applyLastOutcome(address, previous.actionId, subject));
    }
  }

  private async applyLifecycle(address: Address, subject: string): Promise<void> {
    const lifecycle: Envelope[] = [];
    let seq = 1;
    for (let i = 0; i < MAX_LIFECYCLE_MESSAGES; i++) {
      // The message get API answers "the next message on this subject from seq" (nats-server 2.9+); nats.js types it for direct gets only.
      const query = { seq, next_by_subj: subject } as unknown as MsgRequest;
      const stored = await this.bus.jsm.streams.getMessage(streamName('session'), query);
      if (!stored) break;
      const envelope = this.envelopeOf(stored.data, address);
      if (envelope) lifecycle.push(envelope);
      seq = stored.seq + 1;
    }
    // What an ended session declared is over: only what came after its end counts.
    const ended = lifecycle.map((e) => e.type).lastIndexOf('session.ended');
    for (const envelope of lifecycle.slice(ended + 1)) {
      if (envelope.type === 'session.started') this.host.reviewer.startSession(address, envelope.payload as PayloadOf<'session.started'>);
      else if (envelope.type === 'session.phase_changed') this.host.reviewer.changePhase(address, (envelope.payload as PayloadOf<'session.phase_changed'>).phase);
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
