import { performance } from 'node:perf_hooks';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { sessionSubscription } from '@warden/contracts';
import { Samples, type LatencySummary } from './stats.js';

/** Wall-clock milliseconds with sub-millisecond precision, on the same clock as message timestamps. */
export const wallNow = () => performance.timeOrigin + performance.now();

export interface StageSplit {
  /** Actions whose three stages were all seen. */
  count: number;
  /** Proposing to the reviewer creating its verdict: agent publish, JetStream store, delivery, review. */
  toVerdict: LatencySummary;
  /** Verdict created to decision created: verdict publish-ack, delivery to the gate, the gate's work. */
  toDecision: LatencySummary;
  /** Decision created to the agent's propose() resolving: decision publish, delivery, SDK handling. */
  toAgent: LatencySummary;
}

interface Pending {
  actionId: string;
  proposedAt: number;
  decisionAt: number;
  resolvedAt: number;
}

/**
 * Splits the round trip of a sample of sessions into stages, from the timestamps the reviewer and the
 * gate put into the verdict and decision they create (millisecond resolution: a stage reads 0 or 1 ms
 * at the median, the tail is what it is for). Verdicts are read with a plain subscription on the
 * sampled sessions only, so the probe costs next to nothing.
 */
export class StageProbe {
  private readonly verdictAt = new Map<string, number>();
  private readonly subscriptions: Subscription[] = [];
  private pending: Pending[] = [];

  constructor(
    nc: NatsConnection,
    readonly sampled: ReadonlySet<string>,
    sessions: { agentId: string; sessionId: string }[],
  ) {
    for (const s of sessions) {
      if (!sampled.has(s.sessionId)) continue;
      this.subscriptions.push(
        nc.subscribe(sessionSubscription('verdict', s.agentId, s.sessionId), {
          callback: (error, msg) => {
            if (error) return;
            try {
              const verdict = msg.json<{ timestamp: string; payload: { action_id: string } }>();
              this.verdictAt.set(verdict.payload.action_id, Date.parse(verdict.timestamp));
            } catch {
              // Not a verdict this probe understands; the services' own screening deals with it.
            }
          },
        }),
      );
    }
  }

  record(actionId: string, proposedAt: number, decisionTimestamp: string, resolvedAt: number): void {
    this.pending.push({ actionId, proposedAt, decisionAt: Date.parse(decisionTimestamp), resolvedAt });
  }

  /** The split of everything recorded since the last call. */
  take(): StageSplit {
    const toVerdict = new Samples();
    const toDecision = new Samples();
    const toAgent = new Samples();
    for (const p of this.pending) {
      const verdictAt = this.verdictAt.get(p.actionId);
      if (verdictAt === undefined) continue;
      toVerdict.add(verdictAt - p.proposedAt);
      toDecision.add(p.decisionAt - verdictAt);
      toAgent.add(p.resolvedAt - p.decisionAt);
    }
    this.pending = [];
    this.verdictAt.clear();
    return { count: toVerdict.count, toVerdict: toVerdict.summary(), toDecision: toDecision.summary(), toAgent: toAgent.summary() };
  }

  close(): void {
    for (const s of this.subscriptions) s.unsubscribe();
  }
}
