import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { ProtobufLogsSerializer, ProtobufMetricsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { createMessage, validateMessage } from '@warden/contracts';
import { readUsage, usageFromLogs as usageFromLogsExport, usageFromMetrics as usageFromMetricsExport, type UsageReading } from './agent-usage.js';
import { decodeExportRequest, encodeExportRequest, type LogsRequest, type MetricsRequest } from './otlp-request.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as T;
const asJson = (request: unknown) => new TextEncoder().encode(JSON.stringify(request));
/** The usage of an export as the receiver reads it, sent in OTLP/JSON. */
const usageFromLogs = (request: LogsRequest) => readUsage('logs', 'json', asJson(request));
const usageFromMetrics = (request: MetricsRequest) => readUsage('metrics', 'json', asJson(request));
const CLAUDE_SESSION = '00893aaf-19fa-41d2-8238-13269b9b3ca0';
const CODEX_SESSION = '019a8f3e-5b2c-7d41-9e0a-4c1f2b3d4e5f';

/** Every session's usage is a valid usage.reported payload. */
function expectValid(reading: UsageReading): void {
  for (const session of reading.sessions) {
    const message = createMessage('usage.reported', { agent_id: 'agent-1', session_id: session.sessionId, payload: { source: session.source, agent_kind: session.agentKind, entries: session.entries } });
    expect(validateMessage(message)).toMatchObject({ ok: true });
  }
}

describe("Claude Code's telemetry (code.claude.com/docs/en/monitoring-usage)", () => {
  it('reads the cost and tokens of each claude_code.api_request event, keyed by its request id', () => {
    const reading = usageFromLogs(fixture<LogsRequest>('claude-code-otlp-logs-api_request.json'));
    expect(reading).toEqual({
      items: 1,
      used: 1,
      rejected: { count: 0, reasons: [] },
      toolRuns: [],
      sessions: [
        {
          sessionId: CLAUDE_SESSION,
          agentKind: 'claude-code',
          source: 'telemetry_event',
          entries: [
            {
              key: 'r:req_011CV...',
              model: 'claude-sonnet-5',
              tokens: { prompt: 1834, completion: 212, cache_read: 40211, cache_write: 0 },
              cost_usd: 0.0123,
              at: '2026-11-28T10:15:02.000Z',
              query_source: 'repl_main_thread',
            },
          ],
        },
      ],
    });
    expectValid(reading);
  });

  it('reads the same from protobuf as from JSON', () => {
    const json = fixture<LogsRequest>('claude-code-otlp-logs-api_request.json');
    expect(readUsage('logs', 'protobuf', encodeExportRequest('logs', json))).toEqual(usageFromLogs(json));
    const metrics = fixture<MetricsRequest>('claude-code-otlp-metrics-usage.json');
    expect(readUsage('metrics', 'protobuf', encodeExportRequest('metrics', metrics))).toEqual(usageFromMetrics(metrics));
  });

  it('reads claude_code.cost.usage and claude_code.token.usage of one interval as one entry with the cost Claude Code reported', () => {
    const request = fixture<MetricsRequest>('claude-code-otlp-metrics-usage.json');
    const reading = usageFromMetrics(request);
    expect(reading.rejected).toEqual({ count: 0, reasons: [] });
    expect(reading.sessions).toEqual([
      {
        sessionId: CLAUDE_SESSION,
        agentKind: 'claude-code',
        source: 'telemetry_metric',
        entries: [{ key: expect.stringMatching(/^m:/), model: 'claude-sonnet-5', tokens: { prompt: 1834, completion: 0 }, cost_usd: 0.0123, at: '2026-11-28T10:15:02.000Z', query_source: 'main' }],
      },
    ]);
    expectValid(reading);
    // The same interval exported again is the same entry: the breaker counts it once.
    expect(usageFromMetrics(request).sessions[0]!.entries[0]!.key).toBe(reading.sessions[0]!.entries[0]!.key);
  });

  it('does not read cumulative sums, and says why', () => {
    const request = fixture<MetricsRequest>('claude-code-otlp-metrics-usage.json');
    for (const metric of request.resourceMetrics![0]!.scopeMetrics![0]!.metrics!) metric.sum!.aggregationTemporality = 2;
    const reading = usageFromMetrics(request);
    expect(reading.sessions).toEqual([]);
    expect(reading.rejected).toEqual({ count: 2, reasons: [expect.stringContaining('claude_code.token.usage is cumulative: Warden reads delta temporality'), expect.stringContaining('claude_code.cost.usage is cumulative')] });
  });

  it('rejects usage that names no session, and takes the rest', () => {
    const request = fixture<LogsRequest>('claude-code-otlp-logs-api_request.json');
    const record = request.resourceLogs![0]!.scopeLogs![0]!.logRecords![0]!;
    const orphan = { ...record, attributes: record.attributes!.filter((a) => a.key !== 'session.id' && a.key !== 'request_id') };
    request.resourceLogs![0]!.scopeLogs![0]!.logRecords!.push(orphan);
    const reading = usageFromLogs(request);
    expect(reading).toMatchObject({ items: 2, used: 1, rejected: { count: 1, reasons: ['model usage without session.id: it cannot be charged to a session'] } });
  });

  it("reads what OpenTelemetry's own JS SDK (Claude Code's) exports in protobuf", async () => {
    const resource = resourceFromAttributes({ 'service.name': 'claude-code', 'service.version': '2.1.300' });
    const logExporter = new InMemoryLogRecordExporter();
    const loggers = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: logExporter })] });
    loggers.getLogger('com.anthropic.claude_code.events').emit({
      severityNumber: SeverityNumber.INFO,
      body: 'claude_code.api_request',
      attributes: { 'event.name': 'api_request', 'event.timestamp': '2026-11-28T10:15:02.000Z', 'session.id': 'sdk-session', model: 'claude-opus-4-8', cost_usd: 0.25, input_tokens: 1000, output_tokens: 500, cache_read_tokens: 0, cache_creation_tokens: 20000, request_id: 'req_sdk' },
    });
    await loggers.forceFlush();
    expect(readUsage('logs', 'protobuf', ProtobufLogsSerializer.serializeRequest(logExporter.getFinishedLogRecords())!).sessions).toEqual([
      expect.objectContaining({ sessionId: 'sdk-session', entries: [expect.objectContaining({ key: 'r:req_sdk', cost_usd: 0.25, tokens: { prompt: 1000, completion: 500, cache_read: 0, cache_write: 20000 } })] }),
    ]);

    const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
    const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
    const meters = new MeterProvider({ resource, readers: [reader] });
    const meter = meters.getMeter('com.anthropic.claude_code');
    const base = { 'session.id': 'sdk-session', model: 'claude-opus-4-8', query_source: 'main' };
    meter.createCounter('claude_code.cost.usage', { unit: 'USD' }).add(0.25, base);
    const tokens = meter.createCounter('claude_code.token.usage', { unit: 'tokens' });
    tokens.add(1000, { ...base, type: 'input' });
    tokens.add(500, { ...base, type: 'output' });
    tokens.add(20000, { ...base, type: 'cacheCreation' });
    await reader.forceFlush();
    expect(readUsage('metrics', 'protobuf', ProtobufMetricsSerializer.serializeRequest(metricExporter.getMetrics()[0]!)!).sessions).toEqual([
      expect.objectContaining({ sessionId: 'sdk-session', source: 'telemetry_metric', entries: [expect.objectContaining({ cost_usd: 0.25, tokens: { prompt: 1000, completion: 500, cache_write: 20000 } })] }),
    ]);
    await meters.shutdown();
    await loggers.shutdown();
  });
});

