import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { decodeJsonTraces, decodeProtobufTraces, OtlpReceiver } from './otlp-receiver.js';

/** Two finished spans, a parent and its child, made by OpenTelemetry's own SDK. */
async function spans(): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ resource: resourceFromAttributes({ 'service.name': 'probe' }), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('probe');
  const parent = tracer.startSpan('parent', { kind: SpanKind.PRODUCER });
  const child = tracer.startSpan(
    'child',
    { kind: SpanKind.CONSUMER, attributes: { text: 'a', flag: true, count: 3, ratio: 0.5, list: ['x', 'y'] }, links: [{ context: { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), traceFlags: 1 } }] },
    trace.setSpan(ROOT_CONTEXT, parent),
  );
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'broken' });
  child.end();
  parent.end();
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

describe('the OTLP receiver', () => {
  it("decodes what OpenTelemetry's own serializers encode, protobuf and JSON alike", async () => {
    const made = await spans();
    const fromProtobuf = decodeProtobufTraces(Buffer.from(ProtobufTraceSerializer.serializeRequest(made)!));
    const fromJson = decodeJsonTraces(JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(made)!).toString('utf8')));
    expect(fromProtobuf).toEqual(fromJson);
    const child = fromProtobuf.find((s) => s.name === 'child')!;
    const parent = fromProtobuf.find((s) => s.name === 'parent')!;
    const original = made.find((s) => s.name === 'child')!;
    expect(child).toMatchObject({
      traceId: original.spanContext().traceId,
      spanId: original.spanContext().spanId,
      parentSpanId: parent.spanId,
      kind: 5,
      attributes: { text: 'a', flag: true, count: 3n, ratio: 0.5, list: ['x', 'y'] },
      links: [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) }],
      status: { code: 2, message: 'broken' },
      resource: { 'service.name': 'probe' },
    });
    expect(parent).toMatchObject({ parentSpanId: '', kind: 4 });
    expect(child.endTimeUnixNano).toBeGreaterThanOrEqual(child.startTimeUnixNano);
  });

  it('answers POST /v1/traces as a collector does, and refuses anything else', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const made = await spans();
      const url = `${receiver.endpoint}/v1/traces`;
      const protobuf = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: Buffer.from(ProtobufTraceSerializer.serializeRequest(made)!) });
      const json = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(JsonTraceSerializer.serializeRequest(made)!) });
      expect([protobuf.status, json.status, await json.text()]).toEqual([200, 200, '{}']);
      expect(receiver.spans).toHaveLength(4);
      expect(receiver.trace(made[0]!.spanContext().traceId)).toHaveLength(4);
      expect((await fetch(`${receiver.endpoint}/v1/metrics`, { method: 'POST', body: '{}' })).status).toBe(400);
      expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(400);
    } finally {
      await receiver.stop();
    }
  });
});
