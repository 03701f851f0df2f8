import { byteKeys, ByteStrings, type ByteKeys } from './byte-strings.js';
import { JsonScanner, jsonKey } from './json-scanner.js';
import { Attributes, type AttributeValue, type LogRecordRead, type LogsExport, type MetricRead, type MetricsExport, type NumberPointRead, type ReadScope } from './otlp-export.js';

/**
 * OTLP/JSON export requests (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding) read in
 * place: the log records and number data points with their attributes; every other field is skipped
 * (checked as JSON, never built). Field names are OTLP/JSON's lowerCamelCase; 64-bit integers may be
 * numbers or decimal strings; a field sent as null is a field not sent. A field Warden reads that has
 * the wrong kind of value is refused with its name.
 */

const K = {
  resourceLogs: jsonKey('resourceLogs'),
  resourceMetrics: jsonKey('resourceMetrics'),
  resource: jsonKey('resource'),
  attributes: jsonKey('attributes'),
  scopeLogs: jsonKey('scopeLogs'),
  logRecords: jsonKey('logRecords'),
  scopeMetrics: jsonKey('scopeMetrics'),
  metrics: jsonKey('metrics'),
  key: jsonKey('key'),
  value: jsonKey('value'),
  stringValue: jsonKey('stringValue'),
  intValue: jsonKey('intValue'),
  doubleValue: jsonKey('doubleValue'),
  boolValue: jsonKey('boolValue'),
  timeUnixNano: jsonKey('timeUnixNano'),
  observedTimeUnixNano: jsonKey('observedTimeUnixNano'),
  startTimeUnixNano: jsonKey('startTimeUnixNano'),
  body: jsonKey('body'),
  eventName: jsonKey('eventName'),
  name: jsonKey('name'),
  sum: jsonKey('sum'),
  gauge: jsonKey('gauge'),
  histogram: jsonKey('histogram'),
  exponentialHistogram: jsonKey('exponentialHistogram'),
  summary: jsonKey('summary'),
  dataPoints: jsonKey('dataPoints'),
  aggregationTemporality: jsonKey('aggregationTemporality'),
  asDouble: jsonKey('asDouble'),
  asInt: jsonKey('asInt'),
};

/** Enum values may be sent by name in proto3's JSON mapping; OTLP/JSON sends numbers. */
const TEMPORALITIES: Record<string, number> = { AGGREGATION_TEMPORALITY_UNSPECIFIED: 0, AGGREGATION_TEMPORALITY_DELTA: 1, AGGREGATION_TEMPORALITY_CUMULATIVE: 2 };

const strings = new ByteStrings();

/** Enters the request object; anything else is refused, as JSON first. */
function request(s: JsonScanner, list: string): void {
  if (s.peek() === 0x7b) return void s.object(list);
  s.skip();
  s.finish();
  s.fail(`an OTLP ${list === 'resourceLogs' ? 'logs' : 'metrics'} export request is a JSON object with "${list}"`);
}

export function readLogsJson(body: Buffer, scope: ReadScope): LogsExport {
  const s = new JsonScanner(body, strings);
  const records: LogRecordRead[] = [];
  const keys = scope.logAttributes && byteKeys(scope.logAttributes);
  request(s, 'resourceLogs');
  for (let f = 0; s.field(f); f++) {
    if (!s.keyIs(K.resourceLogs)) s.skip();
    else if (s.array('resourceLogs')) for (let i = 0; s.element(i); i++) resourceLogs(s, records, keys);
  }
  s.finish();
  return { records };
}

function resourceLogs(s: JsonScanner, records: LogRecordRead[], keys: ByteKeys | undefined): void {
  if (!s.object('resourceLogs[]')) return;
  const resource = new Attributes();
  for (let f = 0; s.field(f); f++) {
    if (s.keyIs(K.resource)) readResource(s, resource, keys);
    else if (!s.keyIs(K.scopeLogs)) s.skip();
    else if (s.array('scopeLogs')) {
      for (let i = 0; s.element(i); i++) {
        if (!s.object('scopeLogs[]')) continue;
        for (let g = 0; s.field(g); g++) {
          if (!s.keyIs(K.logRecords)) s.skip();
          else if (s.array('logRecords')) for (let j = 0; s.element(j); j++) if (s.object('logRecords[]')) records.push(logRecord(s, resource, keys));
        }
      }
    }
  }
}

export function readMetricsJson(body: Buffer, scope: ReadScope): MetricsExport {
  const s = new JsonScanner(body, strings);
  const metrics: MetricRead[] = [];
  request(s, 'resourceMetrics');
  for (let f = 0; s.field(f); f++) {
    if (!s.keyIs(K.resourceMetrics)) s.skip();
    else if (s.array('resourceMetrics')) for (let i = 0; s.element(i); i++) resourceMetrics(s, metrics, scope.metrics);
  }
  s.finish();
  return { metrics };
}

