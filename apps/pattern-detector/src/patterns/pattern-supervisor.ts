import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { partitionOf, type AnyMessage } from '@warden/contracts';
import { JetStreamServer, MessagePublisher, RecordConflictError, SessionLanes } from '@warden/messaging';
import type { PatternSettings } from '@warden/patterns';
import type { ProjectKnowledge } from '@warden/patterns';
import { SessionPatterns, type PatternReport } from '@warden/patterns';
import { PatternMetrics } from './pattern-metrics.js';
import { PatternStore } from './pattern-store.js';

export const PATTERN_SETTINGS = Symbol('PATTERN_SETTINGS');
export const PATTERN_KNOWLEDGE = Symbol('PATTERN_KNOWLEDGE');
export const PATTERN_PARTITIONS = Symbol('PATTERN_PARTITIONS');

interface WatchedSession {
  patterns: SessionPatterns;
  revision: number;
}

/**
 * Runs pattern detection for the sessions this replica owns. Each session's events are applied one at
 * a time to its windows (cached, loaded from the KV bucket on first sight); the reports are published
 * before the snapshot is written with compare-and-set, and both before the message is acknowledged — so
 * a crash in between repeats the event, which publishes the same pattern ids (JetStream drops them) and
 * changes nothing it already applied. Sessions of partitions this replica gives up are forgotten here;
 * whoever takes them over loads them from the bucket.
 */
@Injectable()
export class PatternSupervisor implements OnModuleInit, OnApplicationShutdown {
  private readonly sessions = new Map<string, WatchedSession>();
  /** Each session's work runs one task after the other. */
  private readonly lanes = new SessionLanes();

  constructor(
    @Inject(PATTERN_SETTINGS) private readonly settings: PatternSettings,
    @Inject(PATTERN_KNOWLEDGE) private readonly knowledge: ProjectKnowledge[],
    @Inject(PATTERN_PARTITIONS) private readonly partitions: number,
    private readonly store: PatternStore,
    private readonly publisher: MessagePublisher,
    private readonly server: JetStreamServer,
    private readonly metrics: PatternMetrics,
  ) {}

  onModuleInit(): void {
    this.server.on('partition.released', (partition: number) => this.released(partition));
  }

  onApplicationShutdown(): void {
    this.sessions.clear();
  }

  /** Applies one event to its session and makes the consequences durable before resolving. */
  apply(message: AnyMessage, at: number, event: string, change: (patterns: SessionPatterns) => PatternReport[]): Promise<void> {
    const k = key(message.agent_id, message.session_id);
    return this.lanes.run(k, async () => {
      const started = performance.now();
      const session = await this.session(message.agent_id, message.session_id, at);
      if (session.patterns.ended) {
        // Stragglers after the end have no session left to judge.
        this.forget(k);
        return;
      }
      const evaluating = performance.now();
      const reports = change(session.patterns);
      this.metrics.evaluation.observe({ event }, (performance.now() - evaluating) / 1000);
      for (const report of reports) {
        await this.publisher.publishCausedBy(message, 'pattern.detected', report, { key: `${message.agent_id}:${message.session_id}:${report.pattern_id}` });
      }
      this.metrics.record(reports);
      try {
        session.revision = await this.store.save({ snapshot: session.patterns.snapshot, revision: session.revision });
      } catch (error) {
        if (error instanceof RecordConflictError) {
          this.forget(k);
          this.metrics.conflicts.inc();
        }
        throw error;
      }
      if (session.patterns.ended) this.forget(k);
      this.metrics.handling.observe({ event }, (performance.now() - started) / 1000);
    });
  }

  private async session(agentId: string, sessionId: string, at: number): Promise<WatchedSession> {
    const k = key(agentId, sessionId);
    let session = this.sessions.get(k);
    if (!session) {
      const stored = await this.store.load(agentId, sessionId);
      session = stored
        ? { patterns: SessionPatterns.restore(this.settings, this.knowledge, stored.snapshot), revision: stored.revision }
        : { patterns: SessionPatterns.open(this.settings, this.knowledge, agentId, sessionId, at), revision: 0 };
      this.sessions.set(k, session);
      this.metrics.sessions.set(this.sessions.size);
    }
    return session;
  }

  private released(partition: number): void {
    for (const [k, session] of this.sessions) {
      if (partitionOf(session.patterns.snapshot.session_id, this.partitions) === partition) this.forget(k);
    }
  }

  private forget(k: string): void {
    this.sessions.delete(k);
    this.metrics.sessions.set(this.sessions.size);
  }
}

const key = (agentId: string, sessionId: string) => `${agentId}\u0000${sessionId}`;
