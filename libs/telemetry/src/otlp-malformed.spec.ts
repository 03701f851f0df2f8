import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { readUsage, USAGE_SCOPE } from './agent-usage.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';
import { decodeExportRequest, encodeExportRequest, OtlpInputError, type LogsRequest, type MetricsRequest, type Signal } from './otlp-request.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as T;
const text = (body: string) => new TextEncoder().encode(body);
const LOGS = fixture<LogsRequest>('claude-code-otlp-logs-api_request.json');
const METRICS = fixture<MetricsRequest>('claude-code-otlp-metrics-usage.json');

// Protobuf written by hand, for what no encoder writes.
const varint = (value: number | bigint): number[] => {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? low | 0x80 : low);
  } while (v);
  return out;
};
const tag = (field: number, wire: number) => varint((field << 3) | wire);
const message = (field: number, ...parts: number[][]) => {
  const body = parts.flat();
  return [...tag(field, 2), ...varint(body.length), ...body];
};
const string = (field: number, value: string) => message(field, [...text(value)]);
/** An export request with one log record of these fields. */
const logsWith = (...record: number[][]) => new Uint8Array(message(1, message(2, message(2, ...record))));
const protobufLogs = (body: Uint8Array | number[]) => decodeExportRequest('logs', 'protobuf', body instanceof Uint8Array ? body : new Uint8Array(body));

/** Whatever the bytes, the reader answers with what it read or an OtlpInputError: nothing else escapes it. */
function readsOrRefuses(signal: Signal, encoding: 'json' | 'protobuf', body: Uint8Array): 'read' | 'refused' {
  for (const scope of [undefined, USAGE_SCOPE]) {
    try {
      decodeExportRequest(signal, encoding, body, scope);
    } catch (error) {
      if (!(error instanceof OtlpInputError)) throw error;
      expect(error.message).toMatch(/\(at byte \d+\)|at byte \d+\)$/);
      return 'refused';
    }
  }
  return 'read';
}

