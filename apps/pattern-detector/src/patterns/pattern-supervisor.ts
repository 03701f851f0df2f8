import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PATTERN_SESSION_BUCKET, type AnyMessage } from '@warden/contracts';
import { BusConnection, MessagePublisher, RecordStore, SESSION_STORE_BATCHING, SessionLifecycle, type MessageReceipt } from '@warden/messaging';
import { JetStreamServer } from '@warden/messaging-nest';
import type { PatternReport, PatternSettings, ProjectKnowledge, SessionPatterns } from '@warden/patterns';
import { PatternMetrics } from './pattern-metrics.js';
import { PatternSessions } from './pattern-sessions.js';

export const PATTERN_SETTINGS = Symbol('PATTERN_SETTINGS');
export const PATTERN_KNOWLEDGE = Symbol('PATTERN_KNOWLEDGE');
export const PATTERN_PARTITIONS = Symbol('PATTERN_PARTITIONS');

/**
 * Pattern detection for the sessions this replica owns (see PatternSessions), wired to the bus, the
 * KV bucket and the metrics.
 */
@Injectable()
export class PatternSupervisor implements OnModuleInit, OnApplicationShutdown {
  private readonly sessions: PatternSessions;

  constructor(
    @Inject(PATTERN_SETTINGS) settings: PatternSettings,
    @Inject(PATTERN_KNOWLEDGE) knowledge: ProjectKnowledge[],
    @Inject(PATTERN_PARTITIONS) partitions: number,
    bus: BusConnection,
    publisher: MessagePublisher,
    private readonly server: JetStreamServer,
    metrics: PatternMetrics,
  ) {
    this.sessions = new PatternSessions({
      settings,
      knowledge,
      partitions,
      store: new RecordStore(bus.nc, PATTERN_SESSION_BUCKET),
      publish: (message) => publisher.publishMessage(message),
      lifecycle: new SessionLifecycle(bus.jsm, partitions),
      batching: SESSION_STORE_BATCHING,
      events: { size: (held) => metrics.sessions.set(held), conflict: () => metrics.conflicts.inc() },
      timing: {
        evaluated: (event, ms) => metrics.evaluation.observe({ event }, ms / 1000),
        handled: (event, ms) => metrics.handling.observe({ event }, ms / 1000),
      },
      reported: (reports) => metrics.record(reports),
    });
  }

  onModuleInit(): void {
    this.sessions.keeper.follow(this.server);
  }

  onApplicationShutdown(): Promise<void> {
    return this.sessions.keeper.stop();
  }

  /** Applies one event to its session; its reports are stored and published before it resolves, the rest may be stored later (`defer`). */
  apply(message: AnyMessage, at: number, event: string, change: (patterns: SessionPatterns) => PatternReport[], defer?: () => MessageReceipt): Promise<void> {
    return this.sessions.apply(message, at, event, change, defer);
  }
}
