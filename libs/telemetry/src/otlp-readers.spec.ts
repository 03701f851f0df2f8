import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { USAGE_SCOPE } from './agent-usage.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';
import { Attributes, nanosOf, type AttributeValue, type LogsExport, type MetricRead, type MetricsExport } from './otlp-export.js';
import { decodeExportRequest, encodeExportRequest, type AnyValue, type KeyValue, type LogsRequest, type MetricsRequest, type Signal } from './otlp-request.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as T;
const asJson = (request: unknown) => new TextEncoder().encode(JSON.stringify(request));

const str = (key: string, value: string): KeyValue => ({ key, value: { stringValue: value } });
const any = (key: string, value: AnyValue): KeyValue => ({ key, value });

/** Every kind of value an attribute may have, and the fields Warden does not read beside the ones it does. */
const VALUES: KeyValue[] = [
  str('session.id', 'sess-1'),
  str('empty', ''),
  str('text', 'naïve ✓ 😀 "quoted" \\ back\nslash'),
  any('count', { intValue: '1834' }),
  any('negative', { intValue: '-42' }),
  any('zero', { intValue: '0' }),
  any('cost', { doubleValue: 0.0123 }),
  any('whole', { doubleValue: 3 }),
  any('flag', { boolValue: true }),
  any('off', { boolValue: false }),
  any('list', { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '2' }] } }),
  any('map', { kvlistValue: { values: [str('inner', 'x')] } }),
  any('raw', { bytesValue: 'AAEC' }),
  { key: 'no value' },
  any('unset', {}),
  str('model', 'claude-sonnet-5'),
];

const RICH_LOGS: LogsRequest = {
  resourceLogs: [
    {
      resource: { attributes: [str('service.name', 'claude-code'), any('host.cores', { intValue: '8' }), any('tags', { arrayValue: { values: [] } })] },
      scopeLogs: [
        {
          scope: { name: 'com.anthropic.claude_code.events', version: '2.1.300' },
          logRecords: [
            { timeUnixNano: '1795860902000000000', observedTimeUnixNano: '1795860902000000001', body: { stringValue: 'claude_code.api_request' }, attributes: VALUES },
            { eventName: 'codex.sse_event', body: { kvlistValue: { values: [str('k', 'v')] } }, attributes: [str('event.name', 'x')] },
            {},
          ],
        },
        { scope: { name: 'empty' }, logRecords: [] },
      ],
    },
    { resource: {}, scopeLogs: [{ logRecords: [{ body: { intValue: '7' }, attributes: [str('a', 'b')] }] }] },
  ],
};

const RICH_METRICS: MetricsRequest = {
  resourceMetrics: [
    {
      resource: { attributes: [str('service.name', 'claude-code')] },
      scopeMetrics: [
        {
          scope: { name: 'com.anthropic.claude_code' },
          metrics: [
            {
              name: 'claude_code.token.usage',
              unit: 'tokens',
              sum: {
                aggregationTemporality: 1,
                isMonotonic: true,
                dataPoints: [
                  { asInt: '1834', startTimeUnixNano: '1795860842000000000', timeUnixNano: '1795860902000000000', attributes: [str('type', 'input'), ...VALUES] },
                  { asDouble: 0.5, timeUnixNano: '1795860902000000000', attributes: [str('type', 'output')] },
                  { attributes: [] },
                ],
              },
            },
            { name: 'claude_code.cost.usage', unit: 'USD', sum: { aggregationTemporality: 2, dataPoints: [{ asDouble: 0.25 }] } },
            { name: 'claude_code.session.count', gauge: { dataPoints: [{ asInt: '1' }, { asInt: '2' }] } },
            { name: 'claude_code.lines_of_code.count', histogram: { dataPoints: [{}] } },
          ],
        },
      ],
    },
  ],
};

function attributes(...pairs: [string, AttributeValue][]): Attributes {
  const into = new Attributes();
  for (const [key, value] of pairs) into.add(key, value);
  return into;
}

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as unknown as protobuf.INamespace);
const REQUEST_TYPES = { logs: 'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest', metrics: 'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest' };
type Message = Record<string, unknown>;

