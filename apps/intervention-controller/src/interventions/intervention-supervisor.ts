import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { derivedMessageId, partitionOf, type AnyMessage, type PayloadOf } from '@warden/contracts';
import { JetStreamServer, MessagePublisher, RecordConflictError, SessionLanes } from '@warden/messaging';
import { LOGGER, type Logger } from '@warden/observability';
import type { InterventionRegistry } from '@warden/interventions';
import type { IncidentReport } from '@warden/interventions';
import { InterventionSession, type Evaluated } from '@warden/interventions';
import type { InterventionSettings } from '@warden/interventions';
import { evaluationPublications, respondToIssue, type Publication } from '@warden/interventions';
import type { Issue } from '@warden/interventions';
import type { PromptTemplates } from '@warden/interventions';
import { emptyRecord } from '@warden/interventions';
import { InterventionMetrics } from './intervention-metrics.js';
import { InterventionStore } from './intervention-store.js';
import type { Notifier } from './notifier.js';

export const INTERVENTION_SETTINGS = Symbol('INTERVENTION_SETTINGS');
export const INTERVENTION_TEMPLATES = Symbol('INTERVENTION_TEMPLATES');
export const INTERVENTION_REGISTRY = Symbol('INTERVENTION_REGISTRY');
export const INTERVENTION_NOTIFIERS = Symbol('INTERVENTION_NOTIFIERS');
export const INTERVENTION_PARTITIONS = Symbol('INTERVENTION_PARTITIONS');
export const INTERVENTION_SWEEP_MS = Symbol('INTERVENTION_SWEEP_MS');


/** What a change to a session leads to: messages to publish, and counters to move once stored. */
export interface Effects {
  publications: Publication[];
  after: (() => void)[];
  /** Sent once the record is stored (an emergency stop's notification). */
  notice?: IncidentReport;
}

interface HeldSession {
  session: InterventionSession;
  revision: number;
}

const emptyEffects = (): Effects => ({ publications: [], after: [] });

/**
 * Runs the sessions of the partitions this replica owns. Each session's messages are applied one at a
 * time to its record (cached, loaded from the KV bucket on first sight): the domain decides, the
 * resulting messages are published with ids derived from their cause, then the record is written with
 * compare-and-set. A sweep judges interventions whose observation time is over.
 */
