import type { AuditIngestFigures } from './audit-ingest.js';
import type { IngestLagFigures } from './audit-lag.js';
import type { BreakerTimeFigures } from './breaker-time.js';
import type { PatternTimeFigures } from './pattern-time.js';
import type { GateRelayFigures } from './gate-relay.js';
import type { JetStreamResult, RequestReplyResult } from './baselines.js';
import type { CpuShares } from './cpu.js';
import type { LoadResult } from './load.js';
import type { ReviewTimeFigures } from './review-time.js';
import { BREAKER_EVENT, IN_PROCESS_REVIEW } from './service-metrics.js';

export const TARGETS = {
  /** Decision round trip p99 at the latency phase's rate, ms. */
  latencyP99Ms: 5,
  latencyRate: 500,
  /** Actions/s sustained with no lost decision. */
  sustainedRate: 2000,
  /** In-process review time p99 with every built-in rule and reviewCustomRules custom rules, ms. */
  reviewP99Ms: 1,
  reviewCustomRules: 200,
} as const;

export interface StepResult extends LoadResult {
  sustained: boolean;
  /** Why a step was not sustained. */
  why: string[];
}

export interface TargetResult {
  name: string;
  target: string;
  value: string;
  met: boolean;
}

export interface Figures {
  requestReply: RequestReplyResult;
  jetstream: JetStreamResult;
  latency: LoadResult;
  steps: StepResult[];
  closedLoop?: LoadResult;
  review?: ReviewTimeFigures;
  /** The same with the custom rules written as CEL conditions (`when:`) instead of match conditions. */
  reviewCel?: ReviewTimeFigures;
  /** The breakers' check time in process, and the latency phase again with the breaker running. */
  breaker?: { inProcess: BreakerTimeFigures; withBreaker: LoadResult };
  gateRelay?: GateRelayFigures;
  /** The pattern detectors' time per event and memory with many active sessions, in process. */
  patterns?: PatternTimeFigures;
  /** The audit's ingest rate beside a raw insert, and the latency phase again with audit persisting into PostgreSQL. */
  audit?: { ingest: AuditIngestFigures; underLoad: { latency: LoadResult; ingest: IngestLagFigures; drainedMs: number } };
}

/**
 * A step is sustained when every proposal got its decision from the gate, the decisions kept up with
 * the offered rate (95%), and the proposals still waiting at the step's end are at most a quarter
 * second of offered load: a backlog that does not grow.
 */
export function judgeStep(result: LoadResult): StepResult {
  const offered = result.offeredRate ?? 0;
  const why: string[] = [];
  if (result.lost) why.push(`${result.lost} decision(s) lost`);
  if (result.rejected) why.push(`${result.rejected} rejected`);
  if (result.errors) why.push(`${result.errors} propose error(s)`);
  if (result.stoppedEarly) why.push('backlog passed its bound, load stopped early');
  if (result.decidedPerSecond < 0.95 * offered) why.push(`decided ${Math.round(result.decidedPerSecond)}/s < 95% of offered`);
  const bound = Math.max(1, Math.ceil(offered / 4));
  if (result.backlogAtEnd > bound) why.push(`backlog ${result.backlogAtEnd} at the end > ${bound}`);
  return { ...result, sustained: why.length === 0, why };
}

/** The highest sustained step, if any. */
export function sustainedStep(steps: StepResult[]): StepResult | undefined {
  return steps.filter((s) => s.sustained).sort((a, b) => (b.offeredRate ?? 0) - (a.offeredRate ?? 0))[0];
}

