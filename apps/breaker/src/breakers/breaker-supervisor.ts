import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { derivedMessageId, partitionOf, type AnyMessage, type BreakerStateRecord } from '@warden/contracts';
import { JetStreamServer, MessagePublisher, RecordConflictError, SessionLanes } from '@warden/messaging';
import { LOGGER, type Logger } from '@warden/observability';
import type { BreakerSettings } from '@warden/breakers';
import { SessionBreakers, type BreakerEvent } from '@warden/breakers';
import { BreakerMetrics } from './breaker-metrics.js';
import { BreakerStore } from './breaker-store.js';

export const BREAKER_SETTINGS = Symbol('BREAKER_SETTINGS');
export const BREAKER_PARTITIONS = Symbol('BREAKER_PARTITIONS');

/** The longest a Node timer can wait; later wake-ups are re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Partitions acquired together (at start, or when a replica dies) are loaded in one scan. */
const ACQUIRE_SETTLE_MS = 50;

interface WatchedSession {
  breakers: SessionBreakers;
  revision: number;
  /** Whether the last state written blocks the session. */
  open?: boolean;
  /** The state record last written, as JSON without its timestamp: written again only when it changes. */
  written?: string;
  timer?: NodeJS.Timeout;
}

/** What caused a change: a message (its derived events are de-duplicated on redelivery) or a timer. */
type Cause = { message: AnyMessage } | { tick: number };

/**
 * Runs the breakers of the sessions this replica owns. Each session's events are applied one at a time
 * against its ledger (cached, loaded from the store on first sight), then the resulting events are
 * published, the ledger is written with compare-and-set, and the state the reviewer reads is updated.
 * A timer per session wakes it when a clock reaches a warning or timeout, or an OPEN breaker its reset
 * time — so a silent session still trips. Sessions of partitions this replica takes over are loaded and
 * their timers armed; those of partitions it gives up are forgotten.
 */