@Injectable()
export class InterventionSupervisor implements OnModuleInit, OnApplicationShutdown {
  private readonly sessions = new Map<string, HeldSession>();
  /** Each session's work runs one task after the other. */
  private readonly lanes = new SessionLanes();
  private sweepTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(INTERVENTION_SETTINGS) private readonly settings: InterventionSettings,
    @Inject(INTERVENTION_TEMPLATES) private readonly templates: PromptTemplates,
    @Inject(INTERVENTION_REGISTRY) private readonly registry: InterventionRegistry,
    @Inject(INTERVENTION_NOTIFIERS) private readonly notifiers: Notifier[],
    @Inject(INTERVENTION_PARTITIONS) private readonly partitions: number,
    @Inject(INTERVENTION_SWEEP_MS) private readonly sweepMs: number,
    private readonly store: InterventionStore,
    private readonly publisher: MessagePublisher,
    private readonly server: JetStreamServer,
    private readonly metrics: InterventionMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.server.on('partition.released', (partition: number) => {
      for (const [k, held] of this.sessions) if (partitionOf(held.session.sessionId, this.partitions) === partition) this.sessions.delete(k);
      this.metrics.sessions.set(this.sessions.size);
    });
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepMs);
    this.sweepTimer.unref();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sessions.clear();
  }

  /**
   * Applies `change` to the session of `message` (once per message id) and makes its consequences
   * durable before resolving: messages published, record stored.
   */
  apply(message: AnyMessage, change: (session: InterventionSession, effects: Effects) => Promise<void> | void): Promise<void> {
    return this.lanes.run(key(message.agent_id, message.session_id), async () => {
      const held = await this.held(message.agent_id, message.session_id);
      if (held.session.hasApplied(message.id)) return;
      try {
        const effects = emptyEffects();
        await change(held.session, effects);
        held.session.markApplied(message.id);
        // Interventions whose time is over are judged with every event of the session, not only by the sweep.
        this.judge(held.session.evaluateDue(Date.now()), effects);
        await this.commit(held, effects, message);
      } catch (error) {
        // The cached copy holds a change that was not stored: the redelivery starts from the stored record.
        this.forget(message.agent_id, message.session_id);
        throw error;
      }
    });
  }

  /** An issue arrived: choose and issue an intervention, or record why not. */
  async onIssue(message: AnyMessage, issue: Issue, at: number): Promise<void> {
    await this.apply(message, async (session, effects) => {
      const custom = await this.customDecision(session, issue);
      const response = respondToIssue(session, issue, {
        settings: this.settings,
        templates: this.templates,
        causeId: message.id,
        at,
        ...(custom ? { custom: { type: custom.decision.intervention_type, handler: custom.handler, ...(custom.decision.message ? { message: custom.decision.message } : {}) } } : {}),
      });
      effects.publications.push(...response.publications);
      for (const p of response.publications) if (p.type === 'intervention.evaluated') effects.after.push(() => this.countEvaluation(session, p.payload as PayloadOf<'intervention.evaluated'>));
      const { plan } = response;
      if (plan.skip) {
        const type = plan.selection?.type ?? 'none';
        effects.after.push(() => this.metrics.interventions.inc({ intervention_type: type, outcome: `suppressed_${plan.skip}` }));
        this.logger.info({ agent_id: session.agentId, session_id: session.sessionId, issue_type: issue.type, reason: plan.skip }, 'no intervention issued');
        return;
      }
      const { selection } = plan;
      if (response.incident) effects.notice = response.incident;
      effects.after.push(() => {
        this.metrics.interventions.inc({ intervention_type: selection.type, outcome: 'issued' });
        if (selection.escalated) this.metrics.escalations.inc({ intervention_type: selection.type });
      });
      this.logger.info(
        { agent_id: session.agentId, session_id: session.sessionId, issue_type: issue.type, intervention_type: selection.type, escalation_level: selection.escalation_level },
        'intervention issued',
      );
    });
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

  countAcknowledgement(type: string, status: 'applied' | 'failed' | 'stopped'): void {
    this.metrics.interventions.inc({ intervention_type: type, outcome: status });
  }

  /** Settled evaluations become intervention.evaluated messages (one per intervention) and metrics. */
  judge(evaluated: Evaluated[], effects: Effects): void {
    effects.publications.push(...evaluationPublications(evaluated));
    for (const { intervention, evaluation } of evaluated) {
      effects.after.push(() => {
        this.metrics.interventions.inc({ intervention_type: intervention.type, outcome: evaluation.outcome });
        if (evaluation.outcome !== 'unknown') this.metrics.effectiveness.observe({ intervention_type: intervention.type }, evaluation.effectiveness);
      });
    }
  }

  /** Metrics of an evaluation settled by a recurring issue (the response already holds its message). */
  private countEvaluation(session: InterventionSession, evaluated: PayloadOf<'intervention.evaluated'>): void {
    const type = session.record.interventions.find((i) => i.id === evaluated.intervention_id)?.type ?? 'unknown';
    this.metrics.interventions.inc({ intervention_type: type, outcome: evaluated.outcome });
    if (evaluated.outcome !== 'unknown') this.metrics.effectiveness.observe({ intervention_type: type }, evaluated.effectiveness);
  }

  private async held(agentId: string, sessionId: string): Promise<HeldSession> {
    const k = key(agentId, sessionId);
    let held = this.sessions.get(k);
    if (!held) {
      const stored = await this.store.load(agentId, sessionId);
      held = stored
        ? { session: new InterventionSession(this.settings, stored.record), revision: stored.revision }
        : { session: new InterventionSession(this.settings, emptyRecord(agentId, sessionId, this.settings.resource_throttling.default_limits)), revision: 0 };
      this.sessions.set(k, held);
      this.metrics.sessions.set(this.sessions.size);
    }
    return held;
  }

  private async commit(held: HeldSession, effects: Effects, cause: AnyMessage | undefined): Promise<void> {
    const { session } = held;
    for (const p of effects.publications) {
      const id = derivedMessageId(p.type, p.key);
      if (cause) {
        await this.publisher.publishCausedBy(cause, p.type, p.payload as never, { key: p.key });
      } else {
        await this.publisher.publish(p.type, { id, agent_id: session.agentId, session_id: session.sessionId, payload: p.payload as never });
      }
    }
    try {
      held.revision = await this.store.save({ record: session.record, revision: held.revision });
    } catch (error) {
      if (error instanceof RecordConflictError) this.metrics.conflicts.inc();
      throw error;
    }
    for (const after of effects.after) after();
    if (effects.notice) void this.notify(session.agentId, session.sessionId, effects.notice);
  }

  private forget(agentId: string, sessionId: string): void {
    this.sessions.delete(key(agentId, sessionId));
    this.metrics.sessions.set(this.sessions.size);
  }

  private async notify(agentId: string, sessionId: string, incident: IncidentReport): Promise<void> {
    await Promise.all(
      this.notifiers.map(async (notifier) => {
        try {
          await notifier.notify({ agent_id: agentId, session_id: sessionId, incident });
          this.metrics.notifications.inc({ notifier: notifier.name, result: 'delivered' });
        } catch (error) {
          this.metrics.notifications.inc({ notifier: notifier.name, result: 'failed' });
          this.logger.error({ agent_id: agentId, session_id: sessionId, incident_id: incident.incident_id, err: error }, `emergency stop notification via ${notifier.name} failed`);
        }
      }),
    );
  }

  /** Judges the interventions of held sessions whose observation time is over. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [k, held] of [...this.sessions]) {
      if (this.stopped) return;
      const due = held.session.nextEvaluationAt();
      if (due === undefined || due > now) continue;
      await this.lanes.run(k, async () => {
        const current = this.sessions.get(k);
        if (!current) return;
        const effects = emptyEffects();
        this.judge(current.session.evaluateDue(Date.now()), effects);
        if (!effects.publications.length) return;
        try {
          await this.commit(current, effects, undefined);
        } catch (error) {
          this.forget(current.session.agentId, current.session.sessionId);
          throw error;
        }
      }).catch((error: unknown) => this.logger.warn({ err: error }, 'intervention sweep failed; retried on the next one'));
    }
  }
}

const key = (agentId: string, sessionId: string) => `${agentId}\u0000${sessionId}`;