export function evaluateTargets(f: Figures, latencyRate: number): TargetResult[] {
  const best = sustainedStep(f.steps);
  const lostAtRate = f.latency.lost + f.latency.rejected + f.latency.errors;
  return [
    {
      name: `decision p99 at ${TARGETS.latencyRate} actions/s`,
      target: `<= ${TARGETS.latencyP99Ms} ms`,
      value: latencyRate === TARGETS.latencyRate ? ms(f.latency.latency.p99) : `not measured (ran at ${latencyRate}/s)`,
      met: latencyRate === TARGETS.latencyRate && f.latency.latency.p99 <= TARGETS.latencyP99Ms,
    },
    {
      name: `lost decisions at ${latencyRate} actions/s`,
      target: '0',
      value: String(lostAtRate),
      met: lostAtRate === 0,
    },
    {
      name: 'sustained throughput, no lost decision',
      target: `>= ${num(TARGETS.sustainedRate)} actions/s`,
      value: best ? `${num(best.offeredRate ?? 0)}/s offered, ${num(best.decidedPerSecond)}/s decided` : 'no step sustained',
      met: !!best && (best.offeredRate ?? 0) >= TARGETS.sustainedRate,
    },
    {
      name: `review p99 in process (built-in + ${TARGETS.reviewCustomRules} custom rules)`,
      target: `<= ${TARGETS.reviewP99Ms} ms`,
      value: f.review ? ms(f.review.uncached.p99Ms) : 'not measured',
      met: !!f.review && f.review.rules.custom >= TARGETS.reviewCustomRules && f.review.uncached.p99Ms <= TARGETS.reviewP99Ms,
    },
    {
      name: `review p99 in process (built-in + ${TARGETS.reviewCustomRules} custom rules written in CEL)`,
      target: `<= ${TARGETS.reviewP99Ms} ms`,
      value: f.reviewCel ? ms(f.reviewCel.uncached.p99Ms) : 'not measured',
      met: !!f.reviewCel && (f.reviewCel.rules.cel ?? 0) >= TARGETS.reviewCustomRules && f.reviewCel.uncached.p99Ms <= TARGETS.reviewP99Ms,
    },
    {
      name: 'review p99 in process, shell commands of 1-4 KB (parser included)',
      target: `<= ${TARGETS.reviewP99Ms} ms`,
      value: f.review?.longCommands ? `${ms(f.review.longCommands.p99Ms)}${collectionsNote(f.review.longCommandCollections, f.review.nodeOptions)}` : 'not measured',
      met: !!f.review?.longCommands && f.review.longCommands.p99Ms <= TARGETS.reviewP99Ms,
    },
  ];
}

/** Which share of the reviews a garbage collection fell into, and the p99 of the others: what the tail is made of. */
function collectionsNote(gc: ReviewTimeFigures['longCommandCollections'], nodeOptions: string[] | undefined): string {
  if (!gc) return '';
  return ` (a collection began in ${gc.hit} of ${gc.operations} reviews, ${ms(gc.meanPauseMs)} per pause; the others: p99 ${ms(gc.withoutPauses.p99Ms)}${nodeNote(nodeOptions)})`;
}

function nodeNote(nodeOptions: string[] | undefined): string {
  return nodeOptions?.length ? `; node ${nodeOptions.join(' ')}` : '';
}

/** The reviewer's own work as a share of the decision round trip in the latency phase (means). */
export function reviewerShare(f: Figures): { reviewMeanMs: number; handlerMeanMs: number; decisionMeanMs: number; reviewShare: number; handlerShare: number } | null {
  const reviewer = f.latency.services?.['reviewer'];
  const review = reviewer?.handlers[IN_PROCESS_REVIEW];
  const handler = reviewer?.handlers['action.proposed'];
  const decisionMeanMs = f.latency.latency.mean;
  if (!review || !handler || !decisionMeanMs) return null;
  const share = (v: number) => Math.round((v / decisionMeanMs) * 1000) / 1000;
  return { reviewMeanMs: review.meanMs, handlerMeanMs: handler.meanMs, decisionMeanMs: Math.round(decisionMeanMs * 1000) / 1000, reviewShare: share(review.meanMs), handlerShare: share(handler.meanMs) };
}

