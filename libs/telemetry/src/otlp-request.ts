import protobuf from 'protobufjs';
import { asBuffer } from './byte-strings.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';
import { OtlpInputError, type LogsExport, type MetricsExport, type ReadScope } from './otlp-export.js';
import { readLogsJson, readMetricsJson } from './otlp-json.js';
import { readLogsProtobuf, readMetricsProtobuf } from './otlp-protobuf.js';

/**
 * OTLP's export requests in OTLP/JSON's shape and field names
 * (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding): what exporters send, as tests and
 * the benchmark write them (encodeExportRequest makes the protobuf of one). 64-bit integers may be
 * numbers or decimal strings, as OTLP/JSON allows. Warden reads requests with its own readers
 * (decodeExportRequest), not into this shape.
 */
export interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
}
export interface KeyValue {
  key: string;
  value?: AnyValue;
}
export interface Resource {
  attributes?: KeyValue[];
}
export interface Scope {
  name?: string;
  version?: string;
}

export interface NumberDataPoint {
  attributes?: KeyValue[];
  startTimeUnixNano?: string | number;
  timeUnixNano?: string | number;
  asDouble?: number;
  asInt?: string | number;
}
/** 1: delta, 2: cumulative (AggregationTemporality). */
export type Temporality = 0 | 1 | 2;
export interface Metric {
  name: string;
  unit?: string;
  sum?: { dataPoints?: NumberDataPoint[]; aggregationTemporality?: Temporality; isMonotonic?: boolean };
  gauge?: { dataPoints?: NumberDataPoint[] };
  histogram?: { dataPoints?: unknown[] };
  exponentialHistogram?: { dataPoints?: unknown[] };
  summary?: { dataPoints?: unknown[] };
}
export interface MetricsRequest {
  resourceMetrics?: { resource?: Resource; scopeMetrics?: { scope?: Scope; metrics?: Metric[] }[] }[];
}

export interface LogRecord {
  timeUnixNano?: string | number;
  observedTimeUnixNano?: string | number;
  body?: AnyValue;
  attributes?: KeyValue[];
  eventName?: string;
}
export interface LogsRequest {
  resourceLogs?: { resource?: Resource; scopeLogs?: { scope?: Scope; logRecords?: LogRecord[] }[] }[];
}

export type Signal = 'metrics' | 'logs';
export type Encoding = 'json' | 'protobuf';

export { OtlpInputError };

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as unknown as protobuf.INamespace);
const MESSAGES = {
  metrics: {
    request: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
    response: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse'),
  },
  logs: {
    request: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
    response: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
  },
} as const;

/** The encoding of a Content-Type, or undefined for one OTLP/HTTP does not use. */
export function encodingOf(contentType: string | undefined): Encoding | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  return undefined;
}

/**
 * Reads an export request body (already decompressed), OTLP/JSON or binary protobuf, as far as `scope`
 * asks (all of it by default): the log records or the number data points, with their attributes.
 * Throws OtlpInputError with what is wrong.
 */
export function decodeExportRequest(signal: 'metrics', encoding: Encoding, body: Uint8Array, scope?: ReadScope): MetricsExport;
export function decodeExportRequest(signal: 'logs', encoding: Encoding, body: Uint8Array, scope?: ReadScope): LogsExport;
export function decodeExportRequest(signal: Signal, encoding: Encoding, body: Uint8Array, scope?: ReadScope): MetricsExport | LogsExport;
export function decodeExportRequest(signal: Signal, encoding: Encoding, body: Uint8Array, scope: ReadScope = {}): MetricsExport | LogsExport {
  const buf = asBuffer(body);
  if (encoding === 'json') return signal === 'metrics' ? readMetricsJson(buf, scope) : readLogsJson(buf, scope);
  try {
    return signal === 'metrics' ? readMetricsProtobuf(buf, scope) : readLogsProtobuf(buf, scope);
  } catch (error) {
    if (!(error instanceof OtlpInputError)) throw error;
    throw new OtlpInputError(`the body is not an OTLP ${signal} export request in protobuf (${error.message})`);
  }
}

/** What a receiver answers (ExportMetricsServiceResponse / ExportLogsServiceResponse), with what it rejected. */
export function encodeExportResponse(signal: Signal, encoding: Encoding, rejected?: { count: number; message: string }): { contentType: string; body: Uint8Array | string } {
  const field = signal === 'metrics' ? 'rejectedDataPoints' : 'rejectedLogRecords';
  const response = rejected && rejected.count > 0 ? { partialSuccess: { [field]: String(rejected.count), errorMessage: rejected.message } } : {};
  if (encoding === 'json') return { contentType: 'application/json', body: JSON.stringify(response) };
  const type = MESSAGES[signal].response;
  return { contentType: 'application/x-protobuf', body: type.encode(type.fromObject(response)).finish() };
}

/** Encodes a request in protobuf from its OTLP/JSON shape: what an exporter sends (for tests and the benchmark). */
export function encodeExportRequest(signal: Signal, request: MetricsRequest | LogsRequest): Uint8Array {
  const type = MESSAGES[signal].request;
  return type.encode(type.fromObject(request as Record<string, unknown>)).finish();
}
