import { NOOP_MESSAGE_TRACER, type MessageTracer } from './message-tracer.js';
import { tracingSettingsFromEnv } from './tracing-settings.js';

export interface MessageTracerOptions {
  /** The Warden service (`reviewer`, `gate`, ...) or `agent`: the default service name and the handling spans' name. */
  service: string;
  /** This replica or agent process (`service.instance.id`). */
  instance?: string;
  /** Default: the process environment. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The message tracer the environment asks for (see tracingSettingsFromEnv): the OpenTelemetry SDK with
 * an OTLP exporter when an endpoint is set, loaded only then; otherwise NOOP_MESSAGE_TRACER, which
 * loads nothing and only runs the work. Throws TracingConfigurationError for settings it cannot honour.
 */
export async function createMessageTracer(options: MessageTracerOptions): Promise<MessageTracer> {
  const settings = tracingSettingsFromEnv(options.env ?? process.env, options.service);
  if (!settings.enabled) return NOOP_MESSAGE_TRACER;
  const { createOtelMessageTracer } = await import('./otel-message-tracer.js');
  return createOtelMessageTracer({ settings, service: options.service, ...(options.instance ? { instance: options.instance } : {}) });
}