/** What Warden should read of a message protobuf.js decoded with the official definitions: the reference the readers are held to. */
function referenceValue(value: Message | undefined): AttributeValue | undefined {
  if (!value) return undefined;
  // 64-bit integers come as decimal strings (longs: String); Warden reads an int as a number.
  if (Object.hasOwn(value, 'intValue')) return Number(value.intValue);
  for (const field of ['stringValue', 'doubleValue', 'boolValue'] as const) if (Object.hasOwn(value, field)) return value[field] as AttributeValue;
  return null;
}
function referenceAttributes(list: Message[] | undefined, into = new Attributes()): Attributes {
  for (const kv of list ?? []) if (Object.hasOwn(kv, 'value')) into.add(kv.key as string, referenceValue(kv.value as Message)!);
  return into;
}
const nanosText = (value: unknown) => (value === undefined ? undefined : String(value));
const decoded = (signal: Signal, bytes: Uint8Array) => {
  const type = root.lookupType(REQUEST_TYPES[signal]);
  return type.toObject(type.decode(bytes), { longs: String, defaults: false });
};

function referenceLogs(bytes: Uint8Array): LogsExport {
  const message = decoded('logs', bytes) as { resourceLogs?: Message[] };
  const records: LogsExport['records'] = [];
  for (const rl of message.resourceLogs ?? []) {
    const resource = referenceAttributes((rl.resource as Message | undefined)?.attributes as Message[]);
    for (const sl of (rl.scopeLogs as Message[]) ?? []) {
      for (const r of (sl.logRecords as Message[]) ?? []) {
        records.push({
          resource,
          attributes: referenceAttributes(r.attributes as Message[]),
          eventName: Object.hasOwn(r, 'eventName') ? (r.eventName as string) : '',
          body: Object.hasOwn(r, 'body') ? referenceValue(r.body as Message) : undefined,
          timeUnixNano: Object.hasOwn(r, 'timeUnixNano') ? nanosText(r.timeUnixNano) : undefined,
          observedTimeUnixNano: Object.hasOwn(r, 'observedTimeUnixNano') ? nanosText(r.observedTimeUnixNano) : undefined,
        });
      }
    }
  }
  return { records };
}

function referenceMetrics(bytes: Uint8Array): MetricsExport {
  const message = decoded('metrics', bytes) as { resourceMetrics?: Message[] };
  const metrics: MetricRead[] = [];
  for (const rm of message.resourceMetrics ?? []) {
    const resource = referenceAttributes((rm.resource as Message | undefined)?.attributes as Message[]);
    for (const sm of (rm.scopeMetrics as Message[]) ?? []) {
      for (const m of (sm.metrics as Message[]) ?? []) {
        const kind = Object.hasOwn(m, 'sum') ? 'sum' : Object.hasOwn(m, 'gauge') ? 'gauge' : ['histogram', 'exponentialHistogram', 'summary'].some((k) => Object.hasOwn(m, k)) ? 'other' : undefined;
        const data = (kind === 'sum' ? m.sum : kind === 'gauge' ? m.gauge : undefined) as Message | undefined;
        const points = ((data?.dataPoints as Message[]) ?? []).map((p) => ({
          resource,
          attributes: referenceAttributes(p.attributes as Message[]),
          value: Object.hasOwn(p, 'asDouble') ? (p.asDouble as number) : Object.hasOwn(p, 'asInt') ? Number(p.asInt) : 0,
          startTimeUnixNano: Object.hasOwn(p, 'startTimeUnixNano') ? nanosText(p.startTimeUnixNano) : undefined,
          timeUnixNano: Object.hasOwn(p, 'timeUnixNano') ? nanosText(p.timeUnixNano) : undefined,
        }));
        metrics.push({ name: (m.name as string) ?? '', kind, pointCount: points.length, temporality: kind === 'sum' ? ((data!.aggregationTemporality as number) ?? 0) : 0, points: data ? points : undefined });
      }
    }
  }
  return { metrics };
}

