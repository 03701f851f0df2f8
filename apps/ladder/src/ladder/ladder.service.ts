import { Inject, Injectable } from '@nestjs/common';
import { NO_SCOPE, type AnyMessage, type AutomationLevel, type MessageOf } from '@warden/contracts';
import { MessagePublisher, RejectMessageError } from '@warden/messaging';
import { LOGGER, type Logger } from '@warden/observability';
import { AutomationLadder, contractMetrics, type LadderEvent, type LadderStep, type TrackRecord } from '@warden/ladder';
import { AutomationLevelPublisher } from './automation-level.publisher.js';
import { LadderMetrics } from './ladder-metrics.js';
import { TrackRecordStore } from './track-record.store.js';

/**
 * The ladder on the bus: applies each run outcome, emergency stop and operator command to the agent's
 * track record in KV, then publishes what happened. The record is written first and the events after,
 * each with an id derived from its cause: a message redelivered after a crash in between is recognised
 * in the record and publishes the same events again, which JetStream drops if they had gone out.
 */
@Injectable()
export class LadderService {
  constructor(
    private readonly ladder: AutomationLadder,
    private readonly records: TrackRecordStore,
    private readonly levels: AutomationLevelPublisher,
    private readonly publisher: MessagePublisher,
    private readonly metrics: LadderMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The agent's `session.ended`. The run is counted from what Warden saw of the session (the gate's
   * decisions, see `observedOutcome`), never from the `status` or `human_approved` the agent reports.
   */
  async endSession(message: MessageOf<'session.ended'>): Promise<void> {
    const { status, false_positives, missed_critical_bugs } = message.payload;
    const end = {
      sessionId: message.session_id,
      status,
      ...(false_positives !== undefined ? { falsePositives: false_positives } : {}),
      ...(missed_critical_bugs !== undefined ? { missedCriticalBugs: missed_critical_bugs } : {}),
    };
    const { step } = await this.handle(message, (record, event) => this.ladder.endSession(record, end, event));
    await this.publishRun(message, step);
  }

  /** A decision the gate published: part of what Warden saw of the session, and the run's count when it ended before. */
  async observeDecision(message: MessageOf<'decision.made'>): Promise<void> {
    const { decision, decided_by } = message.payload;
    const { step } = await this.handle(message, (record, event) =>
      this.ladder.observeDecision(record, { sessionId: message.session_id, decision, decidedBy: decided_by }, event),
    );
    await this.publishRun(message, step);
  }

  /** After a counted run (or its redelivery): the metrics, on the session of the message that completed it. */
  private async publishRun(message: AnyMessage, step: LadderStep): Promise<void> {
    const counted = step.outcome === 'applied' && step.run !== undefined;
    // A redelivery of the message that completed a run (a crash before the publish) publishes it again.
    const again = step.outcome === 'duplicate' && (step.record.sessions ?? []).some((s) => s.countedBy === message.id);
    if (counted) this.metrics.runRecorded(step.run!.status);
    if (counted || again) {
      await this.publisher.publishCausedBy(message, 'ladder.metrics_updated', { level: step.record.level, metrics: contractMetrics(step.record.metrics) });
    }
  }

  async emergencyStop(message: MessageOf<'intervention.issued'>): Promise<void> {
    const { intervention_id, trigger } = message.payload;
    const detail = `intervention ${intervention_id} after ${trigger.kind} ${trigger.issue_type}`;
    await this.handle(message, (record, event) => this.ladder.emergencyStop(record, event, detail));
  }

  async applyCommand(message: MessageOf<'ladder.command'>): Promise<void> {
    const { command, level, operator_id, reason } = message.payload;
    if (message.agent_id === NO_SCOPE) {
      this.metrics.commandRejected(command, 'no_agent');
      throw new RejectMessageError('a ladder command names its agent in agent_id');
    }
    const { step } = await this.handle(message, (record, event) =>
      this.ladder.applyCommand(
        record,
        { command, operatorId: operator_id, ...(level !== undefined ? { level: level as AutomationLevel } : {}), ...(reason !== undefined ? { reason } : {}) },
        event,
      ),
    );
    if (step.outcome === 'rejected') {
      this.metrics.commandRejected(command, step.rejection);
      this.logger.warn({ agent_id: message.agent_id, command, operator_id, rejection: step.rejection }, `ladder command rejected: ${step.reason}`);
      // Dead-lettered with the reason: the operator (and the audit log) see why nothing changed.
      throw new RejectMessageError(step.reason);
    }
  }

  private async handle(message: AnyMessage, decide: (record: TrackRecord, event: LadderEvent) => LadderStep): Promise<{ step: LadderStep }> {
    const agentId = message.agent_id;
    if (agentId === NO_SCOPE) throw new RejectMessageError(`${message.type} without an agent cannot count toward a track record`);
    const event: LadderEvent = { messageId: message.id, at: new Date() };
    const { step, created } = await this.records.apply(agentId, (record) => decide(record, event), () => this.ladder.newRecord(agentId, event.at));
    if (step.outcome === 'rejected' || step.outcome === 'unchanged') return { step };
    if (step.outcome === 'duplicate') this.metrics.duplicate(message.type);
    // A redelivery may follow a crash before the level went out, so it publishes the level again too. An
    // agent's level is published once one of its sessions has ended (or it changes), as it was before the
    // ladder watched decisions: a decision that creates the record does not put a new agent under its
    // initial level in the middle of its first session.
    const publishLevel = (created && message.type !== 'decision.made') || message.type === 'session.ended' || step.change || step.outcome === 'duplicate';
    if (publishLevel) await this.levels.sync(agentId);
    if (step.change) {
      const { from, to, reason, changedBy, metrics } = step.change;
      await this.publisher.publishCausedBy(message, 'ladder.level_changed', { from, to, reason, changed_by: changedBy, metrics: contractMetrics(metrics) });
      if (step.outcome === 'applied') {
        this.metrics.levelChanged(step.change);
        this.logger.info({ agent_id: agentId, from, to, cause: step.change.cause, changed_by: changedBy }, reason);
      }
    }
    if (step.outcome === 'applied' && step.note) this.logger.info({ agent_id: agentId, message_type: message.type }, `ladder: ${step.note}`);
    return { step };
  }
}
