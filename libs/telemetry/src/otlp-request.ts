import protobuf from 'protobufjs';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';

/**
 * The parts of OTLP's export requests Warden reads, in OTLP/JSON's field names
 * (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding). A protobuf request is decoded into
 * the same shape, so that one reader serves both encodings. 64-bit integers may be numbers or decimal
 * strings, as OTLP/JSON allows. A field that was not sent may read as its default (inherited, not an own
 * property of a decoded protobuf message): readers test values with `Object.hasOwn` where that matters.
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

/** A request Warden cannot read, with the reason for the sender. */
export class OtlpInputError extends Error {}

// 64-bit integers as JavaScript numbers, not Long objects: times are read to the millisecond and counts
// stay far below 2^53, and an export decodes in a fraction of the time.
protobuf.util.Long = undefined as unknown as typeof protobuf.util.Long;
protobuf.configure();
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
 * Decodes an export request body (already decompressed): OTLP/JSON, or binary protobuf with the official
 * message definitions. Throws OtlpInputError with what is wrong.
 */
export function decodeExportRequest(signal: 'metrics', encoding: Encoding, body: Uint8Array): MetricsRequest;
export function decodeExportRequest(signal: 'logs', encoding: Encoding, body: Uint8Array): LogsRequest;
export function decodeExportRequest(signal: Signal, encoding: Encoding, body: Uint8Array): MetricsRequest | LogsRequest;
export function decodeExportRequest(signal: Signal, encoding: Encoding, body: Uint8Array): MetricsRequest | LogsRequest {
  const list = signal === 'metrics' ? 'resourceMetrics' : 'resourceLogs';
  let value: unknown;
  if (encoding === 'json') {
    try {
      value = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    } catch (error) {
      throw new OtlpInputError(`the body is not JSON (${(error as Error).message.slice(0, 200)})`);
    }
  } else {
    try {
      // The decoded message is read as it is: its fields have OTLP/JSON's names (protobuf.js's camel case),
      // the fields not sent are defaults on its prototype, never its own properties.
      value = MESSAGES[signal].request.decode(body);
    } catch (error) {
      throw new OtlpInputError(`the body is not an OTLP ${signal} export request in protobuf (${(error as Error).message.slice(0, 200)})`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OtlpInputError(`an OTLP ${signal} export request is a JSON object with "${list}"`);
  const items = (value as Record<string, unknown>)[list];
  if (items !== undefined && !Array.isArray(items)) throw new OtlpInputError(`"${list}" must be a list`);
  return value as MetricsRequest | LogsRequest;
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
