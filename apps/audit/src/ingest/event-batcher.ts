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
 * Collects items into batches and writes each batch with one call. `add` resolves once the batch that
 * holds the item was written (so the caller can acknowledge its message only then) and rejects with the
 * write's error, or with the item's own error when the write refused just that item. A batch goes when
 * it is full or its oldest item has waited maxWaitMs. Writes run one at a time: items that arrive during
 * a write wait for it and then go together (batches grow with the load instead of queueing up small).
 */
export class EventBatcher<T> {
  private pending: Pending<T>[] = [];
  private timer?: NodeJS.Timeout;
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<BatchOutcome>,
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
    if (this.writing || !this.pending.length) return;
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
    this.writing = true;
    void this.writeBatch(this.pending.splice(0, this.options.maxBatch)).finally(() => {
      this.writing = false;
      this.schedule();
    });
  }

  private async writeBatch(batch: Pending<T>[]): Promise<void> {
    const started = performance.now();
    try {
      const errors = await this.write(batch.map((p) => p.item));
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
