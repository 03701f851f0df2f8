import { OtlpInputError } from './otlp-export.js';

const SLOTS = 2048;
const CACHED_LENGTH = 48;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Strings read out of a request body. An export repeats the same few strings hundreds of times (the
 * session id, the model, attribute keys) and making a string costs more than comparing a few bytes: short
 * ASCII strings are kept in a direct-mapped cache, their bytes beside them, and read again by comparing
 * bytes. The cache has a fixed size (a new string takes its slot from the old one), so that no sender can
 * make it grow.
 */
export class ByteStrings {
  private readonly texts: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
  private readonly lengths = new Int32Array(SLOTS).fill(-1);
  private readonly bytes = new Uint8Array(SLOTS * CACHED_LENGTH);

  /** The bytes [start, end) of `buf` as text. `strict`: invalid UTF-8 is refused (protobuf); otherwise replaced with U+FFFD, as JSON.parse of the body as text would. */
  text(buf: Buffer, start: number, end: number, strict: boolean): string {
    const length = end - start;
    if (length === 0) return '';
    if (length > CACHED_LENGTH) return decode(buf, start, end, strict);
    // The slot by the length and three of the bytes: cheap, and equal strings always meet.
    const slot = (Math.imul(length, 0x9e3779b1) ^ (buf[start]! << 3) ^ (buf[end - 1]! << 9) ^ (buf[start + (length >> 1)]! << 14)) & (SLOTS - 1);
    const at = slot * CACHED_LENGTH;
    const cached = this.bytes;
    if (this.lengths[slot] === length) {
      let i = 0;
      while (i < length && cached[at + i] === buf[start + i]) i++;
      if (i === length) return this.texts[slot]!;
    }
    for (let i = 0; i < length; i++) {
      const c = buf[start + i]!;
      if (c >= 0x80) return decode(buf, start, end, strict);
      cached[at + i] = c;
    }
    const text = buf.toString('latin1', start, end);
    this.lengths[slot] = length;
    this.texts[slot] = text;
    return text;
  }
}

function decode(buf: Buffer, start: number, end: number, strict: boolean): string {
  if (!strict) return buf.toString('utf8', start, end);
  try {
    return strictUtf8.decode(buf.subarray(start, end));
  } catch {
    throw new OtlpInputError(`a string is not UTF-8 (at byte ${start})`);
  }
}

/**
 * A set of keys matched against bytes, without making a string of each key read: what a reader keeps of
 * an attribute list when it reads only some keys.
 */
export class ByteKeys {
  /** The keys by length, as bytes. */
  private readonly byLength: { text: string; bytes: Uint8Array }[][] = [];

  constructor(readonly keys: ReadonlySet<string>) {
    for (const text of keys) {
      const bytes = new TextEncoder().encode(text);
      (this.byLength[bytes.length] ??= []).push({ text, bytes });
    }
  }

  /** The key whose bytes are [start, end) of `buf`, or undefined when it is not one of the set. */
  match(buf: Buffer, start: number, end: number): string | undefined {
    const candidates = this.byLength[end - start];
    if (candidates === undefined) return undefined;
    for (const { text, bytes } of candidates) {
      let i = 0;
      while (i < bytes.length && bytes[i] === buf[start + i]) i++;
      if (i === bytes.length) return text;
    }
    return undefined;
  }
}

const keySets = new WeakMap<ReadonlySet<string>, ByteKeys>();

/** The ByteKeys of a set of keys, made once per set. */
export function byteKeys(keys: ReadonlySet<string>): ByteKeys {
  let known = keySets.get(keys);
  if (!known) {
    known = new ByteKeys(keys);
    keySets.set(keys, known);
  }
  return known;
}

/** The body as a Buffer over the same memory (no copy), to read strings out of it. */
export const asBuffer = (body: Uint8Array): Buffer => (Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
