import type { ByteKeys, ByteStrings } from './byte-strings.js';
import { OtlpInputError } from './otlp-export.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** A key a reader looks for, as text and as the bytes it is sent as. */
export interface JsonKey {
  text: string;
  bytes: Uint8Array;
}
export const jsonKey = (text: string): JsonKey => ({ text, bytes: new TextEncoder().encode(text) });

const LITERALS = { true: [0x74, 0x72, 0x75, 0x65], false: [0x66, 0x61, 0x6c, 0x73, 0x65], null: [0x6e, 0x75, 0x6c, 0x6c] } as const;
const ESCAPES = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const isHex = (c: number) => (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isDigit = (c: number) => c >= ZERO && c <= NINE;
const shown = (c: number) => (c < 0 ? 'the end of the body' : c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16)}`);

/**
 * Reads a JSON text (RFC 8259) in place, byte by byte: a reader walks the objects and arrays it knows,
 * takes the values it needs, and skips the others, which are checked as JSON but never built as values.
 * Nesting is followed with a counter, not recursion, so no depth of nesting exhausts the stack.
 * Malformed JSON is refused with an OtlpInputError that says what and where.
 */
export class JsonScanner {
  pos = 0;
  /** The last string scanned: [start, end) inside its quotes; whether it has escapes. */
  private start = 0;
  private end = 0;
  private escaped = false;

  constructor(
    private readonly buf: Buffer,
    private readonly strings: ByteStrings,
  ) {}

  fail(what: string): never {
    throw new OtlpInputError(`${what} (at byte ${this.pos})`);
  }

  /** The next byte after whitespace, -1 at the end. */
  peek(): number {
    const buf = this.buf;
    let pos = this.pos;
    while (pos < buf.length) {
      const c = buf[pos]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      pos++;
    }
    this.pos = pos;
    return pos < buf.length ? buf[pos]! : -1;
  }

  private unexpected(expected: string): never {
    this.fail(`the body is not JSON: ${shown(this.peek())} where ${expected} was expected`);
  }

  /** Consumes null; false when the next value is something else. */
  null(): boolean {
    if (this.peek() !== LITERALS.null[0]) return false;
    this.literal(LITERALS.null);
    return true;
  }

  /** Enters an object; false for null (a field not sent). `what` names it for the error when it is neither. */
  object(what: string): boolean {
    const c = this.peek();
    if (c === OPEN_OBJECT) {
      this.pos++;
      return true;
    }
    if (this.null()) return false;
    return this.wrongType(what, 'must be an object');
  }

  /** Enters an array; false for null. */
  array(what: string): boolean {
    const c = this.peek();
    if (c === OPEN_ARRAY) {
      this.pos++;
      return true;
    }
    if (this.null()) return false;
    return this.wrongType(what, 'must be a list');
  }

  /** Moves to the `index`th field of the object entered, after its colon; false at the object's end. */
  field(index: number): boolean {
    let c = this.peek();
    if (c === CLOSE_OBJECT) {
      this.pos++;
      return false;
    }
    if (index > 0) {
      if (c !== COMMA) this.unexpected("',' or '}'");
      this.pos++;
      c = this.peek();
    }
    if (c !== QUOTE) this.unexpected('a key');
    this.scanString();
    if (this.peek() !== COLON) this.unexpected("':'");
    this.pos++;
    return true;
  }

  /** Moves to the `index`th element of the array entered; false at the array's end. */
  element(index: number): boolean {
    const c = this.peek();
    if (c === CLOSE_ARRAY) {
      this.pos++;
      return false;
    }
    if (index > 0) {
      if (c !== COMMA) this.unexpected("',' or ']'");
      this.pos++;
    }
    return true;
  }

  /** Moves past `bytes` when they come next, as they are (no whitespace between); false, not moving, otherwise. */
  match(bytes: Uint8Array): boolean {
    const buf = this.buf;
    const pos = this.pos;
    for (let i = 0; i < bytes.length; i++) if (buf[pos + i] !== bytes[i]) return false;
    this.pos = pos + bytes.length;
    return true;
  }

  /** Whether the key of the field just entered is `key`. */
  keyIs(key: JsonKey): boolean {
    if (this.escaped) return this.stringText() === key.text;
    const bytes = key.bytes;
    if (this.end - this.start !== bytes.length) return false;
    for (let i = 0; i < bytes.length; i++) if (this.buf[this.start + i] !== bytes[i]) return false;
    return true;
  }

  /** The key of the field just entered. */
  key(): string {
    return this.stringText();
  }

  /** A string value; undefined for null; anything else is refused as not being `what`. */
  string(what: string): string | undefined {
    const c = this.peek();
    if (c === QUOTE) {
      this.scanString();
      return this.stringText();
    }
    if (this.null()) return undefined;
    return this.wrongType(what, 'must be a string');
  }

  /** A string value that is one of `keys`: it, or undefined when it is another string or null. */
  stringIn(keys: ByteKeys, what: string): string | undefined {
    if (this.peek() !== QUOTE) return this.string(what);
    this.scanString();
    if (this.escaped) {
      const text = this.stringText();
      return keys.keys.has(text) ? text : undefined;
    }
    return keys.match(this.buf, this.start, this.end);
  }

  /** An integer, as a number or a decimal string (OTLP/JSON's 64-bit integers); a short one in a string is read as its number, which has the same text. */
  integer(what: string): number | string | undefined {
    if (this.peek() !== QUOTE) return this.numberOrString(what);
    this.scanString();
    const buf = this.buf;
    const negative = buf[this.start] === MINUS;
    const first = negative ? this.start + 1 : this.start;
    const length = this.end - first;
    // Digits without a leading zero (or a lone 0, not -0): the number's text is the string itself.
    if (!this.escaped && length > 0 && length <= 15 && (buf[first] !== ZERO || (length === 1 && !negative))) {
      let value = 0;
      let i = first;
      for (; i < this.end; i++) {
        const c = buf[i]!;
        if (c < ZERO || c > NINE) break;
        value = value * 10 + (c - ZERO);
      }
      if (i === this.end) return negative ? -value : value;
    }
    return this.stringText();
  }

  /** A number, or a string (as OTLP/JSON sends 64-bit integers); undefined for null. */
  numberOrString(what: string): number | string | undefined {
    const c = this.peek();
    if (c === QUOTE) {
      this.scanString();
      return this.stringText();
    }
    if (c === MINUS || isDigit(c)) return this.number();
    if (this.null()) return undefined;
    return this.wrongType(what, 'must be a number or a string');
  }

  /** A boolean; undefined for null. */
  boolean(what: string): boolean | undefined {
    const c = this.peek();
    if (c === LITERALS.true[0] || c === LITERALS.false[0]) {
      const value = c === LITERALS.true[0];
      this.literal(value ? LITERALS.true : LITERALS.false);
      return value;
    }
    if (this.null()) return undefined;
    return this.wrongType(what, 'must be true or false');
  }

  /** Skips one value of any kind, checking that it is JSON. */
  skip(): void {
    let nesting: number[] | undefined;
    for (;;) {
      const c = this.peek();
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.pos++;
        const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
        if (this.peek() === close) this.pos++;
        else {
          (nesting ??= []).push(close);
          if (close === CLOSE_OBJECT) this.field(0);
          continue;
        }
      } else this.scalar(c);
      // After a value: close what ends here, or move on to the next value of what is open.
      for (;;) {
        if (!nesting?.length) return;
        const close = nesting[nesting.length - 1]!;
        const next = this.peek();
        if (next === close) {
          this.pos++;
          nesting.pop();
          continue;
        }
        if (close === CLOSE_OBJECT) this.field(1);
        else this.element(1);
        break;
      }
    }
  }

  /** A value of the wrong kind: refused after checking that it is JSON at all (a syntax error is reported as such). */
  private wrongType(what: string, must: string): never {
    const at = this.pos;
    this.skip();
    this.pos = at;
    return this.fail(`"${what}" ${must}`);
  }

  /** After the value the body holds: nothing but whitespace. */
  finish(): void {
    if (this.peek() >= 0) this.fail('the body is not JSON: more follows the value');
  }

  private scalar(c: number): void {
    if (c === QUOTE) this.scanString();
    else if (c === MINUS || isDigit(c)) this.number();
    else if (c === LITERALS.true[0]) this.literal(LITERALS.true);
    else if (c === LITERALS.false[0]) this.literal(LITERALS.false);
    else if (c === LITERALS.null[0]) this.literal(LITERALS.null);
    else this.unexpected('a value');
  }

  private literal(bytes: readonly number[]): void {
    for (let i = 0; i < bytes.length; i++) {
      if (this.buf[this.pos] !== bytes[i]) this.fail('the body is not JSON: a misspelt true, false or null');
      this.pos++;
    }
  }

  /** Scans the string at pos (its opening quote), checking its escapes, and moves past it. */
  private scanString(): void {
    const buf = this.buf;
    let pos = this.pos + 1;
    this.start = pos;
    this.escaped = false;
    for (;;) {
      if (pos >= buf.length) {
        this.pos = pos;
        this.fail('the body is not JSON: a string does not end');
      }
      const c = buf[pos]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        this.escaped = true;
        const e = buf[pos + 1] ?? -1;
        if (e === 0x75) {
          for (let i = 2; i < 6; i++) {
            if (!isHex(buf[pos + i] ?? -1)) {
              this.pos = pos;
              this.fail('the body is not JSON: a \\u escape without four hex digits');
            }
          }
          pos += 6;
        } else if (ESCAPES.has(e)) pos += 2;
        else {
          this.pos = pos;
          this.fail('the body is not JSON: an unknown escape in a string');
        }
        continue;
      }
      if (c < 0x20) {
        this.pos = pos;
        this.fail('the body is not JSON: a control character in a string');
      }
      pos++;
    }
    this.end = pos;
    this.pos = pos + 1;
  }

  private stringText(): string {
    if (!this.escaped) return this.strings.text(this.buf, this.start, this.end, false);
    return JSON.parse(this.buf.toString('utf8', this.start - 1, this.end + 1)) as string;
  }

  /** Scans a number (RFC 8259's grammar) and returns its value. */
  private number(): number {
    const buf = this.buf;
    const start = this.pos;
    let pos = start;
    if (buf[pos] === MINUS) pos++;
    if (buf[pos] === ZERO) pos++;
    else if (isDigit(buf[pos] ?? -1)) while (isDigit(buf[pos] ?? -1)) pos++;
    else return this.badNumber(pos);
    const integerEnd = pos;
    if (buf[pos] === DOT) {
      pos++;
      if (!isDigit(buf[pos] ?? -1)) return this.badNumber(pos);
      while (isDigit(buf[pos] ?? -1)) pos++;
    }
    if (buf[pos] === 0x65 || buf[pos] === 0x45) {
      pos++;
      if (buf[pos] === PLUS || buf[pos] === MINUS) pos++;
      if (!isDigit(buf[pos] ?? -1)) return this.badNumber(pos);
      while (isDigit(buf[pos] ?? -1)) pos++;
    }
    this.pos = pos;
    // A short integer is added up digit by digit; the rest is left to Number.
    if (pos === integerEnd && pos - start <= 15) {
      let value = 0;
      for (let i = buf[start] === MINUS ? start + 1 : start; i < pos; i++) value = value * 10 + (buf[i]! - ZERO);
      return buf[start] === MINUS ? -value : value;
    }
    return Number(buf.toString('latin1', start, pos));
  }

  private badNumber(pos: number): never {
    this.pos = pos;
    return this.fail('the body is not JSON: a malformed number');
  }
}
