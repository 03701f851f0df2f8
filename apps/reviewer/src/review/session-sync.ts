import { Inject, Injectable } from '@nestjs/common';
import { parseSessionSubject, sessionSubject, type MessageOf, type SessionChannelId } from '@warden/contracts';
import { asTransient, BusConnection, onTheBus, readSubject, SessionLifecycle, sessionMessageOf, streamName, TOPOLOGY_DEFAULTS, type LifecycleMessage } from '@warden/messaging';
import { LOGGER, type Logger } from '@warden/observability';
import { rebuildSession, type SessionEvent } from '@warden/review';
import type { ReviewerConfig } from '../config.js';
import { ReviewMetrics } from './review-metrics.js';
import { SealedActions } from './sealed-actions.js';
import { REVIEWER_CONFIG, StepReviewerHost } from './step-reviewer.host.js';

const decoder = new TextDecoder();
/**
 * Lookups in a row that find no outcome of a session at all after which the session counts as one that
 * does not report outcomes (an SDK agent that only proposes): its actions stop paying a round trip each,
 * until an outcome of it arrives.
 */
export const QUIET_AFTER_EMPTY_LOOKUPS = 3;
/** Messages per channel a session taken over mid-way is rebuilt from at most: the latest are kept. */
export const MAX_REBUILT_MESSAGES = 2_000;
/** What a session taken over mid-way is rebuilt from besides its lifecycle and its actions. */
const REBUILT_CHANNELS: readonly SessionChannelId[] = ['outcome', 'pattern', 'checkpoint'];

type Address = { agentId: string; sessionId: string };
/** The action being reviewed, as its stream stored it. */
type StoredAction = { subject: string; seq: number };
/** A stored message of the session and when it was stored (the lifecycle reader's shape). */
type TimedMessage = LifecycleMessage;
type Envelope = { type?: string; agent_id?: string; session_id?: string; payload?: unknown };

/**
 * Makes the review of an action see what the agent published before it on other streams. Actions,
 * session declarations and outcomes travel on different streams, read by different consumers, so the
 * action can arrive first. Before reviewing:
 * - an action of a session whose session.started the reviewer has not applied reads that session's
 *   lifecycle subject from the session stream (once per session); when the session stream and the action
 *   stream hold earlier actions of it, the replica is taking the session over mid-way (it restarted, or
 *   another replica handed its partitions over) and rebuilds the session from its stored messages
 *   (rebuildSession): failures, recent actions and approvals then count from the session's start;
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
    private readonly sealed: SealedActions,
    private readonly metrics: ReviewMetrics,
    @Inject(REVIEWER_CONFIG) config: ReviewerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.lifecycle = new SessionLifecycle(bus.jsm, config.messaging.partitions ?? TOPOLOGY_DEFAULTS.partitions);
  }

  async beforeReview(address: Address, action: StoredAction): Promise<void> {
    const origin = parseSessionSubject(action.subject);
    if (!origin) return;
    let session = this.host.reviewer.sessionStore.open(address);
    if (!session.declared && !session.declarationLookedUp) {
      try {
        await this.catchUp(address, origin.partition, action.seq);
        session = this.host.reviewer.sessionStore.open(address);
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

  /** The session's declaration; and, for a session with earlier actions this replica never saw, the session rebuilt. */
  private async catchUp(address: Address, partition: number, actionSeq: number): Promise<void> {
    const lifecycle = await this.lifecycle.read(address);
    const read = (channel: SessionChannelId, before?: number) =>
      readSubject(this.bus.js, this.bus.jsm, streamName(channel), sessionSubject({ channel, partition, ...address }), { limit: MAX_REBUILT_MESSAGES, ...(before !== undefined ? { before } : {}) });
    const actions = await onTheBus(`reading the earlier actions of session ${address.sessionId}`, () => read('action', actionSeq));
    if (!actions.length) {
      for (const { message } of lifecycle) {
        if (message.type === 'session.started') this.host.reviewer.startSession(address, message.payload);
        else if (message.type === 'session.phase_changed') this.host.reviewer.changePhase(address, message.payload.phase);
      }
      return;
    }
    const others = await onTheBus(`reading the earlier messages of session ${address.sessionId}`, () => Promise.all(REBUILT_CHANNELS.map((channel) => read(channel))));
    const timed: TimedMessage[] = [...lifecycle];
    for (const { data, storedAt } of [...actions, ...others.flat()]) {
      const message = sessionMessageOf(data, address);
      if (message) timed.push({ message, storedAt });
    }
    // The declaration first whatever the clocks of the servers that stored it; then in the order they were stored.
    timed.sort((a, b) => rank(a) - rank(b) || a.storedAt - b.storedAt);
    const events: SessionEvent[] = [];
    for (const { message, storedAt } of timed) {
      const payload = message.type === 'action.proposed' ? await this.sealed.open(message.payload) : message.payload;
      events.push({ type: message.type, at: new Date(storedAt).toISOString(), payload });
    }
    const started = performance.now();
    const rebuilt = await rebuildSession(this.host.policy, address, events, () => new Promise((resolve) => setImmediate(resolve)));
    this.host.reviewer.sessionStore.adopt(address, rebuilt);
    this.metrics.sessionsRebuilt.inc();
    this.logger.info(
      { session_id: address.sessionId, agent_id: address.agentId, actions: actions.length, messages: events.length, failures: rebuilt.failures, rebuild_ms: Math.round(performance.now() - started) },
      'session taken over mid-way: rebuilt from its stored messages',
    );
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

function rank({ message }: TimedMessage): number {
  return message.type === 'session.started' ? 0 : 1;
}