function resourceMetrics(s: JsonScanner, metrics: MetricRead[], wanted: ReadonlySet<string> | undefined): void {
  if (!s.object('resourceMetrics[]')) return;
  const resource = new Attributes();
  for (let f = 0; s.field(f); f++) {
    if (s.keyIs(K.resource)) readResource(s, resource, undefined);
    else if (!s.keyIs(K.scopeMetrics)) s.skip();
    else if (s.array('scopeMetrics')) {
      for (let i = 0; s.element(i); i++) {
        if (!s.object('scopeMetrics[]')) continue;
        for (let g = 0; s.field(g); g++) {
          if (!s.keyIs(K.metrics)) s.skip();
          else if (s.array('metrics')) for (let j = 0; s.element(j); j++) if (s.object('metrics[]')) metrics.push(metric(s, resource, wanted));
        }
      }
    }
  }
}

function readResource(s: JsonScanner, into: Attributes, keys: ByteKeys | undefined): void {
  if (!s.object('resource')) return;
  for (let f = 0; s.field(f); f++) {
    if (s.keyIs(K.attributes)) attributes(s, into, keys);
    else s.skip();
  }
}

/** A list of KeyValue into `into`; only the keys in `keys` when given. A KeyValue without a value sets nothing. */
function attributes(s: JsonScanner, into: Attributes, keys: ByteKeys | undefined): void {
  if (!s.array('attributes')) return;
  for (let i = 0; s.element(i); i++) {
    const at = s.pos;
    if (compactKeyValue(s, into, keys)) continue;
    s.pos = at;
    if (!s.object('attributes[]')) continue;
    let key: string | undefined;
    let keyRead = false;
    let value: AttributeValue | undefined;
    // The value is read where it is when its key came first (as exporters send them), else found again after.
    let valueAt = -1;
    for (let f = 0; s.field(f); f++) {
      if (s.keyIs(K.key)) {
        key = keys ? s.stringIn(keys, 'attributes[].key') : s.string('attributes[].key');
        keyRead = true;
      } else if (s.keyIs(K.value)) {
        if (!keyRead) {
          valueAt = s.pos;
          s.skip();
        } else if (key === undefined) s.skip();
        else value = anyValue(s);
      } else s.skip();
    }
    if (key === undefined) continue;
    if (valueAt >= 0) {
      const after = s.pos;
      s.pos = valueAt;
      value = anyValue(s);
      s.pos = after;
    }
    if (value !== undefined) into.add(key, value);
  }
}

const bytes = (text: string) => new TextEncoder().encode(text);
const COMPACT = {
  key: bytes('{"key":'),
  value: bytes(',"value":{'),
  stringValue: bytes('"stringValue":'),
  intValue: bytes('"intValue":'),
  doubleValue: bytes('"doubleValue":'),
  boolValue: bytes('"boolValue":'),
  end: bytes('}}'),
};

/**
 * A KeyValue as exporters write it, `{"key":"k","value":{"stringValue":"v"}}` with no whitespace (or
 * intValue, doubleValue, boolValue), read without looking field by field; false (having added nothing)
 * when it is written otherwise, for the general reading from where it started.
 */
function compactKeyValue(s: JsonScanner, into: Attributes, keys: ByteKeys | undefined): boolean {
  if (!s.match(COMPACT.key)) return false;
  const key = keys ? s.stringIn(keys, 'attributes[].key') : s.string('attributes[].key');
  if (!s.match(COMPACT.value)) return false;
  let value: AttributeValue | undefined;
  if (key === undefined) {
    if (!(s.match(COMPACT.stringValue) || s.match(COMPACT.intValue) || s.match(COMPACT.doubleValue) || s.match(COMPACT.boolValue))) return false;
    s.skip();
  } else if (s.match(COMPACT.stringValue)) value = s.string('value.stringValue');
  else if (s.match(COMPACT.intValue)) value = s.integer('value.intValue');
  else if (s.match(COMPACT.doubleValue)) value = s.numberOrString('value.doubleValue');
  else if (s.match(COMPACT.boolValue)) value = s.boolean('value.boolValue');
  else return false;
  if (!s.match(COMPACT.end)) return false;
  // As read field by field: a value object whose one field is null is a value of no kind.
  if (key !== undefined) into.add(key, value ?? null);
  return true;
}

/** An AnyValue: its string, int, double or bool value; null for another kind or none; undefined for JSON null. */
function anyValue(s: JsonScanner): AttributeValue | undefined {
  if (!s.object('value')) return undefined;
  let value: AttributeValue = null;
  for (let f = 0; s.field(f); f++) {
    let v: AttributeValue | undefined;
    if (s.keyIs(K.stringValue)) v = s.string('value.stringValue');
    else if (s.keyIs(K.intValue)) v = s.integer('value.intValue');
    else if (s.keyIs(K.doubleValue)) v = s.numberOrString('value.doubleValue');
    else if (s.keyIs(K.boolValue)) v = s.boolean('value.boolValue');
    else s.skip();
    if (v !== undefined) value = v;
  }
  return value;
}

