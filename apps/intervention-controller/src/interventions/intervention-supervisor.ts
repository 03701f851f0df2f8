import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { eventTime, INTERVENTION_STATE_BUCKET, type AnyMessage } from '@warden/contracts';
import { BusConnection, MessagePublisher, RecordStore, SESSION_STORE_BATCHING, SessionKeeper, SessionLifecycle, type Held, type MessageReceipt } from '@warden/messaging';
import { JetStreamServer } from '@warden/messaging-nest';
import { LOGGER, type Logger } from '@warden/observability';
import { emptyRecord, InterventionSession, MAX_CLOCK_SKEW_MS, respondToIssue, type InterventionRegistry, type InterventionSettings, type Issue, type PromptTemplates, type SessionRecord } from '@warden/interventions';
import { applySessionMessage, judge, noEffects, responseEffects, type Effects, type SessionMessage } from '../domain/session-effects.js';
import { IncidentNotifications } from './incident-notifications.js';
import { InterventionMetrics } from './intervention-metrics.js';

export const INTERVENTION_SETTINGS = Symbol('INTERVENTION_SETTINGS');
export const INTERVENTION_TEMPLATES = Symbol('INTERVENTION_TEMPLATES');
export const INTERVENTION_REGISTRY = Symbol('INTERVENTION_REGISTRY');
export const INTERVENTION_PARTITIONS = Symbol('INTERVENTION_PARTITIONS');
export const INTERVENTION_SWEEP_MS = Symbol('INTERVENTION_SWEEP_MS');

/**
 * The sessions of the partitions this replica owns, kept by the messaging library's session keeper.
 * Each message is applied once: the domain decides what it leads to, the record is stored with those
 * messages, they are published, then counted. A sweep judges interventions whose observation time is over.
 * Everything is dated on the session's clock (the times the agent's messages carry, see
 * InterventionSession.observe), so that a replay at any speed is judged as `warden eval` judges it.
 */
