import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { encodeExportRequest, type LogsRequest, type MetricsRequest } from '@warden/telemetry';
import { BusRecorder, TestNatsServer } from '@warden/testing';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'libs', 'telemetry', 'test', 'fixtures');
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8')) as T;
const MAX_BODY = 64 * 1024;

/** An export in Claude Code's shape (its api_request event, code.claude.com/docs/en/monitoring-usage) for one session. */
function apiRequests(sessionId: string, requestIds: string[]): LogsRequest {
  const request = fixture<LogsRequest>('claude-code-otlp-logs-api_request.json');
  const template = request.resourceLogs![0]!.scopeLogs![0]!.logRecords![0]!;
  request.resourceLogs![0]!.scopeLogs![0]!.logRecords = requestIds.map((id) => ({
    ...template,
    attributes: template.attributes!.map((a) => (a.key === 'session.id' ? { ...a, value: { stringValue: sessionId } } : a.key === 'request_id' ? { ...a, value: { stringValue: id } } : a)),
  }));
  return request;
}

/**
 * The gateway's OTLP/HTTP receiver against nats-server: what it takes (JSON, protobuf, gzip), what it
 * refuses and why (no valid token 401, a body it cannot read 4xx, a session of another agent 403), and
 * that nothing is recorded for a refused export.
 */