describe("Codex's telemetry (openai/codex docs/config.md, Observability and telemetry)", () => {
  it('reads the tokens of each completed response (codex.sse_event), without a cost: Warden prices them', () => {
    const reading = usageFromLogs(fixture<LogsRequest>('codex-otlp-logs-sse_event.json'));
    expect(reading.sessions).toEqual([
      {
        sessionId: CODEX_SESSION,
        agentKind: 'codex',
        source: 'telemetry_event',
        entries: [{ key: expect.stringMatching(/^e:/), model: 'gpt-5.5', tokens: { prompt: 3700, completion: 612, cache_read: 20480 }, at: '2026-11-28T10:15:06.000Z' }],
      },
    ]);
    expectValid(reading);
  });

  it('leaves events that are not model usage alone', () => {
    expect(usageFromLogs(fixture<LogsRequest>('codex-otlp-logs-tool_result.json'))).toEqual({ sessions: [], toolRuns: [], items: 1, used: 0, rejected: { count: 0, reasons: [] } });
  });
});

describe("Claude Code's tool runs (claude_code.tool_result, code.claude.com/docs/en/monitoring-usage)", () => {
  it('reads each tool run of a session, keyed so that the same export sent again names the same runs', () => {
    const request = fixture<LogsRequest>('claude-code-otlp-logs-tool_result.json');
    const reading = usageFromLogs(request);
    expect(reading).toMatchObject({ sessions: [], items: 3, used: 0 });
    expect(reading.toolRuns).toEqual([
      {
        sessionId: CLAUDE_SESSION,
        agentKind: 'claude-code',
        runs: [
          { key: expect.stringMatching(/^t:/), tool: 'Bash', at: '2026-11-28T10:15:04.000Z' },
          { key: expect.stringMatching(/^t:/), tool: 'Read', at: '2026-11-28T10:15:05.000Z' },
          { key: expect.stringMatching(/^t:/), tool: 'Edit', at: '2026-11-28T10:15:06.000Z' },
        ],
      },
    ]);
    expect(new Set(reading.toolRuns[0]!.runs.map((r) => r.key)).size).toBe(3);
    expect(usageFromLogs(request).toolRuns).toEqual(reading.toolRuns);
    const message = createMessage('session.tools_observed', {
      agent_id: 'agent-1',
      session_id: CLAUDE_SESSION,
      payload: { source: 'telemetry_event', agent_kind: 'claude-code', tool_runs: reading.toolRuns[0]!.runs },
    });
    expect(validateMessage(message)).toMatchObject({ ok: true });
  });

  it('leaves out a run without a session id Warden can use', () => {
    const request = fixture<LogsRequest>('claude-code-otlp-logs-tool_result.json');
    for (const record of request.resourceLogs![0]!.scopeLogs![0]!.logRecords!) {
      for (const attribute of record.attributes!) if (attribute.key === 'session.id') attribute.value = { stringValue: 'not a token!' };
    }
    expect(usageFromLogs(request).toolRuns).toEqual([]);
  });
});

describe('what the receiver reads of an export', () => {
  it.each([
    ['logs', 'claude-code-otlp-logs-api_request.json'],
    ['metrics', 'claude-code-otlp-metrics-usage.json'],
    ['logs', 'codex-otlp-logs-sse_event.json'],
    ['logs', 'codex-otlp-logs-tool_result.json'],
    ['logs', 'claude-code-otlp-logs-tool_result.json'],
  ] as const)('takes the same usage from what it reads of a %s export (%s) as from the whole export, in both encodings', (signal, name) => {
    const request = fixture<LogsRequest & MetricsRequest>(name);
    const now = Date.parse('2026-11-29T00:00:00.000Z');
    for (const [encoding, body] of [
      ['json', asJson(request)],
      ['protobuf', encodeExportRequest(signal, request)],
    ] as const) {
      const whole = signal === 'logs' ? usageFromLogsExport(decodeExportRequest('logs', encoding, body), now) : usageFromMetricsExport(decodeExportRequest('metrics', encoding, body), now);
      expect(readUsage(signal, encoding, body, now)).toEqual(whole);
    }
  });
});
