import { byteKeys, ByteStrings, type ByteKeys } from './byte-strings.js';
import { Attributes, type AttributeValue, type LogRecordRead, type LogsExport, type MetricRead, type MetricsExport, type NumberPointRead, type ReadScope } from './otlp-export.js';
import { FIXED64, LENGTH, tag, VARINT, WireReader } from './protobuf-wire.js';

/**
 * OTLP export requests in protobuf's binary encoding, read in place with the field numbers of the
 * official definitions (proto/opentelemetry/proto, v1.11.0): the log records and number data points
 * with their attributes. Every other field is skipped by its wire type, unread; so are the attributes
 * and metrics the scope leaves out. Fields may come in any order and a message may be sent in parts, as
 * protobuf allows: a KeyValue's value is read once its key is known, a metric's points once its name is.
 */

// ExportLogsServiceRequest / ExportMetricsServiceRequest
const RESOURCE_LOGS = tag(1, LENGTH);
const RESOURCE_METRICS = tag(1, LENGTH);
// ResourceLogs / ResourceMetrics
const RESOURCE = tag(1, LENGTH);
const SCOPE_LOGS = tag(2, LENGTH);
const SCOPE_METRICS = tag(2, LENGTH);
// Resource
const RESOURCE_ATTRIBUTE = tag(1, LENGTH);
// ScopeLogs / ScopeMetrics
const LOG_RECORD = tag(2, LENGTH);
const METRIC = tag(2, LENGTH);
// LogRecord
const TIME = tag(1, FIXED64);
const OBSERVED_TIME = tag(11, FIXED64);
const BODY = tag(5, LENGTH);
const RECORD_ATTRIBUTE = tag(6, LENGTH);
const EVENT_NAME = tag(12, LENGTH);
// KeyValue
const KEY = tag(1, LENGTH);
const VALUE = tag(2, LENGTH);
// AnyValue
const STRING_VALUE = tag(1, LENGTH);
const BOOL_VALUE = tag(2, VARINT);
const INT_VALUE = tag(3, VARINT);
const DOUBLE_VALUE = tag(4, FIXED64);
const OTHER_VALUES = new Set([tag(5, LENGTH), tag(6, LENGTH), tag(7, LENGTH), tag(8, VARINT)]);
// Metric: name, and its data (a oneof)
const NAME = tag(1, LENGTH);
const GAUGE = tag(5, LENGTH);
const SUM = tag(7, LENGTH);
const OTHER_DATA = new Set([tag(9, LENGTH), tag(10, LENGTH), tag(11, LENGTH)]);
// Gauge / Sum
const DATA_POINT = tag(1, LENGTH);
const TEMPORALITY = tag(2, VARINT);
// NumberDataPoint
const POINT_ATTRIBUTE = tag(7, LENGTH);
const START_TIME = tag(2, FIXED64);
const POINT_TIME = tag(3, FIXED64);
const AS_DOUBLE = tag(4, FIXED64);
const AS_INT = tag(6, FIXED64);

const strings = new ByteStrings();

export function readLogsProtobuf(body: Buffer, scope: ReadScope): LogsExport {
  const w = new WireReader(body, strings);
  const records: LogRecordRead[] = [];
  const keys = scope.logAttributes && byteKeys(scope.logAttributes);
  const end = body.length;
  while (w.pos < end) {
    const t = w.tag();
    if (t !== RESOURCE_LOGS) w.skip(t, end);
    else {
      const close = w.open(end);
      resourceLogs(w, close, records, keys);
      w.close(close);
    }
  }
  return { records };
}

function resourceLogs(w: WireReader, end: number, records: LogRecordRead[], keys: ByteKeys | undefined): void {
  const resource = new Attributes();
  while (w.pos < end) {
    const t = w.tag();
    if (t === RESOURCE) readResource(w, w.open(end), resource, keys);
    else if (t === SCOPE_LOGS) {
      const close = w.open(end);
      while (w.pos < close) {
        const u = w.tag();
        if (u !== LOG_RECORD) w.skip(u, close);
        else {
          const recordEnd = w.open(close);
          records.push(logRecord(w, recordEnd, resource, keys));
          w.close(recordEnd);
        }
      }
      w.close(close);
    } else w.skip(t, end);
  }
}

function readResource(w: WireReader, end: number, into: Attributes, keys: ByteKeys | undefined): void {
  while (w.pos < end) {
    const t = w.tag();
    if (t === RESOURCE_ATTRIBUTE) keyValue(w, w.open(end), into, keys);
    else w.skip(t, end);
  }
  w.close(end);
}

/** A KeyValue into `into` (when `keys` has its key, if given); one without a value sets nothing. */
function keyValue(w: WireReader, end: number, into: Attributes, keys: ByteKeys | undefined): void {
  // A key not sent is the empty string, as proto3 has it; one `keys` does not have is none.
  let key: string | undefined = keys ? undefined : '';
  let valueAt = -1;
  let valueEnd = -1;
  while (w.pos < end) {
    const t = w.tag();
    if (t === KEY) key = keys ? w.stringIn(keys, end) : w.string(end);
    else if (t === VALUE) {
      valueEnd = w.open(end);
      valueAt = w.pos;
      w.pos = valueEnd;
    } else w.skip(t, end);
  }
  w.close(end);
  if (valueAt < 0 || key === undefined) return;
  w.pos = valueAt;
  into.add(key, anyValue(w, valueEnd));
  w.pos = end;
}

