interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
  /** When it was added (performance.now()). */
  at: number;
}

export interface BatcherOptions {
  maxBatch: number;
  maxWaitMs: number;
}

/**
 * What a write reports: nothing when every item was written, or per item (same order) the error that
 * kept it out.
 */
export type BatchOutcome = (Error | undefined)[] | void;

/**
 * Writes one batch. `placed` is called (at most once, maybe never) when the batch holds its place in line:
 * from then on a batch written after it is stored after it, so the next write may start (the audit's writer
 * calls it once it holds the locks of the batch's sessions).
 */
export type BatchWrite<T> = (items: T[], placed: () => void) => Promise<BatchOutcome>;

/** Writes at most this many batches at once: one storing, the next waiting behind it in line. */
export const MAX_WRITES = 2;

/**
 * Collects items into batches and writes each batch with one call. `add` resolves once the batch that
 * holds the item was written (so the caller can acknowledge its message only then) and rejects with the
 * write's error, or with the item's own error when the write refused just that item. A batch goes when
 * it is full or its oldest item has waited maxWaitMs. A write starts only when the one before it is
 * placed (or done), and two at most run at once: items that arrive meanwhile wait and then go together
 * (batches grow with the load instead of queueing up small), and the next batch's round trips overlap
 * the storing of the one before.
 */
export class EventBatcher<T> {
  private pending: Pending<T>[] = [];
  private timer?: NodeJS.Timeout;
  private writes = 0;
  /** The write started last, until it is placed or done: the next one waits for it. */
  private unplaced?: object;

  constructor(
    private readonly write: BatchWrite<T>,
    private readonly options: BatcherOptions,
    private readonly onWritten?: (size: number, seconds: number) => void,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject, at: performance.now() });
      this.schedule();
    });
  }

  /** Starts the next write if one is due, or a timer for when the oldest item will have waited enough. */
  private schedule(): void {
    if (this.unplaced || this.writes >= MAX_WRITES || !this.pending.length) return;
    const waited = performance.now() - this.pending[0]!.at;
    if (this.pending.length < this.options.maxBatch && waited < this.options.maxWaitMs) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, this.options.maxWaitMs - waited);
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writes++;
    const token = {};
    this.unplaced = token;
    const placed = () => {
      if (this.unplaced !== token) return;
      this.unplaced = undefined;
      this.schedule();
    };
    void this.writeBatch(this.pending.splice(0, this.options.maxBatch), placed).finally(() => {
      this.writes--;
      if (this.unplaced === token) this.unplaced = undefined;
      this.schedule();
    });
  }

  private async writeBatch(batch: Pending<T>[], placed: () => void): Promise<void> {
    const started = performance.now();
    try {
      const errors = await this.write(
        batch.map((p) => p.item),
        placed,
      );
      this.onWritten?.(batch.length, (performance.now() - started) / 1000);
      batch.forEach((p, i) => {
        const error = errors?.[i];
        if (error) p.reject(error);
        else p.resolve();
      });
    } catch (error) {
      for (const p of batch) p.reject(error as Error);
    }
  }
}
