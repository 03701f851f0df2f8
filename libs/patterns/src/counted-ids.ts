/**
 * The ids of the actions whose outcome has been counted, oldest first, at most `limit`: a ring changed in
 * place. Kept as a list, they were copied at every growth on the way to the limit and then held in room
 * for a third more than the limit.
 */
export class CountedIds {
  private ids: (string | undefined)[] = [];
  /** Where the oldest id is. */
  private start = 0;
  private count = 0;

  constructor(private readonly limit: number) {}

  /** The ids as stored (oldest first); all of them, even beyond the limit, until the next is added. */
  static of(ids: readonly string[], limit: number): CountedIds {
    const counted = new CountedIds(limit);
    counted.ids = ids.slice();
    counted.count = ids.length;
    return counted;
  }

  get size(): number {
    return this.count;
  }

  has(id: string): boolean {
    const { ids, start, count } = this;
    const room = ids.length;
    for (let i = 0; i < count; i++) if (ids[(start + i) % room] === id) return true;
    return false;
  }

  /** Adds `id` as the newest; the oldest are dropped beyond the limit. */
  add(id: string): void {
    if (this.limit <= 0) return this.clear();
    if (this.count >= this.limit) this.dropOldest(this.count - this.limit + 1);
    if (this.count === this.ids.length || this.ids.length > this.limit) this.makeRoom();
    this.ids[(this.start + this.count) % this.ids.length] = id;
    this.count++;
  }

  /** The ids, oldest first, as they are stored. */
  list(): string[] {
    const { ids, start, count } = this;
    const listed = new Array<string>(count);
    for (let i = 0; i < count; i++) listed[i] = ids[(start + i) % ids.length]!;
    return listed;
  }

  clear(): void {
    this.ids = [];
    this.start = this.count = 0;
  }

  private dropOldest(dropped: number): void {
    const room = this.ids.length;
    for (let i = 0; i < dropped; i++) this.ids[(this.start + i) % room] = undefined;
    this.start = (this.start + dropped) % room;
    this.count -= dropped;
  }

  /**
   * The ring made again with room for one more: a quarter of the limit first (a short session holds
   * little), then the limit; back to the limit after a stored list beyond it.
   */
  private makeRoom(): void {
    const room = this.ids.length;
    const quarter = Math.max(8, Math.ceil(this.limit / 4));
    const grown = room === 0 && quarter < this.limit ? quarter : this.limit;
    const ids = new Array<string | undefined>(Math.max(grown, this.count + 1)).fill(undefined);
    for (let i = 0; i < this.count; i++) ids[i] = this.ids[(this.start + i) % room];
    this.ids = ids;
    this.start = 0;
  }
}
