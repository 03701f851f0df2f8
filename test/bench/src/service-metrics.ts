/**
 * What the services report about themselves on /metrics, read before and after a phase, so that the
 * decision round trip can be split into time spent inside the services and time spent elsewhere.
 */


interface HandlerSeries {
  /** Cumulative counts per upper bound (seconds), as Prometheus exports them. */
  buckets: [number, number][];
  sum: number;
  count: number;
}

export interface ServiceSnapshot {
  handlers: Record<string, HandlerSeries>;
  gcSeconds: number;
  gcCount: number;
  /** prom-client's event-loop delay p99 since the previous scrape (it resets on each collect). */
  eventLoopP99Seconds: number;
  cpuSeconds: number;
}

export interface HandlerFigures {
  count: number;
  meanMs: number;
  /** Estimated from the histogram buckets (linear within a bucket, like histogram_quantile). */
  p50Ms: number;
  p99Ms: number;
}

export interface ServicePhaseFigures {
  /** Per message type: time from receiving a message to acknowledging it (includes the publish's ack). */
  handlers: Record<string, HandlerFigures>;
  gcMs: number;
  gcPauses: number;
  /** Event-loop delay p99 beyond prom-client's 10 ms sampling interval. */
  eventLoopDelayP99Ms: number;
}

/** Key of the reviewer's in-process review time among the handler figures. */
export const IN_PROCESS_REVIEW = 'review (in process)';
/** Keys of the breaker's evaluation time (in process) and whole event handling (evaluate, publish, KV writes). */
export const BREAKER_EVALUATION = 'breaker evaluation (in process)';
export const BREAKER_EVENT = 'breaker event (end to end)';

/** Histograms read into the handler figures under a name of their own, summed over their labels. */
const STAGE_HISTOGRAMS: Record<string, string> = {
  warden_review_duration_seconds: IN_PROCESS_REVIEW,
  warden_breaker_evaluation_seconds: BREAKER_EVALUATION,
  warden_breaker_event_seconds: BREAKER_EVENT,
};

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;

function labels(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (raw ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

export function parseMetrics(text: string): ServiceSnapshot {
  const snapshot: ServiceSnapshot = { handlers: {}, gcSeconds: 0, gcCount: 0, eventLoopP99Seconds: Number.NaN, cpuSeconds: Number.NaN };
  const series = (type: string) => (snapshot.handlers[type] ??= { buckets: [], sum: 0, count: 0 });
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const [, name, rawLabels, rawValue] = m;
    const value = Number(rawValue);
    const l = labels(rawLabels);
    const stage = /^(.*)_(bucket|sum|count)$/.exec(name!);
    const stageName = stage ? STAGE_HISTOGRAMS[stage[1]!] : undefined;
    if (stage && stageName) {
      // In-process stages shown beside the handlers; label sets (e.g. the breaker's event kinds) add up.
      const target = series(stageName);
      if (stage[2] === 'sum') target.sum += value;
      else if (stage[2] === 'count') target.count += value;
      else {
        const le = l.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(l.le);
        const bucket = target.buckets.find(([b]) => b === le);
        if (bucket) bucket[1] += value;
        else target.buckets.push([le, value]);
      }
      continue;
    }
    switch (name) {
      case 'warden_handler_duration_seconds_bucket':
        series(l.type!).buckets.push([l.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(l.le), value]);
        break;
      case 'warden_handler_duration_seconds_sum':
        series(l.type!).sum = value;
        break;
      case 'warden_handler_duration_seconds_count':
        series(l.type!).count = value;
        break;
      case 'nodejs_gc_duration_seconds_sum':
        snapshot.gcSeconds += value;
        break;
      case 'nodejs_gc_duration_seconds_count':
        snapshot.gcCount += value;
        break;
      case 'nodejs_eventloop_lag_p99_seconds':
        snapshot.eventLoopP99Seconds = value;
        break;
      case 'process_cpu_seconds_total':
        snapshot.cpuSeconds = value;
        break;
    }
  }
  for (const s of Object.values(snapshot.handlers)) s.buckets.sort((a, b) => a[0] - b[0]);
  return snapshot;
}

export async function scrapeService(url: string): Promise<ServiceSnapshot | undefined> {
  try {
    const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) });
    return response.ok ? parseMetrics(await response.text()) : undefined;
  } catch {
    return undefined;
  }
}

function quantile(buckets: [number, number][], total: number, q: number): number {
  if (!total) return Number.NaN;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [le, cumulative] of buckets) {
    if (cumulative >= rank) {
      if (!Number.isFinite(le)) return lowerBound * 1000;
      const inBucket = cumulative - lowerCount;
      const fraction = inBucket > 0 ? (rank - lowerCount) / inBucket : 0;
      return (lowerBound + (le - lowerBound) * fraction) * 1000;
    }
    lowerBound = le;
    lowerCount = cumulative;
  }
  return Number.NaN;
}

export function phaseFigures(before: ServiceSnapshot, after: ServiceSnapshot): ServicePhaseFigures {
  const handlers: Record<string, HandlerFigures> = {};
  for (const [type, a] of Object.entries(after.handlers)) {
    const b = before.handlers[type];
    const count = a.count - (b?.count ?? 0);
    if (count <= 0) continue;
    const buckets = a.buckets.map(([le, c]) => [le, c - (b?.buckets.find(([ble]) => ble === le)?.[1] ?? 0)] as [number, number]);
    const round = (v: number) => Math.round(v * 1000) / 1000;
    handlers[type] = {
      count,
      meanMs: round(((a.sum - (b?.sum ?? 0)) / count) * 1000),
      p50Ms: round(quantile(buckets, count, 0.5)),
      p99Ms: round(quantile(buckets, count, 0.99)),
    };
  }
  return {
    handlers,
    gcMs: Math.round((after.gcSeconds - before.gcSeconds) * 10_000) / 10,
    gcPauses: after.gcCount - before.gcCount,
    // Node counts the sampling interval in every sample: the delay is what lies above it.
    eventLoopDelayP99Ms: Math.round(after.eventLoopP99Seconds * 1000 * 100) / 100,
  };
}
