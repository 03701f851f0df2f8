import type { ByteKeys, ByteStrings } from './byte-strings.js';
import { nanosOf, OtlpInputError } from './otlp-export.js';

/** Wire types (https://protobuf.dev/programming-guides/encoding/#structure). */
export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH = 2;
export const FIXED32 = 5;

/** A field's tag: its number and wire type, as it is sent. */
export const tag = (field: number, wire: number) => (field << 3) | wire;

/**
 * Reads protobuf's binary wire format in place. Every read is checked against the end of the body, and a
 * length-delimited field against the end of the message that holds it (`close`), so that malformed bytes
 * are refused with an OtlpInputError, never read past. Fields a reader does not know are skipped by
 * their wire type (a known field number with another wire type is unknown too, as protobuf's own
 * parsers have it).
 */
export class WireReader {
  pos = 0;
  private lastNanos = [
    { high: -1, low: -1, text: '' },
    { high: -1, low: -1, text: '' },
  ];

  constructor(
    readonly buf: Buffer,
    private readonly strings: ByteStrings,
  ) {}

  fail(what: string): never {
    throw new OtlpInputError(`${what} at byte ${this.pos}`);
  }

  /** The next field's tag. */
  tag(): number {
    const value = this.varint32();
    if (value >>> 3 === 0) this.fail('field number 0');
    return value;
  }

  /** A varint's low 32 bits, unsigned (tags, lengths, enums). */
  varint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= buf.length) this.fail('a varint runs past the end');
      if (shift > 63) this.fail('a varint longer than 10 bytes');
      const b = buf[pos++]!;
      if (shift < 28) value |= (b & 0x7f) << shift;
      else if (shift === 28) value |= (b & 0x0f) << 28;
      if (b < 0x80) break;
    }
    this.pos = pos;
    return value >>> 0;
  }

  /** A varint as a signed 64-bit integer (int64), as a number: exact up to 2^53. */
  int64(): number {
    const buf = this.buf;
    let pos = this.pos;
    let low = 0;
    let high = 0;
    for (let i = 0; ; i++) {
      if (pos >= buf.length) this.fail('a varint runs past the end');
      if (i === 10) this.fail('a varint longer than 10 bytes');
      const b = buf[pos++]!;
      if (i < 4) low |= (b & 0x7f) << (7 * i);
      else if (i === 4) {
        low |= (b & 0x0f) << 28;
        high |= (b & 0x7f) >>> 4;
      } else high |= (b & 0x7f) << (7 * i - 32);
      if (b < 0x80) break;
    }
    this.pos = pos;
    return (high | 0) * 0x1_0000_0000 + (low >>> 0);
  }

  private need(bytes: number): number {
    const at = this.pos;
    if (at + bytes > this.buf.length) this.fail('a field runs past the end');
    this.pos = at + bytes;
    return at;
  }

  private uint32At(at: number): number {
    const buf = this.buf;
    return (buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16) | (buf[at + 3]! << 24)) >>> 0;
  }

  /** A fixed64 of nanoseconds since the epoch, as a decimal string. */
  nanos(): string {
    const at = this.need(8);
    const high = this.uint32At(at + 4);
    const low = this.uint32At(at);
    // The points of one collection share their start and end: the last two times' texts are kept.
    const [last, before] = this.lastNanos;
    if (high === last.high && low === last.low) return last.text;
    if (high === before.high && low === before.low) {
      this.lastNanos = [before, last];
      return before.text;
    }
    const read = { high, low, text: nanosOf(high, low) };
    this.lastNanos = [read, last];
    return read.text;
  }

  /** An sfixed64, as a number. */
  sfixed64(): number {
    const at = this.need(8);
    return (this.uint32At(at + 4) | 0) * 0x1_0000_0000 + this.uint32At(at);
  }

  double(): number {
    return this.buf.readDoubleLE(this.need(8));
  }

  /** Enters a length-delimited field: its end, checked against the end of the message it is in. */
  open(close: number): number {
    const length = this.varint32();
    const end = this.pos + length;
    if (end > close) this.fail('a field is longer than the message that holds it');
    return end;
  }

  /** After reading a length-delimited field up to `end`: it must have ended there. */
  close(end: number): void {
    if (this.pos !== end) this.fail('a field runs past its length');
  }

  /** A string field (UTF-8), its tag read. */
  string(close: number): string {
    const end = this.open(close);
    const text = this.strings.text(this.buf, this.pos, end, true);
    this.pos = end;
    return text;
  }

  /** A string field that is one of `keys`: it, or undefined when it is another. */
  stringIn(keys: ByteKeys, close: number): string | undefined {
    const end = this.open(close);
    const key = keys.match(this.buf, this.pos, end);
    this.pos = end;
    return key;
  }

  /** Skips the value of a field whose tag was just read. */
  skip(tagValue: number, close: number): void {
    switch (tagValue & 7) {
      case VARINT:
        this.int64();
        return;
      case FIXED64:
        this.need(8);
        return;
      case LENGTH:
        this.pos = this.open(close);
        return;
      case FIXED32:
        this.need(4);
        return;
      default:
        // 3 and 4 are proto2's groups, which OTLP never sends; 6 and 7 are no wire type at all.
        this.fail(`wire type ${tagValue & 7}`);
    }
  }
}