const REQUESTS: [string, Signal, LogsRequest | MetricsRequest][] = [
  ['every kind of value (logs)', 'logs', RICH_LOGS],
  ['every kind of metric', 'metrics', RICH_METRICS],
  ["Claude Code's api_request event", 'logs', fixture('claude-code-otlp-logs-api_request.json')],
  ["Claude Code's usage metrics", 'metrics', fixture('claude-code-otlp-metrics-usage.json')],
  ["Codex's sse_event", 'logs', fixture('codex-otlp-logs-sse_event.json')],
  ["Codex's tool_result", 'logs', fixture('codex-otlp-logs-tool_result.json')],
];

describe("Warden's OTLP readers", () => {
  it.each(REQUESTS)('read %s from protobuf as protobuf.js decodes it with the official definitions, and the same from OTLP/JSON', (_, signal, request) => {
    const bytes = encodeExportRequest(signal, request);
    const reference = signal === 'logs' ? referenceLogs(bytes) : referenceMetrics(bytes);
    expect(decodeExportRequest(signal, 'protobuf', bytes)).toEqual(reference);
    expect(decodeExportRequest(signal, 'json', asJson(request))).toEqual(reference);
    // Written with whitespace (as Go's protojson and pretty printers write it), read field by field.
    expect(decodeExportRequest(signal, 'json', new TextEncoder().encode(JSON.stringify(request, null, 2)))).toEqual(reference);
    expect(decodeExportRequest(signal, 'json', new TextEncoder().encode(JSON.stringify(request, null, 2)), USAGE_SCOPE)).toEqual(decodeExportRequest(signal, 'json', asJson(request), USAGE_SCOPE));
  });

  it('read a value sent as null as a value of no kind, written compactly or not', () => {
    const request = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ attributes: [{ key: 'model', value: { stringValue: null } }] }] }] }] };
    for (const body of [JSON.stringify(request), JSON.stringify(request, null, 1)]) {
      expect(decodeExportRequest('logs', 'json', new TextEncoder().encode(body)).records[0]!.attributes).toEqual(attributes(['model', null]));
    }
  });

  it('read only the attributes and metrics a scope asks for', () => {
    const logs = decodeExportRequest('logs', 'protobuf', encodeExportRequest('logs', RICH_LOGS), USAGE_SCOPE);
    const [first] = logs.records;
    expect(first!.attributes).toEqual(attributes(['session.id', 'sess-1'], ['model', 'claude-sonnet-5']));
    expect(first!.resource).toEqual(attributes(['service.name', 'claude-code']));
    expect(decodeExportRequest('logs', 'json', asJson(RICH_LOGS), USAGE_SCOPE)).toEqual(logs);
    const metrics = decodeExportRequest('metrics', 'protobuf', encodeExportRequest('metrics', RICH_METRICS), USAGE_SCOPE);
    expect(metrics.metrics.map((m) => [m.name, m.kind, m.pointCount, m.points?.length])).toEqual([
      ['claude_code.token.usage', 'sum', 3, 3],
      ['claude_code.cost.usage', 'sum', 1, 1],
      ['claude_code.session.count', 'gauge', 2, undefined],
      ['claude_code.lines_of_code.count', 'other', 0, undefined],
    ]);
    expect(decodeExportRequest('metrics', 'json', asJson(RICH_METRICS), USAGE_SCOPE)).toEqual(metrics);
  });

  it('write times in nanoseconds exactly, beyond the 2^53 of a number', () => {
    for (const nanos of [0n, 1n, 2n ** 53n - 1n, 2n ** 53n + 1n, 1795860902123456789n, 2n ** 64n - 1n, 0x200000_00000000n]) {
      expect(nanosOf(Number(nanos >> 32n), Number(nanos & 0xffffffffn))).toBe(nanos.toString());
    }
    // A record whose time_unix_nano (fixed64) is 1795860902123456789, which a number cannot hold.
    const record = [(1 << 3) | 1, ...new Uint8Array(new BigUint64Array([1795860902123456789n]).buffer)];
    const scopeLogs = [(2 << 3) | 2, record.length, ...record];
    const resourceLogs = [(2 << 3) | 2, scopeLogs.length, ...scopeLogs];
    const body = new Uint8Array([(1 << 3) | 2, resourceLogs.length, ...resourceLogs]);
    expect(decodeExportRequest('logs', 'protobuf', body).records[0]!.timeUnixNano).toBe('1795860902123456789');
  });
});
