import { eventTime, type AnyMessage } from '@warden/contracts';
import { SessionKeeper, type KeeperOptions, type MessageReceipt } from '@warden/messaging';
import type { PatternSettings, ProjectKnowledge, SessionSnapshot } from '@warden/patterns';
import { SessionPatterns, type PatternReport } from '@warden/patterns';

/**
 * What a message of the session's lifecycle does to its windows (`at`: its event time), whether it is
 * handled from the session stream or looked up before a message that overtook it.
 */
export function lifecycleChange(message: AnyMessage, at: number): (patterns: SessionPatterns) => PatternReport[] {
  switch (message.type) {
    case 'session.started':
      return (p) => p.started(at, message.payload);
    case 'session.phase_changed':
      return (p) => p.phaseChanged(at, message.payload.phase);
    case 'session.goal_changed':
      return (p) => p.goalChanged(at, message.payload.goal);
    case 'session.turn_ended':
      return (p) => p.turnEnded(at, message.payload.text);
    case 'session.ended':
      return (p) => {
        p.end();
        return [];
      };
    case 'session.tools_observed':
      return (p) => p.toolsObserved(at, message.payload.tool_runs);
    default:
      return () => [];
  }
}

export interface PatternSessionsOptions {
  settings: PatternSettings;
  knowledge: readonly ProjectKnowledge[];
  partitions: number;
  /** The sessions' KV bucket; the benchmark passes one that keeps nothing in the process, as the bucket does not. */
  store: KeeperOptions<SessionPatterns, SessionSnapshot>['store'];
  publish: KeeperOptions<SessionPatterns, SessionSnapshot>['publish'];
  events?: KeeperOptions<SessionPatterns, SessionSnapshot>['events'];
  /** Reads a session's lifecycle, for a session that meets another message before its declaration. */
  lifecycle?: KeeperOptions<SessionPatterns, SessionSnapshot>['lifecycle'];
  /** Stores a session's events together (see StoreBatching); without it each is stored before it resolves. */
  batching?: KeeperOptions<SessionPatterns, SessionSnapshot>['batching'];
  /** Told the time of each event's evaluation (applying it and running the detectors) and of its whole handling, in ms. */
  timing?: { evaluated(event: string, ms: number): void; handled(event: string, ms: number): void };
  /** Told the reports each event led to, once they are stored. */
  reported?(reports: readonly PatternReport[]): void;
}

/**
 * The sessions a replica holds and how an event is applied to one: kept by the messaging library's
 * session keeper (lane, cache, store, outbox, failures); each event is applied to its session's windows
 * and the reports it leads to are stored with the snapshot, then published. Nest-free, so that the
 * benchmark holds sessions exactly as the service does.
 */
export class PatternSessions {
  readonly keeper: SessionKeeper<SessionPatterns, SessionSnapshot>;

  constructor(private readonly options: PatternSessionsOptions) {
    const { settings, knowledge } = options;
    this.keeper = new SessionKeeper({
      store: options.store,
      publish: options.publish,
      partitions: options.partitions,
      model: {
        open: (address, at) => SessionPatterns.open(settings, knowledge, address.agentId, address.sessionId, at),
        restore: (snapshot) => SessionPatterns.restore(settings, knowledge, snapshot),
        snapshot: (patterns) => patterns.snapshot,
      },
      ...(options.events ? { events: options.events } : {}),
      ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
      ...(options.batching ? { batching: options.batching } : {}),
    });
  }

  /**
   * Applies one event to its session; the reports it leads to are stored and published before it
   * resolves. With `defer` and batching, an event that leads to none is stored with a later write, and
   * its receipt acknowledged then.
   */
  apply(message: AnyMessage, at: number, event: string, change: (patterns: SessionPatterns) => PatternReport[], defer?: () => MessageReceipt): Promise<void> {
    const address = { agentId: message.agent_id, sessionId: message.session_id };
    const skew = this.options.settings.window.max_clock_skew_ms;
    let started = 0;
    let reports: PatternReport[] = [];
    return this.keeper.apply(address, at, message, {
      begin: () => (started = performance.now()),
      // Stragglers after the end have no session left to judge.
      ended: (patterns) => patterns.ended,
      change: (held, missed) => {
        const evaluating = performance.now();
        reports = missed.flatMap((m) => lifecycleChange(m.message, eventTime(m.message.timestamp, m.storedAt, skew))(held.session));
        reports.push(...change(held.session));
        this.options.timing?.evaluated(event, performance.now() - evaluating);
        return reports.map((report) => ({ type: 'pattern.detected' as const, payload: report, key: `${address.agentId}:${address.sessionId}:${report.pattern_id}` }));
      },
      committed: () => {
        this.options.reported?.(reports);
        this.options.timing?.handled(event, performance.now() - started);
      },
    }, defer);
  }
}
