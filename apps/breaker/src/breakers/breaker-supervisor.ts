import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { AnyMessage, BreakerStateRecord } from '@warden/contracts';
import { BusConnection, MessagePublisher, SESSION_STORE_BATCHING, SessionKeeper, SessionLifecycle, type Held, type MessageReceipt, type Outgoing, type SessionAddress } from '@warden/messaging';
import { JetStreamServer } from '@warden/messaging-nest';
import { LOGGER, type Logger } from '@warden/observability';
import type { BreakerSettings, SessionLedger } from '@warden/breakers';
import { SessionBreakers, type BreakerEvent } from '@warden/breakers';
import { BreakerClocks } from './breaker-clocks.js';
import { BreakerMetrics } from './breaker-metrics.js';
import { BreakerStore } from './breaker-store.js';

export const BREAKER_SETTINGS = Symbol('BREAKER_SETTINGS');
export const BREAKER_PARTITIONS = Symbol('BREAKER_PARTITIONS');

/** What caused a change: a message (its derived events are de-duplicated on redelivery) or a timer. */
type Cause = { message: AnyMessage } | { tick: number };

const keyOf = (address: SessionAddress) => `${address.agentId}\u0000${address.sessionId}`;

/**
 * What a message of the session's lifecycle does to its breakers (`at`: when it was stored), whether it is
 * handled from the session stream or looked up before a message that overtook it.
 */
export function lifecycleChange(message: AnyMessage, at: number): (breakers: SessionBreakers) => BreakerEvent[] {
  switch (message.type) {
    case 'session.started':
      return (b) => b.started(message.id, at, message.payload.phase, Date.now());
    case 'session.phase_changed':
      return (b) => b.phaseChanged(message.id, at, message.payload.phase, Date.now());
    case 'session.ended':
      return (b) => b.end(message.id);
    default:
      return () => [];
  }
}

/**
 * The breakers of the sessions this replica owns, kept by the messaging library's session keeper:
 * each change is stored with the events it leads to, they are published, then the state the reviewer
 * reads is updated and the session's clock armed. Sessions of partitions taken over are loaded and
 * their clocks armed.
 */
@Injectable()
export class BreakerSupervisor implements OnModuleInit, OnApplicationShutdown {
  private readonly keeper: SessionKeeper<SessionBreakers, SessionLedger>;
  private readonly clocks = new BreakerClocks((address) => this.wake(address));
  /** The state record last written per session, as JSON without its timestamp: written again only when it changes. */
  private readonly written = new Map<string, { json: string; open: boolean }>();

  constructor(
    @Inject(BREAKER_SETTINGS) private readonly settings: BreakerSettings,
    @Inject(BREAKER_PARTITIONS) private readonly partitions: number,
    private readonly store: BreakerStore,
    bus: BusConnection,
    publisher: MessagePublisher,
    private readonly server: JetStreamServer,
    private readonly metrics: BreakerMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.keeper = new SessionKeeper({
      store: store.ledgers,
      publish: (message) => publisher.publishMessage(message),
      partitions,
      // Costs and iterations count in the phase the session declared, even when its declaration comes late.
      lifecycle: new SessionLifecycle(bus.jsm, partitions),
      batching: SESSION_STORE_BATCHING,
      model: {
        open: (address, at) => SessionBreakers.open(settings, address.agentId, address.sessionId, at),
        restore: (ledger) => SessionBreakers.restore(settings, ledger),
        snapshot: (breakers) => breakers.ledger,
        // The ledger remembers the messages it applied: the record keeps them once.
        applied: (breakers, messageId) => breakers.hasApplied(messageId),
      },
      // A predecessor may have died between its ledger and state writes: write the state once.
      takeOver: (held) => this.settle(held, true),
      events: {
        size: (held) => metrics.sessions.set(held),
        conflict: () => metrics.conflicts.inc(),
        forgotten: (address) => this.written.delete(keyOf(address)) && this.countOpen(),
        tookOver: (partitions, sessions) => sessions && logger.info({ partitions, sessions }, 'breaker sessions taken over'),
        takeoverFailed: (partitions, error) => logger.error({ partitions, err: error }, 'could not load the sessions of acquired partitions; retrying'),
      },
    });
  }

  onModuleInit(): void {
    this.keeper.follow(this.server, (partition) => this.clocks.release(partition, this.partitions));
  }

  onApplicationShutdown(): Promise<void> {
    this.clocks.stop();
    return this.keeper.stop();
  }

