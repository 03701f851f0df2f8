/**
 * Runs work for the same key one after the other, in the order it was queued, while different keys run
 * concurrently. With the session id as key this keeps each session's messages in order without
 * serialising the whole partition.
 */
export class SessionLanes {
  private tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) !== tail) return;
      // Emptied, the map is made anew rather than shrunk: V8 makes a shrunk table in the generation of
      // the one it replaces, and a long-running service's map is in the old one, where a table made and
      // dropped at every message fills the heap, each dropped table keeping its keys and work alive
      // until a full collection.
      if (this.tails.size === 1) this.tails = new Map();
      else this.tails.delete(key);
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
