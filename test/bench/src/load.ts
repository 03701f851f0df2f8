import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { AgentSession } from '@warden/sdk';
import type { CpuMeter, CpuShares } from './cpu.js';
import type { ProgressStatus } from './progress.js';
import type { ServicePhaseFigures } from './service-metrics.js';
import { wallNow, type StageProbe, type StageSplit } from './stages.js';
import { Samples, type LatencySummary } from './stats.js';

interface ActionTemplate {
  name: string;
  weight: number;
  tool: string;
  input: (n: number) => Record<string, unknown>;
  /** What the gate must answer; anything else is counted as a wrong decision. */
  allowed: boolean;
}

/** What a coding agent mostly does (read, search, run the tests), with now and then a destructive command. */
export const ACTION_MIX: ActionTemplate[] = [
  { name: 'Read', weight: 35, tool: 'Read', input: (n) => ({ file_path: `/work/app/src/module-${n % 64}.ts` }), allowed: true },
  { name: 'Grep', weight: 25, tool: 'Grep', input: (n) => ({ pattern: `parseDate${n % 16}`, path: 'src' }), allowed: true },
  { name: 'Bash npm test', weight: 30, tool: 'Bash', input: () => ({ command: 'npm test' }), allowed: true },
  { name: 'Bash rm -rf /', weight: 10, tool: 'Bash', input: () => ({ command: 'rm -rf /' }), allowed: false },
];

const TOTAL_WEIGHT = ACTION_MIX.reduce((sum, t) => sum + t.weight, 0);

/** A small seeded PRNG (mulberry32): the same mix in every run, without Math.random's cost or variance. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BacklogProbe {
  /** Messages the reviewer's action consumers and the gate's verdict consumers have not acknowledged yet. */
  reviewerPending: number;
  gatePending: number;
}

export interface LoadResult {
  label: string;
  mode: 'open' | 'closed';
  /** Open loop: the rate asked for. */
  offeredRate?: number;
  /** Closed loop: proposals each session keeps in flight. */
  inFlightPerSession?: number;
  /** Seconds from the first proposal to the end of the load (the last scheduled proposal). */
  windowS: number;
  scheduled: number;
  sent: number;
  /** Answered by the gate (allowed or denied). */
  decided: number;
  /** Settled by the SDK's fallback: no decision within the timeout, or Warden unreachable. */
  lost: number;
  lostReasons: Record<string, number>;
  /** Settled by a dead letter: Warden refused the message. */
  rejected: number;
  /** A propose call that threw (contract violation). */
  errors: number;
  /** The first rejection or error, to say why. */
  firstError?: string;
  /** Decisions that did not match the expectation for the action (rm -rf / allowed, a Read denied...). */
  wrong: number;
  allowed: number;
  denied: number;
  /** propose() call to decision. */
  latency: LatencySummary;
  /** Open loop: the scheduled time of the proposal to its decision (includes the generator's own lag). */
  fromSchedule?: LatencySummary;
  /** Open loop: how late the generator made each proposal against its schedule. */
  sendLag?: LatencySummary;
  /** Decisions per second: decided / (last decision - first proposal). */
  decidedPerSecond: number;
  /** Proposals without a decision at the end of the load window. */
  backlogAtEnd: number;
  maxInFlight: number;
  /** Time after the window until every proposal was settled. */
  drainMs: number;
  /** The open loop stopped offering load because the backlog passed its bound. */
  stoppedEarly: boolean;
  backlogProbe?: BacklogProbe;
  /** The load generator's event-loop delay p99 beyond its sampling interval (ms): the generator itself lagging. */
  generatorLoopDelayP99: number;
  /** CPU use of each process during the load window, % of one core. */
  cpu?: CpuShares;
  /** The round trip of the sampled sessions split into stages. */
  stages?: StageSplit;
  /** What each service's /metrics said about the same phase. */
  services?: Record<string, ServicePhaseFigures>;
}

export interface OpenLoopOptions {
  label: string;
  rate: number;
  durationS: number;
  /** Stop offering load once this many proposals wait for decisions (a clearly unsustained rate). */
  maxBacklog: number;
  status: (status: () => ProgressStatus) => void;
  cpu?: CpuMeter;
  probeBacklog?: () => Promise<BacklogProbe>;
}

export interface ClosedLoopOptions {
  label: string;
  perSession: number;
  durationS: number;
  status: (status: () => ProgressStatus) => void;
  cpu?: CpuMeter;
}

