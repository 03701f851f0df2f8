import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { summariseLatencies, type LatencySummary } from './benchmark-kit.js';

/** One timed operation, on the performance timeline (`performance.now()`), in milliseconds. */
export interface TimedOperation {
  start: number;
  end: number;
}

/** A garbage-collection pause on the same timeline. */
export interface CollectionPause {
  start: number;
  duration: number;
  /** `minor` (young generation), `major`, or another kind Node reports. */
  kind: string;
}

/** How much of a tail is garbage collection: the operations a pause fell into, and the figures without them. */
export interface CollectionShare {
  /** Pauses that began while one of the operations ran. */
  pauses: number;
  /** Their mean length. */
  meanPauseMs: number;
  /** Operations during which a pause began, of `operations`. */
  hit: number;
  operations: number;
  /** The operations no pause fell into. */
  withoutPauses: LatencySummary;
}

/**
 * Splits timed operations by whether a collection pause began while they ran. Both lists are in time
 * order (as recorded); a pause between two operations counts for neither.
 */
export function collectionShare(operations: readonly TimedOperation[], pauses: readonly CollectionPause[]): CollectionShare {
  const clean: number[] = [];
  let hit = 0;
  let counted = 0;
  let pauseTime = 0;
  let p = 0;
  for (const operation of operations) {
    while (p < pauses.length && pauses[p]!.start < operation.start) p++;
    let within = false;
    while (p < pauses.length && pauses[p]!.start <= operation.end) {
      within = true;
      counted++;
      pauseTime += pauses[p]!.duration;
      p++;
    }
    if (within) hit++;
    else clean.push(operation.end - operation.start);
  }
  return {
    pauses: counted,
    meanPauseMs: counted ? Math.round((pauseTime / counted) * 10_000) / 10_000 : 0,
    hit,
    operations: operations.length,
    withoutPauses: summariseLatencies(clean.length ? clean : [0]),
  };
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak_callbacks',
};

/**
 * Records the process's garbage-collection pauses from now on (Node's `gc` performance entries).
 * `stop` waits for the entries Node delivers after a synchronous loop and returns them in time order.
 */
export function recordCollectionPauses(): { stop: () => Promise<CollectionPause[]> } {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    async stop() {
      // Entries are handed to observers from the event loop: a synchronous loop gets them once it yields.
      await new Promise((resolve) => setImmediate(resolve));
      entries.push(...observer.takeRecords());
      observer.disconnect();
      return entries
        .map((e) => ({ start: e.startTime, duration: e.duration, kind: GC_KINDS[(e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other' }))
        .sort((a, b) => a.start - b.start);
    },
  };
}
