import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PATTERN_SESSION_BUCKET, type AnyMessage } from '@warden/contracts';
import { BusConnection, MessagePublisher, RecordStore, SessionKeeper } from '@warden/messaging';
import { JetStreamServer } from '@warden/messaging-nest';
import type { PatternSettings, ProjectKnowledge, SessionSnapshot } from '@warden/patterns';
import { SessionPatterns, type PatternReport } from '@warden/patterns';
import { PatternMetrics } from './pattern-metrics.js';

export const PATTERN_SETTINGS = Symbol('PATTERN_SETTINGS');
export const PATTERN_KNOWLEDGE = Symbol('PATTERN_KNOWLEDGE');
export const PATTERN_PARTITIONS = Symbol('PATTERN_PARTITIONS');

/**
 * Pattern detection for the sessions this replica owns, kept by the messaging library's session
 * keeper (lane, cache, store, outbox, failures): each event is applied to its session's windows and
 * the reports it leads to are stored with the snapshot, then published.
 */
@Injectable()
export class PatternSupervisor implements OnModuleInit, OnApplicationShutdown {
  private readonly keeper: SessionKeeper<SessionPatterns, SessionSnapshot>;

  constructor(
    @Inject(PATTERN_SETTINGS) settings: PatternSettings,
    @Inject(PATTERN_KNOWLEDGE) knowledge: ProjectKnowledge[],
    @Inject(PATTERN_PARTITIONS) partitions: number,
    bus: BusConnection,
    publisher: MessagePublisher,
    private readonly server: JetStreamServer,
    private readonly metrics: PatternMetrics,
  ) {
    this.keeper = new SessionKeeper({
      store: new RecordStore(bus.nc, PATTERN_SESSION_BUCKET),
      publish: (message) => publisher.publishMessage(message),
      partitions,
      model: {
        open: (address, at) => SessionPatterns.open(settings, knowledge, address.agentId, address.sessionId, at),
        restore: (snapshot) => SessionPatterns.restore(settings, knowledge, snapshot),
        snapshot: (patterns) => patterns.snapshot,
      },
      events: { size: (held) => metrics.sessions.set(held), conflict: () => metrics.conflicts.inc() },
    });
  }

  onModuleInit(): void {
    this.keeper.follow(this.server);
  }

  onApplicationShutdown(): void {
    this.keeper.stop();
  }

  /** Applies one event to its session and makes the consequences durable before resolving. */
  apply(message: AnyMessage, at: number, event: string, change: (patterns: SessionPatterns) => PatternReport[]): Promise<void> {
    const address = { agentId: message.agent_id, sessionId: message.session_id };
    return this.keeper.run(address, at, async (held) => {
      const started = performance.now();
      // Stragglers after the end have no session left to judge; a redelivery changes nothing.
      if (held.session.ended) return this.keeper.forget(address);
      if (this.keeper.hasApplied(held, message.id)) return;
      const evaluating = performance.now();
      const reports = change(held.session);
      this.metrics.evaluation.observe({ event }, (performance.now() - evaluating) / 1000);
      const outgoing = reports.map((report) => ({ type: 'pattern.detected' as const, payload: report, key: `${address.agentId}:${address.sessionId}:${report.pattern_id}` }));
      await this.keeper.commit(held, message, outgoing);
      this.metrics.record(reports);
      if (held.session.ended) this.keeper.forget(address);
      this.metrics.handling.observe({ event }, (performance.now() - started) / 1000);
    });
  }
}
