interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
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
 * write's error, or with the item's own error when the write refused just that item. Writes run one at
 * a time; items that arrive meanwhile form the next batch.
 */
export class EventBatcher<T> {
  private pending: Pending<T>[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (items: T[]) => Promise<BatchOutcome>,
    private readonly options: BatcherOptions,
    private readonly onWritten?: (size: number, seconds: number) => void,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.options.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
    });
  }

  get waiting(): number {
    return this.pending.length;
  }

  /** Writes what is pending now (in batches of at most maxBatch). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pending.length) {
      const batch = this.pending.splice(0, this.options.maxBatch);
      this.writing = this.writing.then(() => this.writeBatch(batch));
    }
    return this.writing;
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
