import type { ResourceSlot } from './session-state.js';

/** The resources as stored and as the detectors read them. */
export interface StoredResources {
  slots: ResourceSlot[];
  background: number;
}

// The numbers of a slot, in the order a stored slot has its fields.
const T = 0;
const FILE_OPERATIONS = 1;
const TOKENS = 2;
const COST_USD = 3;
const BACKGROUND = 4;
const FIELDS = 5;

/**
 * A session's resource use per slot of time, oldest first, packed: five numbers a slot in one array of
 * doubles, added to in place. As objects, the thirteen slots of a session with their boxed numbers were
 * a tenth of its memory, and the new one made every few events outlived V8's young generation only to
 * die in the old one. The slots are made as objects when they are stored or read by the detectors.
 */
export class ResourceSlots {
  private numbers: number[] = [];
  private count = 0;

  /**
   * `capacity` is how many slots the session holds at most between two trims: room for them is made
   * at the first slot, once.
   */
  constructor(
    private readonly capacity: number,
    /** Background processes running now. */
    public background = 0,
  ) {}

  static of(stored: StoredResources, capacity: number): ResourceSlots {
    const resources = new ResourceSlots(capacity, stored.background);
    resources.reserve(stored.slots.length);
    // Unary plus: a slot adds numbers to its fields as the objects did (`null` as 0, a missing field as NaN).
    for (const slot of stored.slots) resources.write(resources.count++, [+slot.t, +slot.file_operations, +slot.tokens, +slot.cost_usd, +slot.background]);
    return resources;
  }

  get length(): number {
    return this.count;
  }

  /** When the slot at `index` starts (epoch ms). */
  startOf(index: number): number {
    return this.numbers[index * FIELDS + T]!;
  }

  /** The index of the slot starting at `t`, made with the background processes running now if there is none. */
  slotAt(t: number): number {
    const index = this.indexOf(t);
    if (index >= 0) return index;
    this.reserve(this.count + 1);
    this.write(this.count++, [t, 0, 0, 0, this.background]);
    // Added last, then all in time order (a stable sort, as the slots were kept).
    for (let i = 1; i < this.count; i++) {
      if (!(this.startOf(i - 1) > this.startOf(i))) continue;
      const row = this.read(i);
      let j = i;
      for (; j > 0 && this.startOf(j - 1) > row[T]!; j--) this.write(j, this.read(j - 1));
      this.write(j, row);
    }
    return this.indexOf(t);
  }

  /** Adds a counted step's file operations, tokens and cost to the slot at `index`. */
  add(index: number, fileOperations: number, tokens: number, costUsd: number): void {
    const at = index * FIELDS;
    this.numbers[at + FILE_OPERATIONS] += fileOperations;
    this.numbers[at + TOKENS] += tokens;
    this.numbers[at + COST_USD] += costUsd;
  }

  /** The background processes running at the end of the slot at `index`: those running now. */
  endWithBackground(index: number): void {
    this.numbers[index * FIELDS + BACKGROUND] = this.background;
  }

  /** Drops the `count` oldest slots. */
  dropOldest(count: number): void {
    if (count <= 0) return;
    this.numbers.copyWithin(0, count * FIELDS, this.count * FIELDS);
    this.numbers.fill(NaN, (this.count - count) * FIELDS, this.count * FIELDS);
    this.count -= count;
  }

  /** No slots and no processes (an ended session). */
  clear(): void {
    this.numbers = [];
    this.count = 0;
    this.background = 0;
  }

  /** The slots and processes running as stored: made when asked for. */
  stored(): StoredResources {
    const slots = new Array<ResourceSlot>(this.count);
    for (let i = 0; i < this.count; i++) {
      const at = i * FIELDS;
      const n = this.numbers;
      slots[i] = { t: n[at + T]!, file_operations: n[at + FILE_OPERATIONS]!, tokens: n[at + TOKENS]!, cost_usd: n[at + COST_USD]!, background: n[at + BACKGROUND]! };
    }
    return { slots, background: this.background };
  }

  private indexOf(t: number): number {
    for (let i = 0; i < this.count; i++) if (this.numbers[i * FIELDS + T] === t) return i;
    return -1;
  }

  private read(index: number): number[] {
    return this.numbers.slice(index * FIELDS, (index + 1) * FIELDS);
  }

  private write(index: number, values: readonly number[]): void {
    for (let f = 0; f < FIELDS; f++) this.numbers[index * FIELDS + f] = values[f]!;
  }

  /** Room for `slots`: the capacity at once, more only when more are held (a stored session, other settings). */
  private reserve(slots: number): void {
    const room = this.numbers.length / FIELDS;
    if (slots <= room) return;
    // Created at its full length and filled at once: the numbers stay unboxed doubles.
    const numbers = new Array<number>(Math.max(slots, this.capacity, 2 * room) * FIELDS).fill(NaN);
    for (let i = 0; i < this.count * FIELDS; i++) numbers[i] = this.numbers[i]!;
    this.numbers = numbers;
  }
}
