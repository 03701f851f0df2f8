import { createMessage } from '@warden/contracts';
import type { BenchOptions } from './options.js';
import type { LoadResult } from './load.js';
import { cpuPerDecision } from './report.js';
import { round, roundSummary } from './stats.js';
import { IDLE_SETTLE_MS } from './whole-suite.js';

/** A representative action message, so that the baselines move payloads of the size the path moves. */
export function representativePayload(): Uint8Array {
  const message = createMessage('action.proposed', {
    session_id: 'bench-session-0000',
    agent_id: 'bench-agent-0',
    payload: { action_id: 'bench-0000000000-0', kind: 'tool_use', tool: 'Read', input: { file_path: '/work/app/src/module-1.ts' } },
  });
  return new TextEncoder().encode(JSON.stringify(message));
}

/** Rounds every latency summary and share in a load result for the JSON output. */
export function tidy<T extends LoadResult>(result: T): T & { cpuMsPerDecision?: Record<string, number | null> } {
  const perDecision = cpuPerDecision(result);
  return {
    ...result,
    ...(perDecision ? { cpuMsPerDecision: perDecision } : {}),
    ...(result.stages
      ? {
          stages: {
            count: result.stages.count,
            toVerdict: roundSummary(result.stages.toVerdict),
            toDecision: roundSummary(result.stages.toDecision),
            toAgent: roundSummary(result.stages.toAgent),
          },
        }
      : {}),
    windowS: round(result.windowS),
    decidedPerSecond: round(result.decidedPerSecond, 1),
    drainMs: round(result.drainMs, 1),
    generatorLoopDelayP99: round(result.generatorLoopDelayP99),
    latency: roundSummary(result.latency),
    ...(result.fromSchedule ? { fromSchedule: roundSummary(result.fromSchedule) } : {}),
    ...(result.sendLag ? { sendLag: roundSummary(result.sendLag) } : {}),
  };
}

/**
 * An upper bound on a run's length, after which it is ended as stuck: the load phases (the latency phase
 * four times: alone, with the breaker, with the audit, with the whole suite), their drains, the whole
 * suite's wait for the streams' duplicate window and its idle window, and 600 s for the in-process
 * measures, the console and starting and stopping processes on a slow machine.
 */
export function timeBudgetMs(o: BenchOptions): number {
  const phases = o.warmupS + 4 * o.durationS + o.steps.length * o.stepDurationS + o.closedDurationS + o.publishDurationS;
  const drains = (o.steps.length + 3) * (o.decisionTimeoutMs / 1000 + 10);
  const idle = (o.quick ? 0 : IDLE_SETTLE_MS / 1000) + o.idleS;
  return (600 + phases + drains + idle) * 1000;
}