class Tally {
  readonly latency = new Samples();
  readonly fromSchedule = new Samples();
  readonly sendLag = new Samples();
  readonly lostReasons: Record<string, number> = {};
  sent = 0;
  decided = 0;
  lost = 0;
  rejected = 0;
  errors = 0;
  wrong = 0;
  allowed = 0;
  denied = 0;
  maxInFlight = 0;
  firstSentAt = 0;
  lastSettledAt = 0;
  firstError?: string;
}

/**
 * Proposes actions through the SDK for a set of sessions and records each decision's round trip. The
 * open loop proposes on a fixed schedule whatever the answers (so a slow path shows as latency and
 * backlog, not as a lower offered rate); the closed loop keeps a fixed number of proposals in flight.
 */
/** Sampling interval of the generator's event-loop delay histogram; each sample is this plus the delay. */
const LOOP_RESOLUTION_MS = 5;

const loopDelayP99 = (histogram: ReturnType<typeof monitorEventLoopDelay>) =>
  Math.max(0, histogram.percentile(99) / 1e6 - LOOP_RESOLUTION_MS);

export class LoadDriver {
  private inFlight = 0;
  private seq = 0;
  private readonly random = prng(0x5eed);
  private readonly run = Date.now().toString(36);

  constructor(
    private readonly sessions: AgentSession[],
    private readonly timeoutMs: number,
    private readonly probe?: StageProbe,
  ) {}

  private pick(): ActionTemplate {
    let r = this.random() * TOTAL_WEIGHT;
    for (const template of ACTION_MIX) {
      r -= template.weight;
      if (r < 0) return template;
    }
    return ACTION_MIX[ACTION_MIX.length - 1]!;
  }

  /** Proposes one action; resolves once it is settled, after recording it in `tally`. */
  private propose(tally: Tally, scheduled: number | undefined, session?: AgentSession): Promise<void> {
    const n = this.seq++;
    const template = this.pick();
    const target = session ?? this.sessions[n % this.sessions.length]!;
    const started = performance.now();
    const sampled = this.probe?.sampled.has(target.sessionId) ?? false;
    const proposedAt = sampled ? wallNow() : 0;
    const actionId = `b${this.run}-${n}`;
    if (!tally.sent) tally.firstSentAt = started;
    if (scheduled !== undefined) tally.sendLag.add(started - scheduled);
    tally.sent++;
    this.inFlight++;
    if (this.inFlight > tally.maxInFlight) tally.maxInFlight = this.inFlight;
    let promise;
    try {
      promise = target.propose({ tool: template.tool, input: template.input(n), actionId }, { timeoutMs: this.timeoutMs });
    } catch (error) {
      promise = Promise.reject(error as Error);
    }
    return promise.then(
      (decision) => {
        const now = performance.now();
        this.inFlight--;
        tally.lastSettledAt = now;
        if (decision.decidedBy === 'fallback') {
          tally.lost++;
          const reason = decision.reason.replace(/\d+/g, 'N').slice(0, 120);
          tally.lostReasons[reason] = (tally.lostReasons[reason] ?? 0) + 1;
          return;
        }
        if (decision.decidedBy === 'rejected') {
          tally.rejected++;
          tally.firstError ??= decision.reason;
          return;
        }
        tally.decided++;
        tally.latency.add(now - started);
        if (sampled && decision.message) this.probe!.record(actionId, proposedAt, decision.message.timestamp, wallNow());
        if (scheduled !== undefined) tally.fromSchedule.add(now - scheduled);
        if (decision.allowed) tally.allowed++;
        else tally.denied++;
        if (decision.allowed !== template.allowed) tally.wrong++;
      },
      (error: Error) => {
        this.inFlight--;
        tally.lastSettledAt = performance.now();
        tally.errors++;
        tally.firstError ??= error.message;
      },
    );
  }

  /** Decisions per second since the previous call: what the path does right now. */
  private rateStatus(tally: Tally, extra: () => string): () => ProgressStatus {
    let lastAt = performance.now();
    let lastSettled = 0;
    return () => {
      const now = performance.now();
      const settled = tally.decided + tally.lost + tally.rejected + tally.errors;
      const rate = ((settled - lastSettled) * 1000) / Math.max(1, now - lastAt);
      lastAt = now;
      lastSettled = settled;
      const lost = tally.lost + tally.rejected + tally.errors;
      return {
        detail: `${Math.round(rate)}/s decided now, ${tally.decided} decided, ${this.inFlight} in flight${lost ? `, ${lost} LOST/REJECTED` : ''}${extra()}`,
      };
    };
  }