export function ratios(f: Figures): Record<string, number | null> {
  const best = sustainedStep(f.steps);
  const div = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !b ? null : Math.round((a / b) * 1000) / 1000);
  return {
    decisionP50OverRequestP50: div(f.latency.latency.p50, f.requestReply.rtt.p50),
    decisionP99OverRequestP99: div(f.latency.latency.p99, f.requestReply.rtt.p99),
    decisionP999OverRequestP999: div(f.latency.latency.p999, f.requestReply.rtt.p999),
    decisionP50OverPublishAckP50: div(f.latency.latency.p50, f.jetstream.sequentialRtt.p50),
    decisionP99OverPublishAckP99: div(f.latency.latency.p99, f.jetstream.sequentialRtt.p99),
    sustainedOverPublishAckRate: div(best?.decidedPerSecond, f.jetstream.acksPerSecond),
    // Each decision stores three messages (action, verdict, decision): the share of JetStream's raw budget used.
    sustainedStoredMessagesOverPublishAckRate: div(best ? best.decidedPerSecond * 3 : undefined, f.jetstream.acksPerSecond),
    closedLoopOverPublishAckRate: div(f.closedLoop?.decidedPerSecond, f.jetstream.acksPerSecond),
  };
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${value.toFixed(value < 10 ? 3 : value < 100 ? 2 : 1)} ms`;
}

export function num(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

const times = (value: number | null | undefined) => (value === null || value === undefined ? '' : `${value.toFixed(value < 10 ? 2 : 1)}x`);

interface Row {
  measurement: string;
  value: string;
  target?: string;
  met?: boolean;
  baseline?: string;
  ratio?: string;
}

function table(rows: (Row | 'rule')[]): string {
  const headers: Row = { measurement: 'Measurement', value: 'Value', target: 'Target', baseline: 'Baseline (same run)', ratio: 'Ratio' };
  const cells = (r: Row) => [r.measurement, r.value, r.target ?? '', r.met === undefined ? '' : r.met ? 'yes' : 'NO', r.baseline ?? '', r.ratio ?? ''];
  const head = [...cells(headers).slice(0, 3), 'Met', ...cells(headers).slice(4)];
  const all = rows.filter((r): r is Row => r !== 'rule').map(cells);
  const widths = head.map((h, i) => Math.max(h.length, ...all.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 1 || i === 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(head), rule, ...rows.map((r) => (r === 'rule' ? rule : line(cells(r))))].join('\n');
}

/** CPU milliseconds each process spent per decision: where the machine's two cores go. */
export function cpuPerDecision(result: LoadResult): Record<string, number | null> | undefined {
  if (!result.cpu || !result.decidedPerSecond) return undefined;
  const out: Record<string, number | null> = {};
  let total = 0;
  for (const [name, share] of Object.entries(result.cpu)) {
    out[name] = share === null ? null : Math.round(((share * 10) / result.decidedPerSecond) * 1000) / 1000;
    total += share ?? 0;
  }
  out.total = Math.round(((total * 10) / result.decidedPerSecond) * 1000) / 1000;
  return out;
}

const cpuMsText = (result: LoadResult) => {
  const per = cpuPerDecision(result);
  return per
    ? Object.entries(per)
        .map(([name, v]) => `${name} ${v === null ? 'n/a' : v.toFixed(3)}`)
        .join(', ')
    : 'n/a';
};

function stageLines(result: LoadResult): string[] {
  const lines: string[] = [];
  const st = result.stages;
  if (st && st.count) {
    const f = (x: { p50: number; p99: number; max: number }) => `p50 ${x.p50.toFixed(1)} / p99 ${x.p99.toFixed(1)} / max ${x.max.toFixed(1)}`;
    lines.push(
      `  stage split (${st.count} actions of sampled sessions, ms, 1 ms resolution):`,
      `    agent -> reviewer's verdict created   ${f(st.toVerdict)}`,
      `    verdict -> gate's decision created    ${f(st.toDecision)}`,
      `    decision created -> agent resolved    ${f(st.toAgent)}`,
    );
  }
  for (const [app, figures] of Object.entries(result.services ?? {})) {
    const handlers = Object.entries(figures.handlers)
      .filter(([, h]) => h.count >= 10)
      .map(([type, h]) => `${type} x${num(h.count)} mean ${h.meanMs.toFixed(2)} / p50~${h.p50Ms.toFixed(2)} / p99~${h.p99Ms.toFixed(2)} ms`)
      .join('; ');
    lines.push(
      `  ${app}: handler receive->ack ${handlers || 'n/a'}; GC ${figures.gcMs} ms in ${figures.gcPauses} pauses; event-loop delay p99 ${figures.eventLoopDelayP99Ms} ms`,
    );
  }
  return lines;
}

const cpuText = (cpu: CpuShares | undefined) =>
  cpu
    ? Object.entries(cpu)
        .map(([name, share]) => `${name} ${share === null ? 'n/a' : `${share}%`}`)
        .join(', ')
    : 'n/a';

