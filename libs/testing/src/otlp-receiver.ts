import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP receiver got it, ids as lowercase hex, attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, AttributeValue>;
  links: { traceId: string; spanId: string }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  /** The resource's attributes (`service.name`, ...). */
  resource: Record<string, AttributeValue>;
}

export type AttributeValue = string | number | boolean | bigint | AttributeValue[];

/**
 * An OpenTelemetry collector's receiving end for tests: `POST /v1/traces` over HTTP on 127.0.0.1, in
 * both encodings of OTLP/HTTP, binary protobuf (`application/x-protobuf`, decoded here by the field
 * numbers of opentelemetry-proto's trace.proto) and JSON (`application/json`). It answers as a
 * collector does (200 with an empty ExportTraceServiceResponse) and keeps every span it got.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests received, by content type. */
  readonly requests: Record<string, number> = {};

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (req, res) => {
      void receiver.receive(req).then(
        (type) => {
          res.writeHead(200, { 'content-type': type });
          res.end(type === 'application/json' ? '{}' : undefined);
        },
        (error: Error) => {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end(error.message);
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async receive(req: IncomingMessage): Promise<string> {
    if (req.method !== 'POST' || req.url !== '/v1/traces') throw new Error(`not an OTLP traces request: ${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
    this.requests[type] = (this.requests[type] ?? 0) + 1;
    if (type === 'application/x-protobuf') this.spans.push(...decodeProtobufTraces(body));
    else if (type === 'application/json') this.spans.push(...decodeJsonTraces(JSON.parse(body.toString('utf8')) as JsonRequest));
    else throw new Error(`unsupported content type ${type}`);
    return type;
  }
}

// ---------------------------------------------------------------------------------------------------
// Protobuf: ExportTraceServiceRequest as opentelemetry-proto defines it (field numbers in comments).

type Field = { field: number; wire: number; value: bigint | Buffer };

function* fields(buffer: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= buffer.length) throw new Error('truncated varint');
      const byte = buffer[at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { field, wire, value: varint() };
    else if (wire === 1) {
      yield { field, wire, value: buffer.readBigUInt64LE(at) };
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      if (at + length > buffer.length) throw new Error('truncated field');
      yield { field, wire, value: buffer.subarray(at, at + length) };
      at += length;
    } else if (wire === 5) {
      yield { field, wire, value: BigInt(buffer.readUInt32LE(at)) };
      at += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
}

const bytes = (f: Field) => f.value as Buffer;
const text = (f: Field) => bytes(f).toString('utf8');
const hex = (f: Field) => bytes(f).toString('hex');

function decodeAnyValue(buffer: Buffer): AttributeValue {
  for (const f of fields(buffer)) {
    if (f.field === 1) return text(f); // string_value
    if (f.field === 2) return f.value === 1n; // bool_value
    if (f.field === 3) return BigInt.asIntN(64, f.value as bigint); // int_value
    if (f.field === 4) return (() => { const b = Buffer.alloc(8); b.writeBigUInt64LE(f.value as bigint); return b.readDoubleLE(0); })(); // double_value
    if (f.field === 5) return [...fields(bytes(f))].filter((v) => v.field === 1).map((v) => decodeAnyValue(bytes(v))); // array_value
  }
  return '';
}

function decodeKeyValues(list: Buffer[]): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of list) {
    let key = '';
    let value: AttributeValue = '';
    for (const f of fields(kv)) {
      if (f.field === 1) key = text(f);
      else if (f.field === 2) value = decodeAnyValue(bytes(f));
    }
    out[key] = value;
  }
  return out;
}

function decodeSpan(buffer: Buffer, resource: Record<string, AttributeValue>): ReceivedSpan {
  const span: ReceivedSpan = { traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, startTimeUnixNano: 0n, endTimeUnixNano: 0n, attributes: {}, links: [], status: { code: 0, message: '' }, resource };
  const attributes: Buffer[] = [];
  for (const f of fields(buffer)) {
    switch (f.field) {
      case 1: span.traceId = hex(f); break;
      case 2: span.spanId = hex(f); break;
      case 4: span.parentSpanId = hex(f); break;
      case 5: span.name = text(f); break;
      case 6: span.kind = Number(f.value); break;
      case 7: span.startTimeUnixNano = f.value as bigint; break;
      case 8: span.endTimeUnixNano = f.value as bigint; break;
      case 9: attributes.push(bytes(f)); break;
      case 13: {
        const link = { traceId: '', spanId: '' };
        for (const l of fields(bytes(f))) {
          if (l.field === 1) link.traceId = hex(l);
          else if (l.field === 2) link.spanId = hex(l);
        }
        span.links.push(link);
        break;
      }
      case 15:
        for (const s of fields(bytes(f))) {
          if (s.field === 2) span.status.message = text(s);
          else if (s.field === 3) span.status.code = Number(s.value);
        }
        break;
    }
  }
  span.attributes = decodeKeyValues(attributes);
  return span;
}

export function decodeProtobufTraces(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of fields(body)) {
    if (resourceSpans.field !== 1) continue; // resource_spans
    let resource: Record<string, AttributeValue> = {};
    const scopeSpans: Buffer[] = [];
    for (const f of fields(bytes(resourceSpans))) {
      if (f.field === 1) resource = decodeKeyValues([...fields(bytes(f))].filter((a) => a.field === 1).map(bytes)); // resource.attributes
      else if (f.field === 2) scopeSpans.push(bytes(f)); // scope_spans
    }
    for (const scope of scopeSpans) for (const f of fields(scope)) if (f.field === 2) spans.push(decodeSpan(bytes(f), resource)); // spans
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------------
// JSON: the OTLP/JSON mapping of the same messages (ids as hex, 64-bit numbers as strings).

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
type JsonKeyValue = { key: string; value: JsonAnyValue };
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonKeyValue[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
}
interface JsonRequest {
  resourceSpans?: { resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: { spans?: JsonSpan[] }[] }[];
}

function jsonValue(value: JsonAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return BigInt(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
  return '';
}
const jsonAttributes = (list: JsonKeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, jsonValue(kv.value)]));

export function decodeJsonTraces(request: JsonRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((rs) => {
    const resource = jsonAttributes(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId.toLowerCase(),
        spanId: s.spanId.toLowerCase(),
        parentSpanId: (s.parentSpanId ?? '').toLowerCase(),
        name: s.name,
        kind: s.kind ?? 0,
        startTimeUnixNano: BigInt(s.startTimeUnixNano),
        endTimeUnixNano: BigInt(s.endTimeUnixNano),
        attributes: jsonAttributes(s.attributes),
        links: (s.links ?? []).map((l) => ({ traceId: l.traceId.toLowerCase(), spanId: l.spanId.toLowerCase() })),
        status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
        resource,
      })),
    );
  });
}