@Injectable()
export class BreakerSupervisor implements OnModuleInit, OnApplicationShutdown {
  private readonly sessions = new Map<string, WatchedSession>();
  /** Each session's work runs one task after the other. */
  private readonly lanes = new SessionLanes();
  private readonly owned = new Set<number>();
  private pendingAcquire: number[] = [];
  private acquireTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(BREAKER_SETTINGS) private readonly settings: BreakerSettings,
    @Inject(BREAKER_PARTITIONS) private readonly partitions: number,
    private readonly store: BreakerStore,
    private readonly publisher: MessagePublisher,
    private readonly server: JetStreamServer,
    private readonly metrics: BreakerMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.server.on('partition.acquired', (partition: number) => this.acquired(partition));
    this.server.on('partition.released', (partition: number) => this.released(partition));
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.acquireTimer) clearTimeout(this.acquireTimer);
    for (const session of this.sessions.values()) if (session.timer) clearTimeout(session.timer);
    this.sessions.clear();
  }

  /**
   * Applies `change` to the session's breakers, one change per session at a time, and makes its
   * consequences durable before resolving: events published, ledger stored, state record written.
   * `prepare` gathers what the change needs from outside the session (the agent's rolling day).
   */
  apply<T = undefined>(
    address: { agentId: string; sessionId: string; at: number },
    cause: Cause,
    event: string,
    change: (breakers: SessionBreakers, prepared: T) => BreakerEvent[],
    prepare?: (breakers: SessionBreakers) => Promise<T>,
  ): Promise<void> {
    return this.lanes.run(key(address.agentId, address.sessionId), async () => {
      const started = performance.now();
      const session = await this.session(address.agentId, address.sessionId, address.at);
      if (session.breakers.ended) {
        // A straggler after the run ended (an outcome on another channel, say) has nothing left to trip.
        this.forget(key(address.agentId, address.sessionId));
        return;
      }
      if ('message' in cause && session.breakers.hasApplied(cause.message.id)) {
        // A redelivery of what is stored: only make sure the state record followed.
        await this.writeState(session);
        return;
      }
      const prepared = (prepare ? await prepare(session.breakers) : undefined) as T;
      const evaluating = performance.now();
      const events = change(session.breakers, prepared);
      this.metrics.evaluation.observe({ event }, (performance.now() - evaluating) / 1000);
      await this.commit(session, cause, events);
      this.metrics.handling.observe({ event }, (performance.now() - started) / 1000);
    });
  }

  /** The session as this replica knows it, loading it from the store the first time. */
  private async session(agentId: string, sessionId: string, at: number): Promise<WatchedSession> {
    const k = key(agentId, sessionId);
    let session = this.sessions.get(k);
    if (!session) {
      const stored = await this.store.loadSession(agentId, sessionId);
      session = stored
        ? { breakers: SessionBreakers.restore(this.settings, stored.ledger), revision: stored.revision }
        : { breakers: SessionBreakers.open(this.settings, agentId, sessionId, at), revision: 0 };
      this.sessions.set(k, session);
      this.metrics.sessions.set(this.sessions.size);
    }
    return session;
  }

  /** Adds a priced model call to the agent's rolling day; returns the day's total with it. */
  addToDay(agentId: string, costId: string, at: number, usd: number): Promise<number> {
    return this.store.addToDay(agentId, costId, at, usd, this.settings.cost.day_bucket_ms);
  }

  private async commit(session: WatchedSession, cause: Cause, events: BreakerEvent[]): Promise<void> {
    const { breakers } = session;
    await this.publish(breakers, cause, events);
    this.metrics.record(events);
    try {
      session.revision = await this.store.saveSession({ ledger: breakers.ledger, revision: session.revision });
    } catch (error) {
      if (error instanceof RecordConflictError) {
        // Another replica applied events to this session: drop the stale copy; the redelivery reloads it.
        this.forget(key(breakers.agentId, breakers.sessionId));
        this.metrics.conflicts.inc();
      }
      throw error;
    }
    await this.writeState(session);
    this.arm(session);
  }

  private async publish(breakers: SessionBreakers, cause: Cause, events: BreakerEvent[]): Promise<void> {
    for (const [index, event] of events.entries()) {
      if ('message' in cause) {
        await this.publisher.publishCausedBy(cause.message, event.type, event.payload as never, { key: `${cause.message.id}:${index}` });
      } else {
        await this.publisher.publish(event.type, {
          // A tick that is retried publishes the same ids, which JetStream drops.
          id: derivedMessageId(event.type, `${breakers.agentId}:${breakers.sessionId}:tick:${cause.tick}:${index}`),
          agent_id: breakers.agentId,
          session_id: breakers.sessionId,
          payload: event.payload as never,
        });
      }
    }
  }

  private async writeState(session: WatchedSession): Promise<void> {
    const { breakers } = session;
    if (breakers.ended) {
      if (session.written !== 'removed') await this.store.removeState(breakers.agentId, breakers.sessionId);
      session.written = 'removed';
      this.forget(key(breakers.agentId, breakers.sessionId));
      return;
    }
    const record = breakers.stateRecord(Date.now());
    const comparable = JSON.stringify({ ...record, updated_at: undefined } satisfies Partial<BreakerStateRecord>);
    if (comparable === session.written) return;
    await this.store.writeState(record);
    session.written = comparable;
    session.open = record.state === 'open';
    this.countOpen();
  }

  private arm(session: WatchedSession): void {
    if (session.timer) clearTimeout(session.timer);
    session.timer = undefined;
    if (this.stopped) return;
    const wakeAt = session.breakers.nextWakeAt(Date.now());
    if (wakeAt === undefined) return;
    const { agentId, sessionId } = session.breakers;
    session.timer = setTimeout(() => this.wake(agentId, sessionId), Math.min(Math.max(0, wakeAt - Date.now()), MAX_TIMER_MS));
    session.timer.unref();
  }

  private wake(agentId: string, sessionId: string): void {
    if (this.stopped || !this.sessions.has(key(agentId, sessionId))) return;
    const now = Date.now();
    this.apply({ agentId, sessionId, at: now }, { tick: now }, 'tick', (breakers) => breakers.tick(now)).catch((error: unknown) => {
      this.logger.warn({ agent_id: agentId, session_id: sessionId, err: error }, 'breaker tick failed; retrying');
      const retry = setTimeout(() => this.wake(agentId, sessionId), 1000);
      retry.unref();
    });
  }

  private acquired(partition: number): void {
    this.owned.add(partition);
    this.pendingAcquire.push(partition);
    this.acquireTimer ??= setTimeout(() => void this.loadAcquired(), ACQUIRE_SETTLE_MS);
  }

  /** Loads the sessions of newly owned partitions, so their clocks and reset timers run here now. */
  private async loadAcquired(): Promise<void> {
    const partitions = new Set(this.pendingAcquire);
    this.pendingAcquire = [];
    this.acquireTimer = undefined;
    try {
      const keys = (await this.store.sessionKeys()).filter((k) => partitions.has(partitionOf(k.sessionId, this.partitions)));
      for (const { agentId, sessionId } of keys) {
        if (this.stopped || !this.owned.has(partitionOf(sessionId, this.partitions))) continue;
        await this.lanes.run(key(agentId, sessionId), async () => {
          const session = await this.session(agentId, sessionId, Date.now());
          if (session.breakers.ended) return this.forget(key(agentId, sessionId));
          // A predecessor may have died between its ledger and state writes: write the state once.
          await this.writeState(session);
          this.arm(session);
        });
      }
      if (keys.length) this.logger.info({ partitions: [...partitions], sessions: keys.length }, 'breaker sessions taken over');
    } catch (error) {
      this.logger.error({ partitions: [...partitions], err: error }, 'could not load the sessions of acquired partitions; retrying');
      this.pendingAcquire.push(...partitions);
      this.acquireTimer = setTimeout(() => void this.loadAcquired(), 1000);
      this.acquireTimer.unref();
    }
  }

  private released(partition: number): void {
    this.owned.delete(partition);
    for (const [k, session] of this.sessions) {
      if (partitionOf(session.breakers.sessionId, this.partitions) === partition) this.forget(k);
    }
  }

  private forget(k: string): void {
    const session = this.sessions.get(k);
    if (session?.timer) clearTimeout(session.timer);
    this.sessions.delete(k);
    this.metrics.sessions.set(this.sessions.size);
    this.countOpen();
  }

  private countOpen(): void {
    let open = 0;
    for (const s of this.sessions.values()) if (s.open) open++;
    this.metrics.openSessions.set(open);
  }
}

const key = (agentId: string, sessionId: string) => `${agentId}\u0000${sessionId}`;
