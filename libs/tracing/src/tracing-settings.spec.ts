import { createMessageTracer } from './create-message-tracer.js';
import { NOOP_MESSAGE_TRACER } from './message-tracer.js';
import { tracingSettingsFromEnv, TracingConfigurationError } from './tracing-settings.js';

describe('tracing settings from the OpenTelemetry environment', () => {
  it('are off without an endpoint, with OTEL_SDK_DISABLED=true, or with an exporter other than otlp', () => {
    expect(tracingSettingsFromEnv({}, 'reviewer')).toEqual({ enabled: false, why: 'no OTEL_EXPORTER_OTLP_ENDPOINT' });
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingSettingsFromEnv({ ...endpoint, OTEL_SDK_DISABLED: 'true' }, 'reviewer')).toMatchObject({ enabled: false });
    expect(tracingSettingsFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }, 'reviewer')).toMatchObject({ enabled: false });
    expect(tracingSettingsFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: 'console' }, 'reviewer')).toMatchObject({ enabled: false });
    expect(tracingSettingsFromEnv({ ...endpoint, OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'console,otlp' }, 'reviewer')).toMatchObject({ enabled: true });
  });

  it('post to <endpoint>/v1/traces, or to the traces endpoint as given, as protobuf unless JSON is asked for', () => {
    expect(tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, 'gate')).toEqual({
      enabled: true,
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'warden-gate',
      sampleRatio: 1,
      batch: {},
    });
    expect(
      tracingSettingsFromEnv(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'my-gate' },
        'gate',
      ),
    ).toMatchObject({ url: 'https://b/otlp/traces', protocol: 'http/json', serviceName: 'my-gate' });
  });

  it('read the sampler and the batch processor settings', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(tracingSettingsFromEnv({ ...base, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, 'x')).toMatchObject({ sampleRatio: 0.25 });
    expect(tracingSettingsFromEnv({ ...base, OTEL_TRACES_SAMPLER: 'always_off' }, 'x')).toMatchObject({ sampleRatio: 0 });
    expect(tracingSettingsFromEnv({ ...base, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BSP_MAX_QUEUE_SIZE: '4096' }, 'x')).toMatchObject({ batch: { scheduledDelayMillis: 100, maxQueueSize: 4096 } });
  });

  it('refuse what Warden cannot honour, saying what it takes', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317' };
    expect(() => tracingSettingsFromEnv({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'x')).toThrow(new TracingConfigurationError('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: use http/protobuf or http/json (the collector\'s port 4318)'));
    expect(() => tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'x')).toThrow(TracingConfigurationError);
    expect(() => tracingSettingsFromEnv({ ...base, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }, 'x')).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => tracingSettingsFromEnv({ ...base, OTEL_TRACES_SAMPLER: 'jaeger_remote' }, 'x')).toThrow(/not supported/);
    expect(() => tracingSettingsFromEnv({ ...base, OTEL_BSP_SCHEDULE_DELAY: 'soon' }, 'x')).toThrow(/OTEL_BSP_SCHEDULE_DELAY/);
  });

  it('give the no-op tracer when off, which runs the work and nothing else', async () => {
    const tracer = await createMessageTracer({ service: 'reviewer', env: {} });
    expect(tracer).toBe(NOOP_MESSAGE_TRACER);
    expect(tracer.enabled).toBe(false);
    const message = { id: 'm', type: 'action.proposed', trace_id: 'm', session_id: 's', agent_id: 'a' };
    await expect(tracer.handle(message, { channel: 'action' }, async () => 42)).resolves.toBe(42);
    await expect(tracer.publish(message, { channel: 'action' }, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });

  it('give an OpenTelemetry tracer when an endpoint is set', async () => {
    const tracer = await createMessageTracer({ service: 'reviewer', env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } });
    try {
      expect(tracer.enabled).toBe(true);
    } finally {
      await tracer.shutdown();
    }
  });
});