/** The breaker's figures: its check time per event, and what running it adds to the decision path. */
function breakerRows(b: NonNullable<Figures['breaker']>, without: LoadResult, rate: number): (Row | 'rule')[] {
  const handled = b.withBreaker.services?.['breaker']?.handlers[BREAKER_EVENT];
  const added = (a: number, base: number) => `${a - base >= 0 ? '+' : ''}${ms(a - base)}`;
  return [
    'rule',
    { measurement: 'Breaker check per event, in process, p50 / p99', value: `${ms(b.inProcess.all.p50Ms)} / ${ms(b.inProcess.all.p99Ms)}` },
    { measurement: '  proposed action p99 / outcome p99 (cost, error window, progress)', value: `${ms(b.inProcess.action.p99Ms)} / ${ms(b.inProcess.outcome.p99Ms)}` },
    {
      measurement: `Breaker event end to end p99 @ ${num(rate)}/s (evaluate, publish, ledger and state in KV)`,
      value: handled ? ms(handled.p99Ms) : 'n/a',
      baseline: handled ? `p50 ${ms(handled.p50Ms)}` : '',
    },
    {
      measurement: `Decision p50 / p99 @ ${num(rate)}/s with the breaker running`,
      value: `${ms(b.withBreaker.latency.p50)} / ${ms(b.withBreaker.latency.p99)}`,
      baseline: `without: ${ms(without.latency.p50)} / ${ms(without.latency.p99)}`,
      ratio: `${added(b.withBreaker.latency.p50, without.latency.p50)} / ${added(b.withBreaker.latency.p99, without.latency.p99)}`,
    },
    { measurement: `Lost decisions with the breaker running`, value: `${b.withBreaker.lost + b.withBreaker.rejected + b.withBreaker.errors} of ${num(b.withBreaker.sent)}` },
  ];
}

/** The audit log under the end-to-end load: how far behind it runs, and what it costs the decision path. */
function auditRows(a: NonNullable<Figures['audit']>, without: LoadResult, rate: number): (Row | 'rule')[] {
  const { latency, ingest, drainedMs } = a.underLoad;
  return [
    'rule',
    {
      measurement: `Audit ingest, events/s persisted (JetStream, redaction, hash chain, insert, ack after commit)`,
      value: `${num(a.ingest.ingestPersistedPerSec)}/s`,
      baseline: `raw multi-row INSERT ${num(a.ingest.baselineInsertPerSec)}/s`,
      ratio: times(a.ingest.ingestVsBaseline),
    },
    {
      measurement: `Audit ingest lag @ ${num(rate)}/s actions, p50 / p99 (event timestamp to row)`,
      value: `${ms(ingest.lagP50Ms)} / ${ms(ingest.lagP99Ms)}`,
      baseline: `max ${ms(ingest.lagMaxMs)}`,
    },
    {
      measurement: `Audit events persisted during that phase`,
      value: `${num(ingest.events)} (${num(ingest.persistedPerSecond)}/s)`,
      baseline: `caught up ${ms(drainedMs)} after the load`,
    },
    {
      measurement: `Decision p50 / p99 @ ${num(rate)}/s with audit running`,
      value: `${ms(latency.latency.p50)} / ${ms(latency.latency.p99)}`,
      baseline: `without: ${ms(without.latency.p50)} / ${ms(without.latency.p99)}`,
    },
  ];
}