/** An AnyValue: its string, int, double or bool value; null for another kind or none (the last one sent counts, as in a oneof). */
function anyValue(w: WireReader, end: number): AttributeValue {
  let value: AttributeValue = null;
  while (w.pos < end) {
    const t = w.tag();
    if (t === STRING_VALUE) value = w.string(end);
    else if (t === INT_VALUE) value = w.int64();
    else if (t === DOUBLE_VALUE) value = w.double();
    else if (t === BOOL_VALUE) value = w.int64() !== 0;
    else {
      // Another member of the oneof (an array, a key-value list, bytes) replaces a value sent before it.
      if (OTHER_VALUES.has(t)) value = null;
      w.skip(t, end);
    }
  }
  w.close(end);
  return value;
}

function logRecord(w: WireReader, end: number, resource: Attributes, keys: ByteKeys | undefined): LogRecordRead {
  const record: LogRecordRead = { resource, attributes: new Attributes(), eventName: '', body: undefined, timeUnixNano: undefined, observedTimeUnixNano: undefined };
  while (w.pos < end) {
    const t = w.tag();
    if (t === RECORD_ATTRIBUTE) keyValue(w, w.open(end), record.attributes, keys);
    else if (t === TIME) record.timeUnixNano = w.nanos();
    else if (t === OBSERVED_TIME) record.observedTimeUnixNano = w.nanos();
    else if (t === BODY) record.body = anyValue(w, w.open(end));
    else if (t === EVENT_NAME) record.eventName = w.string(end);
    else w.skip(t, end);
  }
  return record;
}

export function readMetricsProtobuf(body: Buffer, scope: ReadScope): MetricsExport {
  const w = new WireReader(body, strings);
  const metrics: MetricRead[] = [];
  const end = body.length;
  while (w.pos < end) {
    const t = w.tag();
    if (t !== RESOURCE_METRICS) w.skip(t, end);
    else {
      const close = w.open(end);
      resourceMetrics(w, close, metrics, scope.metrics);
      w.close(close);
    }
  }
  return { metrics };
}

function resourceMetrics(w: WireReader, end: number, metrics: MetricRead[], wanted: ReadonlySet<string> | undefined): void {
  const resource = new Attributes();
  while (w.pos < end) {
    const t = w.tag();
    if (t === RESOURCE) readResource(w, w.open(end), resource, undefined);
    else if (t === SCOPE_METRICS) {
      const close = w.open(end);
      while (w.pos < close) {
        const u = w.tag();
        if (u !== METRIC) w.skip(u, close);
        else {
          const metricEnd = w.open(close);
          metrics.push(metric(w, metricEnd, resource, wanted));
          w.close(metricEnd);
        }
      }
      w.close(close);
    } else w.skip(t, end);
  }
}

function metric(w: WireReader, end: number, resource: Attributes, wanted: ReadonlySet<string> | undefined): MetricRead {
  const read: MetricRead = { name: '', kind: undefined, pointCount: 0, temporality: 0, points: undefined };
  let dataAt = -1;
  let dataEnd = -1;
  while (w.pos < end) {
    const t = w.tag();
    if (t === NAME) read.name = w.string(end);
    else if (t === SUM || t === GAUGE) {
      dataEnd = w.open(end);
      dataAt = w.pos;
      read.kind = t === SUM ? 'sum' : 'gauge';
      w.pos = dataEnd;
    } else {
      if (OTHER_DATA.has(t)) {
        read.kind = 'other';
        dataAt = -1;
      }
      w.skip(t, end);
    }
  }
  if (dataAt < 0) return read;
  const withPoints = wanted ? wanted.has(read.name) : true;
  if (withPoints) read.points = [];
  w.pos = dataAt;
  while (w.pos < dataEnd) {
    const t = w.tag();
    if (t === DATA_POINT) {
      const pointEnd = w.open(dataEnd);
      read.pointCount++;
      if (read.points) read.points.push(numberPoint(w, pointEnd, resource));
      w.pos = pointEnd;
    } else if (t === TEMPORALITY && read.kind === 'sum') read.temporality = w.varint32() | 0;
    else w.skip(t, dataEnd);
  }
  w.close(dataEnd);
  w.pos = end;
  return read;
}

function numberPoint(w: WireReader, end: number, resource: Attributes): NumberPointRead {
  const point: NumberPointRead = { resource, attributes: new Attributes(), value: 0, startTimeUnixNano: undefined, timeUnixNano: undefined };
  while (w.pos < end) {
    const t = w.tag();
    if (t === POINT_ATTRIBUTE) keyValue(w, w.open(end), point.attributes, undefined);
    else if (t === POINT_TIME) point.timeUnixNano = w.nanos();
    else if (t === START_TIME) point.startTimeUnixNano = w.nanos();
    else if (t === AS_DOUBLE) point.value = w.double();
    else if (t === AS_INT) point.value = w.sfixed64();
    else w.skip(t, end);
  }
  w.close(end);
  return point;
}
