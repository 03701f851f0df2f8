/**
 * Runs work for the same key one after the other, in the order it was queued, while different keys run
 * concurrently. With the session id as key this keeps each session's messages in order without
 * serialising the whole partition.
 */
export class SessionLanes {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Whether work for `key` is queued or running. */
  isBusy(key: string): boolean {
    return this.tails.has(key);
  }

  get activeKeys(): number {
    return this.tails.size;
  }
}