export function renderReport(f: Figures, targets: TargetResult[], r: Record<string, number | null>, options: { sessions: number; agents: number; stepDurationS: number }): string {
  const rr = f.requestReply.rtt;
  const js = f.jetstream;
  const lat = f.latency.latency;
  const rate = f.latency.offeredRate ?? 0;
  const best = sustainedStep(f.steps);
  const peak = [...f.steps, ...(f.closedLoop ? [f.closedLoop] : [])].reduce((m, s) => Math.max(m, s.decidedPerSecond), 0);
  const [latencyTarget, lostTarget, throughputTarget, reviewTarget] = targets;
  const share = reviewerShare(f);
  const rows: (Row | 'rule')[] = [
    { measurement: 'A  core NATS request/reply p50', value: ms(rr.p50) },
    { measurement: 'A  core NATS request/reply p99', value: ms(rr.p99) },
    { measurement: 'A  core NATS request/reply p999', value: ms(rr.p999) },
    { measurement: 'B  JetStream publish-ack RTT p50 (sequential)', value: ms(js.sequentialRtt.p50) },
    { measurement: 'B  JetStream publish-ack RTT p99 (sequential)', value: ms(js.sequentialRtt.p99) },
    { measurement: `B  JetStream publish-ack rate (${js.window} in flight)`, value: `${num(js.acksPerSecond)}/s` },
    'rule',
    { measurement: `Decision p50 @ ${num(rate)}/s`, value: ms(lat.p50), baseline: `NATS req/reply p50 ${ms(rr.p50)}`, ratio: times(r.decisionP50OverRequestP50) },
    { measurement: '', value: '', baseline: `JetStream pub-ack p50 ${ms(js.sequentialRtt.p50)}`, ratio: times(r.decisionP50OverPublishAckP50) },
    {
      measurement: `Decision p99 @ ${num(rate)}/s`,
      value: ms(lat.p99),
      target: latencyTarget!.target,
      met: latencyTarget!.met,
      baseline: `NATS req/reply p99 ${ms(rr.p99)}`,
      ratio: times(r.decisionP99OverRequestP99),
    },
    { measurement: '', value: '', baseline: `JetStream pub-ack p99 ${ms(js.sequentialRtt.p99)}`, ratio: times(r.decisionP99OverPublishAckP99) },
    { measurement: `Decision p999 @ ${num(rate)}/s`, value: ms(lat.p999), baseline: `NATS req/reply p999 ${ms(rr.p999)}`, ratio: times(r.decisionP999OverRequestP999) },
    { measurement: `Decision max @ ${num(rate)}/s`, value: ms(lat.max) },
    { measurement: `Decision p99 from schedule @ ${num(rate)}/s`, value: f.latency.fromSchedule ? ms(f.latency.fromSchedule.p99) : 'n/a' },
    {
      measurement: `Lost decisions @ ${num(rate)}/s`,
      value: `${lostTarget!.value} of ${num(f.latency.sent)}`,
      target: lostTarget!.target,
      met: lostTarget!.met,
    },
    { measurement: `Decided @ ${num(rate)}/s offered`, value: `${num(f.latency.decidedPerSecond)}/s` },
    'rule',
    {
      measurement: 'Sustained throughput (no loss, bounded backlog)',
      value: best ? `${num(best.decidedPerSecond)}/s` : 'none',
      target: throughputTarget!.target,
      met: throughputTarget!.met,
      baseline: `JetStream pub-ack rate ${num(js.acksPerSecond)}/s`,
      ratio: times(r.sustainedOverPublishAckRate),
    },
    {
      measurement: best ? `  (step ${num(best.offeredRate ?? 0)}/s offered: p50 ${ms(best.latency.p50)}, p99 ${ms(best.latency.p99)})` : '',
      value: '',
      baseline: '3 stored msgs/decision vs pub-ack rate',
      ratio: times(r.sustainedStoredMessagesOverPublishAckRate),
    },
    { measurement: 'Lost decisions in the sustained step', value: best ? String(best.lost + best.rejected + best.errors) : 'n/a', target: '0', met: best ? best.lost + best.rejected + best.errors === 0 : false },
    { measurement: 'Peak decided/s in any run (not nec. sustained)', value: `${num(peak)}/s` },
    'rule',
    ...(f.review
      ? [
          {
            measurement: `Review p99 in process (${f.review.rules.builtIn} built-in + ${f.review.rules.custom} custom rules, distinct actions)`,
            value: ms(f.review.uncached.p99Ms),
            target: reviewTarget!.target,
            met: reviewTarget!.met,
          },
          { measurement: '  review p50 / p999 / max, distinct actions', value: `${ms(f.review.uncached.p50Ms)} / ${ms(f.review.uncached.p999Ms)} / ${ms(f.review.uncached.maxMs)}` },
          { measurement: '  review p50 / p99, repeated actions (analysis cached)', value: `${ms(f.review.cached.p50Ms)} / ${ms(f.review.cached.p99Ms)}` },
        ]
      : [{ measurement: 'Review time in process', value: 'not measured' }]),
    ...(share
      ? [
          {
            measurement: `Reviewer's share of the round trip @ ${num(rate)}/s (mean review / mean decision)`,
            value: `${(share.reviewShare * 100).toFixed(1)}%`,
            baseline: `review ${ms(share.reviewMeanMs)} of ${ms(share.decisionMeanMs)}`,
          },
          {
            measurement: "  reviewer's handler, receive to ack (review + verdict publish-ack)",
            value: `${(share.handlerShare * 100).toFixed(1)}%`,
            baseline: `handler ${ms(share.handlerMeanMs)}`,
          },
        ]
      : []),
    ...(f.breaker ? breakerRows(f.breaker, f.latency, rate) : []),
    ...(f.patterns
      ? [
          'rule' as const,
          {
            measurement: `Pattern detectors per event, in process, ${num(f.patterns.sessions)} active sessions, p50 / p99`,
            value: `${ms(f.patterns.event.p50Ms)} / ${ms(f.patterns.event.p99Ms)}`,
            baseline: `p999 ${ms(f.patterns.event.p999Ms)}`,
          },
          {
            measurement: `Pattern detector memory, ${num(f.patterns.sessions)} sessions with full windows (heap / RSS)`,
            value: `${num(f.patterns.memory.heapUsedMb)} MB / ${num(f.patterns.memory.rssMb)} MB`,
            baseline: `${f.patterns.memory.heapPerSessionKb} KB heap per session`,
          },
        ]
      : []),
    ...(f.audit ? auditRows(f.audit, f.latency, rate) : []),
    ...(f.gateRelay
      ? [
          'rule' as const,
          {
            measurement: 'Gate relay per verdict, normal state, p50 / p99 (lookup, gates, decision publish)',
            value: `${ms(f.gateRelay.normal_path.relay_p50_ms)} / ${ms(f.gateRelay.normal_path.relay_p99_ms)}`,
            baseline: `bare publish ${ms(f.gateRelay.normal_path.publish_p50_ms)} / ${ms(f.gateRelay.normal_path.publish_p99_ms)}`,
            ratio: `+${ms(f.gateRelay.normal_path.added_p50_ms)} p50`,
          },
          {
            measurement: `Gate flush of a ${num(f.gateRelay.flush.messages)}-message buffer (in order, each acked)`,
            value: `${num(f.gateRelay.flush.messages_per_second)}/s`,
            baseline: `${f.gateRelay.flush.seconds} s`,
          },
        ]
      : []),
    ...(f.closedLoop
      ? [
          {
            measurement: `Closed loop (${f.closedLoop.inFlightPerSession}/session in flight) decided/s`,
            value: `${num(f.closedLoop.decidedPerSecond)}/s`,
            baseline: `JetStream pub-ack rate ${num(js.acksPerSecond)}/s`,
            ratio: times(r.closedLoopOverPublishAckRate),
          },
          { measurement: '  closed loop decision p50 / p99', value: `${ms(f.closedLoop.latency.p50)} / ${ms(f.closedLoop.latency.p99)}` },
          {
            measurement: '  closed loop lost decisions',
            value: String(f.closedLoop.lost + f.closedLoop.rejected + f.closedLoop.errors),
          },
        ]
      : []),
  ];

  const stepLines = [
    `Throughput steps (open loop, ${options.stepDurationS} s each, ${options.sessions} sessions over ${options.agents} agent connections):`,
    `  ${'offered/s'.padStart(9)}  ${'decided/s'.padStart(9)}  ${'p50'.padStart(10)}  ${'p99'.padStart(10)}  ${'p999'.padStart(10)}  ${'max'.padStart(10)}  ${'lost'.padStart(5)}  ${'backlog'.padStart(7)}  result`,
    ...f.steps.map(
      (s) =>
        `  ${num(s.offeredRate ?? 0).padStart(9)}  ${num(s.decidedPerSecond).padStart(9)}  ${ms(s.latency.p50).padStart(10)}  ${ms(s.latency.p99).padStart(10)}  ${ms(s.latency.p999).padStart(10)}  ${ms(s.latency.max).padStart(10)}  ${String(s.lost + s.rejected + s.errors).padStart(5)}  ${String(s.backlogAtEnd).padStart(7)}  ${s.sustained ? 'sustained' : `NOT sustained: ${s.why.join('; ')}`}`,
    ),
    ...f.steps.map((s) => `  cpu @ ${num(s.offeredRate ?? 0)}/s (% of one core): ${cpuText(s.cpu)}; CPU ms per decision: ${cpuMsText(s)}`),
  ];
  const closed = f.closedLoop
    ? [
        `Closed loop (${f.closedLoop.inFlightPerSession} in flight per session): ${num(f.closedLoop.decidedPerSecond)}/s decided, cpu ${cpuText(f.closedLoop.cpu)}; CPU ms per decision: ${cpuMsText(f.closedLoop)}`,
        ...stageLines(f.closedLoop),
      ]
    : [];

  const generator = [
    `Latency phase @ ${num(rate)}/s. Load generator: send lag p99 ${f.latency.sendLag ? ms(f.latency.sendLag.p99) : 'n/a'}, event-loop delay p99 ${ms(f.latency.generatorLoopDelayP99)}; ` +
      `wrong decisions ${f.latency.wrong}; allowed ${num(f.latency.allowed)}, denied ${num(f.latency.denied)}`,
    `CPU @ ${num(rate)}/s (% of one core): ${cpuText(f.latency.cpu)}; CPU ms per decision: ${cpuMsText(f.latency)}`,
    ...stageLines(f.latency),
  ];
  return [table(rows), '', ...generator, '', ...stepLines, ...(closed.length ? ['', ...closed] : [])].join('\n');
}