/** A deterministic pseudo-random sequence (mulberry32), so that a failure can be run again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('what the OTLP readers skip', () => {
  it('skip the fields a later OTLP adds, of every wire type, in every message they read', () => {
    // The official definitions with five more fields in every message: what a newer exporter may send.
    const descriptor = JSON.parse(JSON.stringify(OTLP_DESCRIPTOR)) as { nested: Record<string, unknown> };
    const extend = (node: Record<string, unknown>) => {
      if (node.fields) {
        Object.assign(node.fields as object, {
          laterVarint: { type: 'uint64', id: 900 },
          laterFixed64: { type: 'fixed64', id: 901 },
          laterBytes: { type: 'bytes', id: 902 },
          laterFixed32: { type: 'fixed32', id: 903 },
          laterMessage: { type: 'opentelemetry.proto.common.v1.KeyValue', id: 904 },
        });
      }
      for (const child of Object.values((node.nested as Record<string, Record<string, unknown>>) ?? {})) extend(child);
    };
    extend(descriptor);
    const later = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
    const withLaterFields = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(withLaterFields);
      if (typeof value !== 'object' || value === null) return value;
      const copy = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withLaterFields(v)]));
      return { ...copy, laterVarint: '18446744073709551615', laterFixed64: '1234567890123', laterBytes: 'AAECAw==', laterFixed32: 7, laterMessage: { key: 'k', value: { stringValue: 'v' } } };
    };
    for (const [signal, request, type] of [
      ['logs', LOGS, 'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'],
      ['metrics', METRICS, 'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'],
    ] as const) {
      const extended = later.lookupType(type);
      const bytes = extended.encode(extended.fromObject(withLaterFields(request) as Record<string, unknown>)).finish();
      expect(bytes.length).toBeGreaterThan(encodeExportRequest(signal, request).length * 2);
      expect(decodeExportRequest(signal, 'protobuf', bytes)).toEqual(decodeExportRequest(signal, 'protobuf', encodeExportRequest(signal, request)));
      // The same in OTLP/JSON: unknown keys with values of every kind.
      expect(decodeExportRequest(signal, 'json', text(JSON.stringify(withLaterFields(request))))).toEqual(decodeExportRequest(signal, 'json', text(JSON.stringify(request))));
    }
  });

  it('skip a known field number sent with another wire type, as protobuf has it', () => {
    // LogRecord.body (5) as a varint, KeyValue.key (1) as a fixed32: unknown fields, not misread.
    const body = logsWith(tag(5, 0), varint(3), message(6, tag(1, 5), [1, 2, 3, 4], string(1, 'session.id'), message(2, string(1, 'abc'))));
    expect(protobufLogs(body).records[0]).toMatchObject({ body: undefined, attributes: { keys: ['session.id'], values: ['abc'] } });
  });

  it('read fields in any order: a value before its key, a metric before its name', () => {
    const attribute = message(6, message(2, string(1, 'value first')), string(1, 'session.id'));
    expect(protobufLogs(logsWith(attribute)).records[0]!.attributes.get('session.id')).toBe('value first');
    expect(decodeExportRequest('logs', 'protobuf', logsWith(attribute), USAGE_SCOPE).records[0]!.attributes.get('session.id')).toBe('value first');
    const json = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ attributes: [{ value: { stringValue: 'value first' }, key: 'session.id' }] }] }] }] };
    expect(decodeExportRequest('logs', 'json', text(JSON.stringify(json)), USAGE_SCOPE).records[0]!.attributes.get('session.id')).toBe('value first');
    const metric = { sum: { dataPoints: [{ asInt: '5' }], aggregationTemporality: 1 }, name: 'claude_code.cost.usage' };
    const metrics = { resourceMetrics: [{ scopeMetrics: [{ metrics: [metric] }] }] };
    expect(decodeExportRequest('metrics', 'json', text(JSON.stringify(metrics)), USAGE_SCOPE).metrics[0]).toMatchObject({ name: 'claude_code.cost.usage', kind: 'sum', pointCount: 1, temporality: 1, points: [{ value: 5 }] });
  });

  it('read keys and strings with JSON escapes as their text', () => {
    const body = '{"resource\\u004cogs":[{"scopeLogs":[{"logRecords":[{"attributes":[{"key":"session\\u002eid","value":{"stringValue":"caf\\u00e9 \\ud83d\\ude00"}}]}]}]}]}';
    expect(decodeExportRequest('logs', 'json', text(body), USAGE_SCOPE).records[0]!.attributes.get('session.id')).toBe('café 😀');
  });

  it('read the first 256 attributes of a list, however many it has', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ key: `k${i}`, value: { intValue: String(i) } }));
    const point = { asDouble: 0.5, timeUnixNano: '1795860902000000000', attributes: [{ key: 'session.id', value: { stringValue: 's1' } }, ...many] };
    const request: MetricsRequest = {
      resourceMetrics: [{ resource: { attributes: many }, scopeMetrics: [{ metrics: [{ name: 'claude_code.cost.usage', sum: { aggregationTemporality: 1, dataPoints: [point, point] } }] }] }],
    };
    for (const [encoding, body] of [
      ['protobuf', encodeExportRequest('metrics', request)],
      ['json', text(JSON.stringify(request))],
    ] as const) {
      const [read] = decodeExportRequest('metrics', encoding, body).metrics;
      expect(read!.points!.map((p) => [p.resource.get('k255'), p.resource.get('k256'), p.attributes.get('session.id'), p.attributes.get('k254'), p.attributes.get('k255')])).toEqual([
        [255, undefined, 's1', 254, undefined],
        [255, undefined, 's1', 254, undefined],
      ]);
      expect(readUsage('metrics', encoding, body).sessions).toEqual([expect.objectContaining({ sessionId: 's1', entries: [expect.objectContaining({ cost_usd: 1 })] })]);
    }
  });

  it('skip a deeply nested value without exhausting the stack', () => {
    const deep = `{"x":${'['.repeat(200_000)}${']'.repeat(200_000)},"resourceLogs":[]}`;
    expect(decodeExportRequest('logs', 'json', text(deep))).toEqual({ records: [] });
  });
});

describe('what the OTLP readers refuse, and why', () => {
  it.each([
    ['a length past the end', [0x0a, 0x05, 0x01], 'a field is longer than the message that holds it'],
    ['a field longer than the message holding it', [...message(1, [...tag(2, 2), 50]), ...new Array(60).fill(0)], 'a field is longer than the message that holds it'],
    ['a varint of eleven bytes', [0x08, ...new Array(10).fill(0xff), 0x01], 'a varint longer than 10 bytes'],
    ['a varint cut short', [0x08, 0x80], 'a varint runs past the end'],
    ['field number 0', [0x00, 0x01], 'field number 0'],
    ['a group (wire type 3)', [0x0b], 'wire type 3'],
    ['wire type 7', [0x0f], 'wire type 7'],
    ['a fixed64 cut short', logsWith([...tag(1, 1), 1, 2, 3]), 'runs past'],
    ['a key that is not UTF-8', logsWith(message(6, message(1, [0xff, 0xfe]), message(2, string(1, 'v')))), 'a string is not UTF-8'],
  ])('protobuf: %s', (_, bytes, reason) => {
    const body = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    expect(() => protobufLogs(body)).toThrow(OtlpInputError);
    expect(() => protobufLogs(body)).toThrow('the body is not an OTLP logs export request in protobuf (');
    expect(() => protobufLogs(body)).toThrow(reason);
  });

  it.each([
    ['not JSON', 'nope', 'the body is not JSON'],
    ['a string that does not end', '{"resourceLogs', 'a string does not end'],
    ['an unknown escape', '{"a\\x":1}', 'an unknown escape'],
    ['a control character in a string', '{"a\u0001":1}', 'a control character in a string'],
    ['a number with a leading zero', '{"a":01}', "'1' where ',' or '}' was expected"],
    ['a number without digits', '{"a":-}', 'a malformed number'],
    ['a trailing comma', '{"resourceLogs":[],}', 'where a key was expected'],
    ['more after the request', '{} {}', 'more follows the value'],
    ['a list that is an object', '{"resourceLogs":[{"scopeLogs":{}}]}', '"scopeLogs" must be a list'],
    ['a key that is a number', '{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"attributes":[{"key":5}]}]}]}]}', '"attributes[].key" must be a string'],
    ['a string value that is a number', '{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":5}}]}]}]}', '"value.stringValue" must be a string'],
    ['a record that is a list', '{"resourceLogs":[{"scopeLogs":[{"logRecords":[[]]}]}]}', '"logRecords[]" must be an object'],
  ])('JSON: %s', (_, body, reason) => {
    expect(() => decodeExportRequest('logs', 'json', text(body))).toThrow(OtlpInputError);
    expect(() => decodeExportRequest('logs', 'json', text(body))).toThrow(reason);
  });

  it.each([
    ['logs', LOGS],
    ['metrics', METRICS],
  ] as const)('never fail otherwise, whatever the bytes: every cut and 3,000 random changes of %s exports', (signal, request) => {
    const next = random(35);
    for (const [encoding, valid] of [
      ['protobuf', encodeExportRequest(signal, request)],
      ['json', text(JSON.stringify(request))],
    ] as const) {
      expect(readsOrRefuses(signal, encoding, valid)).toBe('read');
      const outcomes = new Set<string>();
      for (let cut = 0; cut < valid.length; cut++) outcomes.add(readsOrRefuses(signal, encoding, valid.subarray(0, cut)));
      for (let i = 0; i < 3000; i++) {
        const changed = valid.slice();
        for (let n = 1 + Math.floor(next() * 4); n > 0; n--) changed[Math.floor(next() * changed.length)] = Math.floor(next() * 256);
        outcomes.add(readsOrRefuses(signal, encoding, changed));
      }
      expect(outcomes).toEqual(new Set(['read', 'refused']));
    }
  });
});