describe("the gateway's telemetry receiver", () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let recorder: BusRecorder;
  let gateway: ServiceProcess;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2, agents: ['agent-a', 'agent-b'] });
    gateway = await ServiceProcess.start({ app: 'gateway', nats: nats.service, partitions: 2, env: { LOG_LEVEL: 'warn', GATEWAY_OTLP_MAX_BODY_BYTES: String(MAX_BODY) }, readyTimeoutMs: 60_000 });
    bus = await BusConnection.open(nats.service);
    recorder = await BusRecorder.start(bus.nc, 'warden.usage.>');
  }, 120_000);

  afterAll(async () => {
    recorder?.stop();
    await bus?.close();
    await gateway?.stop();
    await nats?.stop();
  }, 60_000);

  const token = (agent: string) => `Bearer ${agent}.${nats.agent(agent).password}`;
  let counter = 0;
  const session = (name: string) => `${name}-${++counter}-${Date.now().toString(36)}`;

  async function post(path: string, body: string | Uint8Array, headers: Record<string, string>): Promise<{ status: number; type: string; text: string; body: Buffer }> {
    const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers, body });
    const raw = Buffer.from(await response.arrayBuffer());
    return { status: response.status, type: response.headers.get('content-type') ?? '', text: raw.toString('utf8'), body: raw };
  }
  const json = (request: unknown, authorization?: string) => post('/v1/logs', JSON.stringify(request), { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) });
  const usageOf = (sessionId: string) => recorder.messages.filter((m) => m.body.session_id === sessionId);

  /** Everything published before a later accepted export has reached the recorder once that export's usage has. */
  async function settle(): Promise<void> {
    const marker = session('marker');
    expect((await json(apiRequests(marker, ['req_marker']), token('agent-a'))).status).toBe(200);
    await recorder.waitFor((m) => m.body.session_id === marker);
  }

  it('records the usage of an OTLP/JSON export as usage.reported of its session, over the agent\'s own connection', async () => {
    const id = session('json');
    const reply = await json(apiRequests(id, ['req_1', 'req_2']), token('agent-a'));
    expect(reply).toMatchObject({ status: 200, type: 'application/json', text: '{}' });
    const message = await recorder.waitFor((m) => m.body.session_id === id);
    expect(message.subject).toMatch(new RegExp(`^warden\\.usage\\.[01]\\.agent-a\\.${id}$`));
    expect(message.body).toMatchObject({
      type: 'usage.reported',
      agent_id: 'agent-a',
      payload: { source: 'telemetry_event', agent_kind: 'claude-code', entries: [{ key: 'r:req_1', cost_usd: 0.0123 }, { key: 'r:req_2' }] },
    });
  });

  it('takes protobuf and gzip, and answers in the encoding it was sent', async () => {
    const id = session('protobuf');
    const body = gzipSync(encodeExportRequest('logs', apiRequests(id, ['req_p'])));
    const reply = await post('/v1/logs', body, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip', authorization: token('agent-a') });
    expect(reply).toMatchObject({ status: 200, type: 'application/x-protobuf' });
    expect(reply.body.length).toBe(0);
    await recorder.waitFor((m) => m.body.session_id === id && (m.body.payload as { entries: { key: string }[] }).entries[0]!.key === 'r:req_p');
    const metrics = fixture<MetricsRequest>('claude-code-otlp-metrics-usage.json');
    expect((await post('/v1/metrics', encodeExportRequest('metrics', metrics), { 'content-type': 'application/x-protobuf', authorization: token('agent-a') })).status).toBe(200);
    await recorder.waitFor((m) => (m.body.payload as { source?: string }).source === 'telemetry_metric');
  });

  it('answers usage it cannot charge as a partial success, with why', async () => {
    const metrics = fixture<MetricsRequest>('claude-code-otlp-metrics-usage.json');
    for (const metric of metrics.resourceMetrics![0]!.scopeMetrics![0]!.metrics!) metric.sum!.aggregationTemporality = 2;
    const reply = await post('/v1/metrics', JSON.stringify(metrics), { 'content-type': 'application/json', authorization: token('agent-a') });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ partialSuccess: { rejectedDataPoints: '2', errorMessage: expect.stringContaining('cumulative: Warden reads delta temporality') } });
  });

  it.each([
    ['no token', undefined, 'missing Authorization header: send "Authorization: Bearer <agent token>" (warden hook install writes it)'],
    ['a malformed token', 'Bearer agent-a', 'the agent token is malformed: expected <agent id>.<secret>'],
    ['a wrong secret', 'Bearer agent-a.not-the-password', 'NATS refused the token of agent agent-a: the token is not valid'],
  ])('refuses an export with %s: 401 with the reason, nothing recorded', async (_name, authorization, reason) => {
    const id = session('unauthorized');
    const reply = await json(apiRequests(id, ['req_x']), authorization);
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.text)).toMatchObject({ code: 401, message: reason });
    await settle();
    expect(usageOf(id)).toEqual([]);
  });

  it.each([
    ['a body that is not JSON', (authorization: string) => post('/v1/logs', '{"resourceLogs": [', { 'content-type': 'application/json', authorization }), 400, 'not an OTLP logs export: the body is not JSON'],
    ['a body that is not protobuf', (authorization: string) => post('/v1/logs', Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]), { 'content-type': 'application/x-protobuf', authorization }), 400, 'not an OTLP logs export: the body is not an OTLP logs export request in protobuf'],
    ['a body gzip cannot read', (authorization: string) => post('/v1/logs', 'not gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization }), 400, 'the body is not gzip-compressed as Content-Encoding says'],
    ['another content type', (authorization: string) => post('/v1/metrics', 'a=b', { 'content-type': 'application/x-www-form-urlencoded', authorization }), 415, 'is not OTLP/HTTP: send application/x-protobuf or application/json'],
    ['an oversized body', (authorization: string) => post('/v1/logs', JSON.stringify({ resourceLogs: [], padding: 'x'.repeat(MAX_BODY) }), { 'content-type': 'application/json', authorization }), 413, `the export is larger than ${MAX_BODY} bytes`],
    ['a body oversized once decompressed', (authorization: string) => post('/v1/logs', gzipSync(JSON.stringify({ resourceLogs: [], padding: 'x'.repeat(4 * MAX_BODY) })), { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization }), 413, 'once decompressed'],
  ])('refuses %s with its status and the reason, nothing recorded', async (_name, send, status, reason) => {
    const before = recorder.messages.length;
    const reply = await send(token('agent-a'));
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.text).message).toContain(reason);
    await settle();
    expect(recorder.messages.slice(before).filter((m) => !String(m.body.session_id).startsWith('marker'))).toEqual([]);
  });

  it('refuses usage of a session that belongs to another agent with 403, nothing recorded', async () => {
    const id = session('owned');
    expect((await json(apiRequests(id, ['req_a']), token('agent-a'))).status).toBe(200);
    await recorder.waitFor((m) => m.body.session_id === id);
    // One export naming agent-b's own session and agent-a's: none of it is recorded.
    const own = session('own-b');
    const mixed = apiRequests(own, ['req_b1']);
    mixed.resourceLogs!.push(...apiRequests(id, ['req_b2']).resourceLogs!);
    const reply = await json(mixed, token('agent-b'));
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.text).message).toBe(`session ${id} belongs to another agent; agent agent-b's token may not report for it`);
    await settle();
    expect(usageOf(id).map((m) => m.body.agent_id)).toEqual(['agent-a']);
    expect(usageOf(own)).toEqual([]);
  });

  it('counts its exports in /metrics', async () => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(text).toMatch(/warden_gateway_otlp_exports_total\{[^}]*signal="logs"[^}]*encoding="json"[^}]*outcome="accepted"[^}]*\} [1-9]/);
    expect(text).toMatch(/warden_gateway_otlp_exports_total\{[^}]*outcome="unauthorized"[^}]*\} [1-9]/);
    expect(text).toMatch(/warden_gateway_usage_entries_total\{[^}]*agent_kind="claude-code"[^}]*source="telemetry_event"[^}]*\} [1-9]/);
  });
});
