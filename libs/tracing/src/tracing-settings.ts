/** How spans leave the process: OTLP over HTTP, as protobuf (the OpenTelemetry default) or JSON. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type TracingSettings =
  | { enabled: false; /** Why not, for the start-up log. */ why: string }
  | {
      enabled: true;
      /** Where spans are POSTed: the traces endpoint itself, or `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`. */
      url: string;
      protocol: OtlpProtocol;
      serviceName: string;
      /** Share of traces recorded, 0 to 1, decided on the trace id (so every service keeps the same traces). */
      sampleRatio: number;
      /** The batch span processor's `OTEL_BSP_*` settings that are set. */
      batch: BatchSettings;
    };

export interface BatchSettings {
  scheduledDelayMillis?: number;
  exportTimeoutMillis?: number;
  maxQueueSize?: number;
  maxExportBatchSize?: number;
}

const BATCH_VARIABLES: Record<keyof BatchSettings, string> = {
  scheduledDelayMillis: 'OTEL_BSP_SCHEDULE_DELAY',
  exportTimeoutMillis: 'OTEL_BSP_EXPORT_TIMEOUT',
  maxQueueSize: 'OTEL_BSP_MAX_QUEUE_SIZE',
  maxExportBatchSize: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
};

export class TracingConfigurationError extends Error {}

const truthy = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/**
 * Tracing as the standard OpenTelemetry environment asks for it, for one service (or agent):
 *
 * - on when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and off when
 *   neither is, when `OTEL_SDK_DISABLED=true`, or when `OTEL_TRACES_EXPORTER` does not name `otlp`
 *   (`none`);
 * - `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf` (default) or
 *   `http/json`; `grpc` is refused (point Warden at the collector's HTTP port, 4318);
 * - `OTEL_SERVICE_NAME` [warden-<service>];
 * - `OTEL_TRACES_SAMPLER`: `always_on` (default), `always_off`, `traceidratio` with
 *   `OTEL_TRACES_SAMPLER_ARG` (0 to 1), and their `parentbased_` forms, which mean the same here (a
 *   span's parent is another process's, derived from the message, and the ratio is decided on the trace
 *   id, so each service keeps or drops the same traces).
 *
 * - `OTEL_BSP_SCHEDULE_DELAY` [5000 ms], `OTEL_BSP_EXPORT_TIMEOUT`, `OTEL_BSP_MAX_QUEUE_SIZE`,
 *   `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`: the batch span processor's.
 *
 * The exporter also reads `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_EXPORTER_OTLP_TIMEOUT` (and their
 * `_TRACES_` forms) from the process environment, as the OpenTelemetry SDK does.
 */
export function tracingSettingsFromEnv(env: NodeJS.ProcessEnv, service: string): TracingSettings {
  if (truthy(env.OTEL_SDK_DISABLED)) return { enabled: false, why: 'OTEL_SDK_DISABLED=true' };
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (exporters.length && !exporters.includes('otlp')) return { enabled: false, why: `OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER} (Warden exports over OTLP only)` };
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!tracesEndpoint && !endpoint) return { enabled: false, why: 'no OTEL_EXPORTER_OTLP_ENDPOINT' };
  const url = tracesEndpoint || `${endpoint!.replace(/\/+$/, '')}/v1/traces`;
  if (!/^https?:\/\/[^/]+/.test(url)) throw new TracingConfigurationError(`the OTLP endpoint must be an http(s) URL (got "${url}")`);
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new TracingConfigurationError(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: use http/protobuf or http/json (the collector's port 4318)`);
  }
  return { enabled: true, url, protocol, serviceName: env.OTEL_SERVICE_NAME?.trim() || `warden-${service}`, sampleRatio: sampleRatio(env), batch: batchSettings(env) };
}

function sampleRatio(env: NodeJS.ProcessEnv): number {
  const sampler = (env.OTEL_TRACES_SAMPLER ?? 'always_on').trim().toLowerCase().replace(/^parentbased_/, '');
  if (sampler === 'always_on') return 1;
  if (sampler === 'always_off') return 0;
  if (sampler === 'traceidratio') {
    const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    const ratio = arg ? Number(arg) : 1;
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new TracingConfigurationError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "${arg}")`);
    return ratio;
  }
  throw new TracingConfigurationError(`OTEL_TRACES_SAMPLER=${env.OTEL_TRACES_SAMPLER} is not supported: always_on, always_off or traceidratio`);
}

function batchSettings(env: NodeJS.ProcessEnv): BatchSettings {
  const batch: BatchSettings = {};
  for (const [key, variable] of Object.entries(BATCH_VARIABLES) as [keyof BatchSettings, string][]) {
    const text = env[variable]?.trim();
    if (!text) continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0) throw new TracingConfigurationError(`${variable} must be a positive whole number (got "${text}")`);
    batch[key] = value;
  }
  return batch;
}