  /**
   * Applies `change` to the session's breakers and makes its consequences durable before resolving:
   * ledger and events stored, events published, state record written. `prepare` gathers what the
   * change needs from outside the session (the agent's rolling day). With `defer`, a change that leads
   * to no event has its ledger stored with a later write (see StoreBatching); the state record and the
   * clock follow at once.
   */
  apply<T = undefined>(
    address: SessionAddress & { at: number },
    cause: Cause,
    event: string,
    change: (breakers: SessionBreakers, prepared: T) => BreakerEvent[],
    prepare?: (breakers: SessionBreakers) => Promise<T>,
    defer?: () => MessageReceipt,
  ): Promise<void> {
    const session = { agentId: address.agentId, sessionId: address.sessionId };
    const message = 'message' in cause ? cause.message : undefined;
    let started = 0;
    const events: BreakerEvent[] = [];
    return this.keeper.apply(session, address.at, message, {
      begin: () => (started = performance.now()),
      // A redelivery of what is stored: make sure the state record and the clock followed (the first
      // delivery may have failed after its ledger was stored, before either).
      redelivered: (held) => this.settle(held),
      // A straggler after the run ended (an outcome on another channel, say) has nothing left to trip.
      ended: (breakers) => breakers.ended,
      change: async (held, missed) => {
        const breakers = held.session;
        const prepared = (prepare ? await prepare(breakers) : undefined) as T;
        const evaluating = performance.now();
        const outgoing: Outgoing[] = [];
        const add = (key: string, produced: BreakerEvent[]) => {
          for (const [index, e] of produced.entries()) outgoing.push({ type: e.type, payload: e.payload, key: `${key}:${index}` });
          events.push(...produced);
        };
        for (const m of missed) add(m.message.id, lifecycleChange(m.message, m.storedAt)(breakers));
        add(message ? message.id : `${session.agentId}:${session.sessionId}:tick:${(cause as { tick: number }).tick}`, change(breakers, prepared));
        this.metrics.evaluation.observe({ event }, (performance.now() - evaluating) / 1000);
        return outgoing;
      },
      committed: async (held) => {
        this.metrics.record(events);
        await this.settle(held);
        this.metrics.handling.observe({ event }, (performance.now() - started) / 1000);
      },
    }, defer);
  }

  /** Adds a priced model call to the agent's rolling day; returns the day's total with it. */
  addToDay(agentId: string, costId: string, at: number, usd: number): Promise<number> {
    return this.store.addToDay(agentId, costId, at, usd, this.settings.cost.day_bucket_ms);
  }

  /**
   * The state record and the clock follow the ledger. A session taken over (a restart, another replica
   * gone) may have passed a deadline while nobody held it: it is woken at once.
   */
  private async settle(held: Held<SessionBreakers>, takenOver = false): Promise<void> {
    await this.writeState(held);
    if (held.session.ended) return;
    if (takenOver && held.session.isDue(Date.now())) this.clocks.wakeIn(held.address, 0);
    else this.clocks.arm(held.session);
  }

  private async writeState(held: Held<SessionBreakers>): Promise<void> {
    const { session: breakers, address } = held;
    if (breakers.ended) {
      await this.store.removeState(breakers.agentId, breakers.sessionId);
      this.clocks.disarm(address);
      this.keeper.forget(address);
      return;
    }
    const record = breakers.stateRecord(Date.now());
    const json = JSON.stringify({ ...record, updated_at: undefined } satisfies Partial<BreakerStateRecord>);
    if (json === this.written.get(keyOf(address))?.json) return;
    await this.store.writeState(record);
    this.written.set(keyOf(address), { json, open: record.state === 'open' });
    this.countOpen();
  }

  private wake(address: SessionAddress): void {
    // Said once per deadline: what a silent session that never tripped would need to be explained.
    const owned = this.keeper.owns(address);
    this.logger.info({ agent_id: address.agentId, session_id: address.sessionId, owned }, owned ? 'breaker clock woke the session' : 'breaker clock fired for a session this replica no longer holds');
    if (!owned) return;
    const now = Date.now();
    this.apply({ ...address, at: now }, { tick: now }, 'tick', (breakers) => breakers.tick(now)).catch((error: unknown) => {
      this.logger.warn({ agent_id: address.agentId, session_id: address.sessionId, err: error }, 'breaker tick failed; retrying');
      this.clocks.wakeIn(address, 1000);
    });
  }

  private countOpen(): void {
    let open = 0;
    for (const written of this.written.values()) if (written.open) open++;
    this.metrics.openSessions.set(open);
  }
}
