import { performance } from 'node:perf_hooks';
import type { AnyMessage, MessageOf } from '@warden/contracts';
import type { Logger } from '@warden/observability';
import { answerOf, flushPlanOf, onFlushed, type GateRequestRecord, type GateView, type OutgoingMessage, type SessionFacts, type StoredEntry } from '@warden/gate';
import type { GateMetrics } from '../core/gate-metrics.js';
import type { GateStores } from '../core/gate-stores.js';
import type { DecisionSender } from './decision-sender.js';

const PROGRESS_EVERY = 500;

export interface FlushOptions<S extends Flushing> {
  stores: GateStores;
  decisions: DecisionSender;
  publish(message: AnyMessage): Promise<unknown>;
  metrics: GateMetrics;
  log: Logger;
  now: () => Date;
  /** The facts of the session flushed, as the relay holds them. */
  facts: {
    get(session: S): Promise<SessionFacts | undefined>;
    put(session: S, facts: SessionFacts): Promise<void>;
  };
  /** Told of each request the flush answered (the approval channels update their messages). */
  answered?(record: GateRequestRecord): Promise<void>;
  /** Told after each message a flush published, with the count so far (a test stops the process there). */
  afterFlushed?(published: number): void;
}

/** A session whose flush is stored (status flushing), with the revision of its record. */
export interface Flushing extends GateView {
  revision: number | undefined;
}

/**
 * Runs a stored flush to its end: answers the pending requests, publishes the planned messages in
 * order, each acknowledged before the next, with its progress recorded after each (a flush a crash
 * interrupted resumes where it stopped; the one message re-published carries the same id and
 * JetStream drops it), then closes the window and removes the session's record.
 */
export class GateFlush<S extends Flushing> {
  constructor(private readonly options: FlushOptions<S>) {}

  async run(session: S, entries?: StoredEntry[], plan?: OutgoingMessage[], progress?: () => void): Promise<void> {
    const { stores, metrics } = this.options;
    const { agentId, sessionId } = session;
    const state = session.state!;
    const started = performance.now();
    entries ??= await stores.buffer.read(agentId, sessionId);
    plan ??= flushPlanOf(session, entries);
    await this.answerRequests(session);
    let published = await stores.states.cursor(agentId, sessionId, state.window.id);
    // FR-11.3 wants a partial flush visible to operators; here it is also finished.
    if (published > 0) this.options.log.error({ session_id: sessionId, agent_id: agentId, published, planned: plan.length }, 'resuming an interrupted flush');
    const verdicts = new Map(entries.flatMap((e) => (e.entry.kind === 'decision' ? [[e.entry.action_id, e.entry.verdict] as const] : [])));
    let recording: Promise<void> | undefined;
    for (let i = published; i < plan.length; i++) {
      const message = plan[i]!;
      const verdict = message.type === 'decision.made' ? verdicts.get(message.payload.action_id) : undefined;
      await Promise.all([verdict ? this.options.decisions.send(message as MessageOf<'decision.made'>, verdict) : this.options.publish(message as AnyMessage), recording]);
      published = i + 1;
      recording = stores.states.putCursor(agentId, sessionId, state.window.id, published);
      this.options.afterFlushed?.(published);
      if (published % PROGRESS_EVERY === 0) progress?.();
    }
    await recording;
    metrics.flushed.inc(Math.max(0, plan.length));
    for (const message of plan) if (message.type === 'decision.made') metrics.decisions.inc({ decision: message.payload.decision, verdict: message.payload.verdict });
    await this.close(session);
    metrics.flushDuration.observe((performance.now() - started) / 1000);
  }

  /** Every request still pending when the session resumes is answered by that resumption. */
  private async answerRequests(session: Flushing): Promise<void> {
    const state = session.state!;
    for (const pending of state.requests) {
      const stored = await this.options.stores.requests.get(pending.request_id);
      const answer = answerOf(session, pending, state.flush!, stored, this.options.now());
      if (answer.record) {
        await this.options.stores.requests.put(answer.record);
        await this.options.answered?.(answer.record);
        this.options.metrics.requests.inc({ gate: pending.gate_id, outcome: answer.outcome });
        this.options.metrics.responseTime.observe({ gate: pending.gate_id }, answer.responseMs / 1000);
      }
      await this.options.publish(answer.message);
    }
  }

  /** After the flush: close event, reversals, the unpause's own record, approvals, and the record removed. */
  private async close(session: S): Promise<void> {
    const { agentId, sessionId } = session;
    const facts = await this.options.facts.get(session);
    const closing = onFlushed(session, facts, this.options.now());
    for (const message of closing.messages) await this.options.publish(message);
    // The approvals a window leaves are remembered before the agent is told it may go on.
    if (closing.facts) await this.options.facts.put(session, closing.facts);
    if (closing.resume) await this.options.publish(closing.resume);
    const { stores } = this.options;
    await stores.buffer.purge(agentId, sessionId);
    await stores.states.removeCursor(agentId, sessionId);
    await stores.states.remove(agentId, sessionId, session.revision);
  }
}
