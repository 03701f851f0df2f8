/**
 * What Warden reads of an OTLP export request, whichever its encoding: the log records and the number
 * data points with their attributes, and no more. The readers (otlp-json.ts, otlp-protobuf.ts) skip the
 * rest unread.
 */

/** A request Warden cannot read, with the reason for the sender. */
export class OtlpInputError extends Error {}

/**
 * An attribute's value: a string, int, double or bool value as it came (an int may be a decimal string in
 * OTLP/JSON), or null for a value that is none of these (an array, a key-value list, bytes, nothing).
 */
export type AttributeValue = string | number | boolean | null;
/**
 * The attributes of a record, a point or a resource that are read: OpenTelemetry's SDKs keep 128 by
 * default (OTEL_ATTRIBUTE_COUNT_LIMIT); those after the 256th are skipped, so that no export makes the
 * work on it grow faster than its size.
 */
export const MAX_ATTRIBUTES = 256;

/** Lists longer than this are looked up through an index rather than read from their end. */
const SHORT = 16;

/**
 * Attributes as they were sent, in order; a key sent twice counts with its last value. A record has a
 * dozen or so: a list read from its end finds one sooner than a Map is built.
 */
export class Attributes {
  private readonly keys: string[] = [];
  private readonly values: AttributeValue[] = [];
  /** For a long list: where each key was last sent. */
  private index: Map<string, number> | undefined;

  add(key: string, value: AttributeValue): void {
    if (this.keys.length >= MAX_ATTRIBUTES) return;
    this.keys.push(key);
    this.values.push(value);
    this.index?.set(key, this.keys.length - 1);
  }

  /** Where `key` was last sent; -1 when it was not. */
  private lastOf(key: string): number {
    const keys = this.keys;
    if (keys.length <= SHORT) {
      let i = keys.length - 1;
      while (i >= 0 && keys[i] !== key) i--;
      return i;
    }
    if (!this.index) {
      this.index = new Map();
      for (let i = 0; i < keys.length; i++) this.index.set(keys[i]!, i);
    }
    return this.index.get(key) ?? -1;
  }

  /** The value of `key`; undefined when it was not sent. */
  get(key: string): AttributeValue | undefined {
    const at = this.lastOf(key);
    return at < 0 ? undefined : this.values[at];
  }

  has(key: string): boolean {
    return this.lastOf(key) >= 0;
  }

  /** Each key once with its last value, as `key=text`, but the keys in `except` and those `over` has (they are its). */
  texts(except: ReadonlySet<string>, over: Attributes | undefined, into: string[]): void {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (except.has(key) || this.lastOf(key) !== i || over?.has(key)) continue;
      into.push(`${key}=${textOf(this.values[i]) ?? ''}`);
    }
  }
}

/** Which parts of an export to read; all of it when not said. */
export interface ReadScope {
  /** The attributes of log records and their resources to read; the others are skipped unread. */
  readonly logAttributes?: ReadonlySet<string>;
  /** The metrics whose data points are read; of the others, only how many points they have. */
  readonly metrics?: ReadonlySet<string>;
}

export interface LogRecordRead {
  /** Its resource's attributes, shared by the records of one resource. */
  resource: Attributes;
  attributes: Attributes;
  /** The record's own event name (LogRecord.event_name), '' when not set. */
  eventName: string;
  /** Its body: undefined when absent, null when it is not a string, int, double or bool. */
  body: AttributeValue | undefined;
  /** Times in nanoseconds since the epoch, as decimal strings. */
  timeUnixNano: string | undefined;
  observedTimeUnixNano: string | undefined;
}

export interface LogsExport {
  records: LogRecordRead[];
}

export interface NumberPointRead {
  resource: Attributes;
  attributes: Attributes;
  /** as_double or as_int; 0 when neither is set, NaN when the value is not a number. */
  value: number;
  startTimeUnixNano: string | undefined;
  timeUnixNano: string | undefined;
}

export interface MetricRead {
  name: string;
  /** Which data the metric holds: a sum, a gauge, another kind (histogram, summary …), or none. */
  kind: 'sum' | 'gauge' | 'other' | undefined;
  /** How many data points its sum or gauge has. */
  pointCount: number;
  /** The sum's aggregation temporality: 1 delta, 2 cumulative, 0 unspecified. */
  temporality: number;
  /** The sum's or gauge's points, for the metrics the scope reads. */
  points: NumberPointRead[] | undefined;
}

export interface MetricsExport {
  metrics: MetricRead[];
}

/** The text of an attribute value, as an attribute's text is compared and shown. */
export function textOf(value: AttributeValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  return value === null || value === undefined ? undefined : String(value);
}

/** Nanoseconds since the epoch, as a decimal string, of an unsigned 64-bit integer in two 32-bit halves, exactly. */
export function nanosOf(high: number, low: number): string {
  if (high < 0x200000) return String(high * 0x1_0000_0000 + low);
  // high * 2^32 = high * 4294 * 10^6 + high * 967296: both parts stay below 2^53.
  const units = low + high * 967_296;
  const millions = high * 4294 + Math.floor(units / 1e6);
  return `${millions}${String(units % 1e6).padStart(6, '0')}`;
}
