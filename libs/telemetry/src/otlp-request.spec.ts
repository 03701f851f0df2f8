import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import protobuf from 'protobufjs';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';
import { decodeExportRequest, encodeExportResponse, encodingOf, OtlpInputError } from './otlp-request.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('OTLP/HTTP export requests', () => {
  it('decodes with the official proto definitions as vendored (regenerate with `nx run telemetry:otlp-descriptor`)', async () => {
    const tools = join(dirname(fileURLToPath(import.meta.url)), '..', 'tools');
    const { otlpDescriptorFromProtos } = (await import(pathToFileURL(join(tools, 'otlp-protos.mjs')).href)) as { otlpDescriptorFromProtos(dir: string): unknown };
    expect(JSON.parse(JSON.stringify(OTLP_DESCRIPTOR))).toEqual(otlpDescriptorFromProtos(join(tools, '..', 'proto')));
  });

  it('knows the encodings of OTLP/HTTP by their content type', () => {
    expect(encodingOf('application/json; charset=utf-8')).toBe('json');
    expect(encodingOf('application/x-protobuf')).toBe('protobuf');
    expect(encodingOf('text/plain')).toBeUndefined();
    expect(encodingOf(undefined)).toBeUndefined();
  });

  it.each([
    ['json', 'not json', 'the body is not JSON'],
    ['json', '[1, 2]', 'an OTLP logs export request is a JSON object with "resourceLogs"'],
    ['json', '{"resourceLogs": {"a": 1}}', '"resourceLogs" must be a list'],
    ['protobuf', '\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff', 'the body is not an OTLP logs export request in protobuf'],
  ] as const)('refuses a malformed %s body with the reason (%s)', (encoding, body, reason) => {
    expect(() => decodeExportRequest('logs', encoding, bytes(body))).toThrow(OtlpInputError);
    expect(() => decodeExportRequest('logs', encoding, bytes(body))).toThrow(reason);
  });

  it('answers as a collector does, with what it rejected as a partial success', () => {
    expect(encodeExportResponse('metrics', 'json')).toEqual({ contentType: 'application/json', body: '{}' });
    expect(JSON.parse(encodeExportResponse('logs', 'json', { count: 2, message: 'why' }).body as string)).toEqual({ partialSuccess: { rejectedLogRecords: '2', errorMessage: 'why' } });
    const { body } = encodeExportResponse('metrics', 'protobuf', { count: 3, message: 'cumulative' });
    const type = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as unknown as protobuf.INamespace).lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse');
    expect(type.toObject(type.decode(body as Uint8Array), { longs: Number })).toEqual({ partialSuccess: { rejectedDataPoints: 3, errorMessage: 'cumulative' } });
  });
});