@Injectable()
export class InterventionSupervisor implements OnModuleInit, OnApplicationShutdown {
  private readonly keeper: SessionKeeper<InterventionSession, SessionRecord>;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    @Inject(INTERVENTION_SETTINGS) private readonly settings: InterventionSettings,
    @Inject(INTERVENTION_TEMPLATES) private readonly templates: PromptTemplates,
    @Inject(INTERVENTION_REGISTRY) private readonly registry: InterventionRegistry,
    @Inject(INTERVENTION_PARTITIONS) partitions: number,
    @Inject(INTERVENTION_SWEEP_MS) private readonly sweepMs: number,
    bus: BusConnection,
    publisher: MessagePublisher,
    private readonly server: JetStreamServer,
    private readonly metrics: InterventionMetrics,
    private readonly notifications: IncidentNotifications,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.keeper = new SessionKeeper({
      store: new RecordStore(bus.nc, INTERVENTION_STATE_BUCKET),
      publish: (message) => publisher.publishMessage(message),
      partitions,
      lifecycle: new SessionLifecycle(bus.jsm, partitions),
      batching: SESSION_STORE_BATCHING,
      model: {
        open: (address) => new InterventionSession(settings, emptyRecord(address.agentId, address.sessionId, settings.resource_throttling.default_limits)),
        restore: (record) => new InterventionSession(settings, record),
        snapshot: (session) => session.record,
        // The record remembers the messages applied to it: the keeper keeps them once.
        applied: (session, messageId) => session.hasApplied(messageId),
      },
      events: { size: (held) => metrics.sessions.set(held), conflict: () => metrics.conflicts.inc() },
    });
  }

  onModuleInit(): void {
    this.keeper.follow(this.server);
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepMs);
    this.sweepTimer.unref();
  }

  onApplicationShutdown(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    return this.keeper.stop();
  }

  /** A session message (lifecycle, action, outcome, checkpoint, acknowledgement), applied once (`storedAt`: when JetStream stored it). */
  onSessionMessage(message: SessionMessage, storedAt: number, defer?: () => MessageReceipt): Promise<void> {
    return this.apply(message, storedAt, (session) => carriedTime(session, message, storedAt), (session, at) => applySessionMessage(session, message, at), defer);
  }

  /** A message of the session's own detectors or breakers that reports no issue: recorded as seen, so its redelivery is recognised. */
  onQuietReport(message: AnyMessage, storedAt: number, defer?: () => MessageReceipt): Promise<void> {
    return this.apply(message, storedAt, (session) => session.timeAt(storedAt), () => noEffects(), defer);
  }

  /** An issue arrived: choose and issue an intervention, or record why not. It is dated on the session's clock. */
  onIssue(message: AnyMessage, reported: Issue, storedAt: number): Promise<void> {
    return this.apply(message, storedAt, (session) => session.timeAt(storedAt), async (session, at) => {
      const issue = { ...reported, at };
      const custom = await this.customDecision(session, issue);
      const response = respondToIssue(session, issue, {
        settings: this.settings,
        templates: this.templates,
        causeId: message.id,
        at,
        ...(custom ? { custom: { type: custom.decision.intervention_type, handler: custom.handler, ...(custom.decision.message ? { message: custom.decision.message } : {}) } } : {}),
      });
      const { plan } = response;
      const log = { agent_id: session.agentId, session_id: session.sessionId, issue_type: issue.type };
      if (plan.skip) this.logger.info({ ...log, reason: plan.skip }, 'no intervention issued');
      else this.logger.info({ ...log, intervention_type: plan.selection.type, escalation_level: plan.selection.escalation_level }, 'intervention issued');
      return responseEffects(session, response);
    });
  }

  /**
   * Applies `decide` to the session of `message` (once per message id; `storedAt`: when JetStream stored
   * it), at the session's time `timeOf` gives; resolves once what it leads to is stored and published
   * (with `defer`, a message that leads to nothing is stored with a later write: see StoreBatching).
   */
  private apply(
    message: AnyMessage,
    storedAt: number,
    timeOf: (session: InterventionSession) => number,
    decide: (session: InterventionSession, at: number) => Promise<Effects> | Effects,
    defer?: () => MessageReceipt,
  ): Promise<void> {
    let effects = noEffects();
    return this.keeper.apply({ agentId: message.agent_id, sessionId: message.session_id }, storedAt, message, {
      // The record remembers what it applied (markApplied); a session never ends here.
      ended: () => false,
      change: async (held, missed) => {
        // The declaration (or a goal change) this message overtook on its way is applied first.
        const before = missed.map((m) => {
          held.session.markApplied(m.message.id);
          const message = m.message as SessionMessage;
          return applySessionMessage(held.session, message, carriedTime(held.session, message, m.storedAt));
        });
        const at = timeOf(held.session);
        // Interventions whose observation time was over before this message are judged without it.
        const due = noEffects();
        judge(held.session.evaluateDue(at), due);
        effects = await decide(held.session, at);
        // What the overtaken messages and the time led to goes first, in their order.
        effects.publications.unshift(...before.flatMap((e) => e.publications), ...due.publications);
        effects.tallies.push(...before.flatMap((e) => e.tallies), ...due.tallies);
        held.session.markApplied(message.id);
        return effects.publications;
      },
      committed: (held) => this.followUp(held, effects),
    }, defer);
  }

  /** What follows effects once stored and published: their counts, and the incident notice. */
  private followUp(held: Held<InterventionSession>, effects: Effects): void {
    this.metrics.count(effects.tallies);
    if (effects.notice) void this.notifications.send(held.address, effects.notice);
  }

  /** A registered handler's choice; a handler that fails is logged and the strategy decides instead. */
  private async customDecision(session: InterventionSession, issue: Issue) {
    if (!this.registry.names.length) return null;
    try {
      return await this.registry.decide(issue, {
        ...session.record.context,
        interventions: session.record.interventions.map((i) => ({ type: i.type, issue_type: i.issue_type, at: i.at })),
      });
    } catch (error) {
      this.logger.error({ agent_id: session.agentId, session_id: session.sessionId, issue_type: issue.type, err: error }, 'a custom intervention handler failed; the strategy decides');
      return null;
    }
  }

  /** Judges the interventions of held sessions whose observation time is over (on each session's clock). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const { address, session } of this.keeper.heldSessions()) {
      const due = session.nextEvaluationAt();
      if (due === undefined || due > session.timeAt(now)) continue;
      await this.keeper
        .run(address, now, async (held) => {
          const effects = noEffects();
          judge(held.session.evaluateDue(held.session.timeAt(Date.now())), effects);
          if (!effects.publications.length) return;
          await this.keeper.commit(held, undefined, effects.publications);
          this.followUp(held, effects);
        })
        .catch((error: unknown) => this.logger.warn({ err: error }, 'intervention sweep failed; retried on the next one'));
    }
  }
}

/** The time a session message carries (see InterventionSession.observe); the session's clock moves to it. */
function carriedTime(session: InterventionSession, message: SessionMessage, storedAt: number): number {
  const replay = session.record.replay === true || (message.type === 'session.started' && message.payload.replay === true);
  return session.observe(eventTime(message.timestamp, storedAt, MAX_CLOCK_SKEW_MS), storedAt, replay);
}
