/**
 * The ids of the messages last applied to a session, oldest first and at most `limit`, so that a
 * redelivered message is recognised. Message ids are UUIDs: each is held as its 16 bytes (four 32-bit
 * words in one typed array) in place of a 36-character string and its slot, a quarter of the memory of
 * the 64 ids every held session remembers, changed in place rather than copied at every event. Any other
 * id is held as it is.
 */
export class AppliedIds {
  /** Four per id: the UUID's bits, unused when the id is in `others`. */
  private numbers = new Uint32Array(0);
  private others?: (string | undefined)[];
  private count = 0;

  constructor(private readonly limit: number) {}

  /** The ids as stored (oldest first); all of them, even beyond the limit, until the next is added. */
  static of(ids: readonly string[], limit: number): AppliedIds {
    const applied = new AppliedIds(limit);
    applied.reserve(ids.length);
    for (const id of ids) applied.set(applied.count++, id);
    return applied;
  }

  get size(): number {
    return this.count;
  }

  has(id: string): boolean {
    return this.indexOf(id) >= 0;
  }

  /** Remembers `id` as the newest: moved to the end if it was there, the oldest dropped beyond the limit. */
  add(id: string): void {
    const index = this.indexOf(id);
    if (index >= 0) this.removeAt(index);
    while (this.count >= this.limit && this.count > 0) this.removeAt(0);
    this.reserve(this.count + 1);
    this.set(this.count++, id);
  }

  /** The ids, oldest first, as they are stored. */
  list(): string[] {
    return this.listed(() => true);
  }

  /** The ids as they will be once `id` is added, leaving these as they are. */
  listWith(id: string): string[] {
    const uuid = uuidBits(id);
    let kept = 0;
    for (let i = 0; i < this.count; i++) if (!this.matches(i, id, uuid)) kept++;
    // As many of the oldest as the limit leaves no room for.
    let dropped = Math.max(0, kept + 1 - this.limit);
    const ids = this.listed((i) => {
      if (this.matches(i, id, uuid)) return false;
      if (dropped === 0) return true;
      dropped--;
      return false;
    });
    ids.push(id);
    return ids;
  }

  /**
   * The ids at the positions `included` takes, in order. A commit lists 64 of them: written as text in
   * one go and split, they cost one string each rather than a dozen.
   */
  private listed(included: (i: number) => boolean): string[] {
    const positions: number[] = [];
    for (let i = 0; i < this.count; i++) if (included(i)) positions.push(i);
    if (!positions.length) return [];
    if (this.others?.some((other) => other !== undefined)) return positions.map((i) => this.get(i));
    const length = positions.length * 37 - 1;
    if (text.length < length) text = Buffer.alloc(Math.max(length, 2 * text.length));
    positions.forEach((i, n) => {
      const start = n * 37;
      writeUuid(text, start, this.numbers, i * WORDS);
      if (n < positions.length - 1) text[start + 36] = NEWLINE;
    });
    return text.toString('latin1', 0, length).split('\n');
  }

  private indexOf(id: string): number {
    const uuid = uuidBits(id);
    for (let i = 0; i < this.count; i++) if (this.matches(i, id, uuid)) return i;
    return -1;
  }

  /** Whether the id at `i` is `id` (whose bits are `uuid` when it is a UUID). */
  private matches(i: number, id: string, uuid: readonly number[] | undefined): boolean {
    const { numbers } = this;
    const at = i * WORDS;
    if (!uuid) return this.others?.[i] === id;
    return this.others?.[i] === undefined && numbers[at] === uuid[0] && numbers[at + 1] === uuid[1] && numbers[at + 2] === uuid[2] && numbers[at + 3] === uuid[3];
  }

  private get(i: number): string {
    const at = i * WORDS;
    const other = this.others?.[i];
    if (other !== undefined) return other;
    writeUuid(text, 0, this.numbers, at);
    return text.toString('latin1', 0, 36);
  }

  private set(i: number, id: string): void {
    const uuid = uuidBits(id);
    const at = i * WORDS;
    for (let k = 0; k < WORDS; k++) this.numbers[at + k] = uuid?.[k] ?? 0;
    if (uuid) {
      if (this.others) this.others[i] = undefined;
    } else {
      this.others ??= new Array<string | undefined>(this.numbers.length / WORDS).fill(undefined);
      this.others[i] = id;
    }
  }

  private removeAt(index: number): void {
    this.numbers.copyWithin(index * WORDS, (index + 1) * WORDS, this.count * WORDS);
    if (this.others) for (let i = index; i < this.count - 1; i++) this.others[i] = this.others[i + 1];
    this.count--;
    if (this.others) this.others[this.count] = undefined;
  }

  /**
   * Room for `count` ids: for the limit at once, beyond it only for a stored list that is longer. The
   * numbers lie outside V8's heap, in the allocator's; grown on the way (8, 16, 32, then 64 ids), each
   * session left three smaller arrays behind there, freed pieces of a few hundred bytes between those
   * still held, which the process kept resident: about 1.8 KB a session, more than the kilobyte this
   * costs a session that never reaches the limit.
   */
  private reserve(count: number): void {
    const capacity = this.numbers.length / WORDS;
    if (count <= capacity) return;
    const grown = Math.max(count, this.limit);
    const numbers = new Uint32Array(grown * WORDS);
    numbers.set(this.numbers.subarray(0, this.count * WORDS));
    this.numbers = numbers;
    if (this.others) this.others = [...this.others, ...new Array<string | undefined>(grown - capacity).fill(undefined)];
  }
}

/** Numbers per id: a UUID's 128 bits, 32 in each. */
const WORDS = 4;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A lower-case UUID's 128 bits as four unsigned 32-bit numbers; undefined for any other id. */
function uuidBits(id: string): number[] | undefined {
  if (!UUID.test(id)) return undefined;
  const hex = (from: number, to: number) => Number.parseInt(id.slice(from, to), 16);
  return [hex(0, 8), hex(9, 13) * 0x10000 + hex(14, 18), hex(19, 23) * 0x10000 + hex(24, 28), hex(28, 36)];
}

const DASH = '-'.charCodeAt(0);
const NEWLINE = '\n'.charCodeAt(0);
/** The two hex digits of each byte, as character codes. */
const HIGH = Array.from({ length: 256 }, (_, byte) => '0123456789abcdef'.charCodeAt(byte >> 4));
const LOW = Array.from({ length: 256 }, (_, byte) => '0123456789abcdef'.charCodeAt(byte & 15));
/** Where each of the 16 bytes of a UUID starts in its 36 characters (8-4-4-4-12, dashes between). */
const PLACES = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/** Where ids are written as text before they become strings (grown as needed). */
let text = Buffer.alloc(64 * 37);

/** Writes the UUID of the four 32-bit numbers at `at` as its 36 characters at `start`. */
function writeUuid(into: Buffer, start: number, numbers: Uint32Array, at: number): void {
  into[start + 8] = into[start + 13] = into[start + 18] = into[start + 23] = DASH;
  for (let word = 0; word < WORDS; word++) {
    const bits = numbers[at + word]!;
    for (let k = 0; k < 4; k++) {
      const byte = (bits >>> (24 - 8 * k)) & 255;
      const place = start + PLACES[word * 4 + k]!;
      into[place] = HIGH[byte]!;
      into[place + 1] = LOW[byte]!;
    }
  }
}