  /** Waits until every proposal is settled; each has its own timeout, so this ends. */
  private async drain(): Promise<number> {
    const started = performance.now();
    const deadline = started + this.timeoutMs + 5_000;
    while (this.inFlight > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    return performance.now() - started;
  }

  async openLoop(options: OpenLoopOptions): Promise<LoadResult> {
    const tally = new Tally();
    const interval = 1000 / options.rate;
    const total = Math.max(1, Math.round(options.rate * options.durationS));
    const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    this.probe?.take();
    let next = 0;
    let stoppedEarly = false;
    const start = performance.now() + 2;
    const status = this.rateStatus(tally, () => (stoppedEarly ? ', backlog bound hit: draining' : ''));
    options.status(() => ({ ...status(), done: Math.min(1, (performance.now() - start) / (options.durationS * 1000)) }));
    options.cpu?.begin();
    loop.enable();
    await new Promise<void>((resolve) => {
      const pump = () => {
        const now = performance.now();
        while (next < total && start + next * interval <= now) {
          if (this.inFlight >= options.maxBacklog) {
            stoppedEarly = true;
            break;
          }
          void this.propose(tally, start + next * interval);
          next++;
        }
        if (next >= total || stoppedEarly) {
          resolve();
          return;
        }
        // Timers fire at 1 ms granularity; proposals that came due meanwhile go out together (and their
        // lateness is recorded as send lag).
        setTimeout(pump, Math.max(0, start + next * interval - performance.now()));
      };
      pump();
    });
    const windowEnd = performance.now();
    loop.disable();
    const cpu = options.cpu?.end();
    const backlogAtEnd = this.inFlight;
    const probe = options.probeBacklog?.().catch(() => undefined);
    const drainMs = await this.drain();
    const backlogProbe = await probe;
    return {
      label: options.label,
      mode: 'open',
      offeredRate: options.rate,
      windowS: (windowEnd - tally.firstSentAt) / 1000,
      scheduled: total,
      ...this.results(tally),
      fromSchedule: tally.fromSchedule.summary(),
      sendLag: tally.sendLag.summary(),
      backlogAtEnd,
      drainMs,
      stoppedEarly,
      ...(backlogProbe ? { backlogProbe } : {}),
      generatorLoopDelayP99: loopDelayP99(loop),
      ...(cpu ? { cpu } : {}),
      ...(this.probe ? { stages: this.probe.take() } : {}),
    };
  }

  async closedLoop(options: ClosedLoopOptions): Promise<LoadResult> {
    const tally = new Tally();
    const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    this.probe?.take();
    const started = performance.now();
    const deadline = started + options.durationS * 1000;
    const status = this.rateStatus(tally, () => '');
    options.status(() => ({ ...status(), done: Math.min(1, (performance.now() - started) / (options.durationS * 1000)) }));
    options.cpu?.begin();
    loop.enable();
    let windowEnd = 0;
    const worker = async (session: AgentSession) => {
      while (performance.now() < deadline) await this.propose(tally, undefined, session);
    };
    const workers = this.sessions.flatMap((s) => Array.from({ length: options.perSession }, () => worker(s)));
    // The window ends when the deadline passes; the proposals still in flight then are the backlog.
    const ended = new Promise<void>((resolve) =>
      setTimeout(() => {
        windowEnd = performance.now();
        resolve();
      }, options.durationS * 1000),
    );
    await ended;
    loop.disable();
    const cpu = options.cpu?.end();
    const backlogAtEnd = this.inFlight;
    await Promise.all(workers);
    const drainMs = performance.now() - windowEnd;
    return {
      label: options.label,
      mode: 'closed',
      inFlightPerSession: options.perSession,
      windowS: (windowEnd - tally.firstSentAt) / 1000,
      scheduled: tally.sent,
      ...this.results(tally),
      backlogAtEnd,
      drainMs,
      stoppedEarly: false,
      generatorLoopDelayP99: loopDelayP99(loop),
      ...(cpu ? { cpu } : {}),
      ...(this.probe ? { stages: this.probe.take() } : {}),
    };
  }

  private results(tally: Tally) {
    const span = (tally.lastSettledAt - tally.firstSentAt) / 1000;
    return {
      sent: tally.sent,
      decided: tally.decided,
      lost: tally.lost,
      lostReasons: tally.lostReasons,
      rejected: tally.rejected,
      errors: tally.errors,
      ...(tally.firstError ? { firstError: tally.firstError } : {}),
      wrong: tally.wrong,
      allowed: tally.allowed,
      denied: tally.denied,
      latency: tally.latency.summary(),
      decidedPerSecond: span > 0 ? tally.decided / span : 0,
      maxInFlight: tally.maxInFlight,
    };
  }
}