function nanos(s: JsonScanner, what: string): string | undefined {
  const value = s.numberOrString(what);
  return value === undefined ? undefined : String(value);
}

function logRecord(s: JsonScanner, resource: Attributes, keys: ByteKeys | undefined): LogRecordRead {
  const record: LogRecordRead = { resource, attributes: new Attributes(), eventName: '', body: undefined, timeUnixNano: undefined, observedTimeUnixNano: undefined };
  for (let f = 0; s.field(f); f++) {
    if (s.keyIs(K.attributes)) attributes(s, record.attributes, keys);
    else if (s.keyIs(K.body)) record.body = anyValue(s);
    else if (s.keyIs(K.timeUnixNano)) record.timeUnixNano = nanos(s, 'logRecords[].timeUnixNano');
    else if (s.keyIs(K.observedTimeUnixNano)) record.observedTimeUnixNano = nanos(s, 'logRecords[].observedTimeUnixNano');
    else if (s.keyIs(K.eventName)) record.eventName = s.string('logRecords[].eventName') ?? '';
    else s.skip();
  }
  return record;
}

function metric(s: JsonScanner, resource: Attributes, wanted: ReadonlySet<string> | undefined): MetricRead {
  const read: MetricRead = { name: '', kind: undefined, pointCount: 0, temporality: 0, points: undefined };
  let named = false;
  // Where the sum or gauge was when the name came after it: read again once the name says whether to.
  let dataAt = -1;
  for (let f = 0; s.field(f); f++) {
    if (s.keyIs(K.name)) {
      read.name = s.string('metrics[].name') ?? '';
      named = true;
    } else if (s.keyIs(K.sum) || (s.keyIs(K.gauge) && read.kind !== 'sum')) {
      const kind = s.keyIs(K.sum) ? 'sum' : 'gauge';
      if (named) {
        numberData(s, read, kind, wanted ? wanted.has(read.name) : true, resource);
        dataAt = -1;
      } else {
        read.kind = kind;
        dataAt = s.pos;
        s.skip();
      }
    } else if (s.keyIs(K.histogram) || s.keyIs(K.exponentialHistogram) || s.keyIs(K.summary)) {
      read.kind ??= 'other';
      s.skip();
    } else s.skip();
  }
  if (dataAt >= 0) {
    const after = s.pos;
    s.pos = dataAt;
    numberData(s, read, read.kind as 'sum' | 'gauge', wanted ? wanted.has(read.name) : true, resource);
    s.pos = after;
  }
  return read;
}

/** A Sum or Gauge: how many points, the sum's temporality, and the points themselves when `withPoints`. */
function numberData(s: JsonScanner, read: MetricRead, kind: 'sum' | 'gauge', withPoints: boolean, resource: Attributes): void {
  read.kind = kind;
  read.pointCount = 0;
  read.temporality = 0;
  read.points = withPoints ? [] : undefined;
  if (!s.object(kind)) return;
  for (let f = 0; s.field(f); f++) {
    if (s.keyIs(K.dataPoints) && s.array('dataPoints')) {
      for (let i = 0; s.element(i); i++) {
        read.pointCount++;
        if (!read.points) s.skip();
        else if (s.object('dataPoints[]')) read.points.push(numberPoint(s, resource));
      }
    } else if (s.keyIs(K.aggregationTemporality) && kind === 'sum') {
      const value = s.numberOrString('sum.aggregationTemporality');
      read.temporality = typeof value === 'string' ? (TEMPORALITIES[value] ?? -1) : (value ?? 0);
    } else if (!s.keyIs(K.dataPoints)) s.skip();
  }
}

function numberPoint(s: JsonScanner, resource: Attributes): NumberPointRead {
  const point: NumberPointRead = { resource, attributes: new Attributes(), value: 0, startTimeUnixNano: undefined, timeUnixNano: undefined };
  let double: number | undefined;
  let int: number | undefined;
  for (let f = 0; s.field(f); f++) {
    if (s.keyIs(K.attributes)) attributes(s, point.attributes, undefined);
    else if (s.keyIs(K.timeUnixNano)) point.timeUnixNano = nanos(s, 'dataPoints[].timeUnixNano');
    else if (s.keyIs(K.startTimeUnixNano)) point.startTimeUnixNano = nanos(s, 'dataPoints[].startTimeUnixNano');
    else if (s.keyIs(K.asDouble)) {
      const value = s.numberOrString('dataPoints[].asDouble');
      if (value !== undefined) double = Number(value);
    } else if (s.keyIs(K.asInt)) {
      const value = s.numberOrString('dataPoints[].asInt');
      if (value !== undefined) int = Number(value);
    } else s.skip();
  }
  point.value = double ?? int ?? 0;
  return point;
}
