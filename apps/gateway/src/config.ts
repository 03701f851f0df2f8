import { natsSettingsFromEnv, type NatsSettings } from '@warden/messaging';
import { booleanFromEnv, ConfigurationError, integerFromEnv } from '@warden/service-bootstrap';

/** The gateway's HTTP port when HTTP_PORT is not set (the services use 3101-3107). */
export const GATEWAY_PORT = 3108;

/**
 * The agent gateway's configuration, defaults in brackets:
 *
 * - `NATS_URL` [nats://127.0.0.1:4222], `NATS_USER`, `NATS_PASSWORD`: the gateway's own (service)
 *   connection, for the sessions' owners and hook states only. It publishes nothing for agents with it:
 *   every agent's messages go through a connection made with that agent's own token.
 * - `HTTP_HOST` [127.0.0.1], `HTTP_PORT` [3108], `LOG_LEVEL` [info].
 * - `GATEWAY_DEADLINE_MS` [45000]: how long one hook call may take, proposal to answer (below Claude
 *   Code's hook timeout of 60 s that `warden hook install` writes); then Warden fails closed.
 * - `GATEWAY_CONTROL_READ_MS` [1500]: how long the first call of a session on this replica reads the
 *   control messages stored for it.
 * - `GATEWAY_AGENT_IDLE_MS` [900000]: an agent connection unused this long is closed.
 * - `GATEWAY_MAX_BODY_BYTES` [1048576]: larger hook payloads are refused with 413.
 * - `GATEWAY_TRUST_ENTRYPOINT_HEADER` [true]: read `X-Claude-Code-Entrypoint` to tell interactive sessions from headless ones.
 * - `GATEWAY_OTLP_MAX_BODY_BYTES` [4194304]: larger telemetry exports (compressed or once decompressed) are refused with 413.
 */
export interface GatewayConfig {
  nats: NatsSettings;
  http: { host: string; port: number };
  logLevel: string;
  deadlineMs: number;
  controlReadMs: number;
  agentIdleMs: number;
  maxBodyBytes: number;
  trustEntrypointHeader: boolean;
  otlpMaxBodyBytes: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigurationError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  return {
    nats: natsSettingsFromEnv(env, 'warden-gateway'),
    http: { host: env.HTTP_HOST || '127.0.0.1', port: integerFromEnv(env, 'HTTP_PORT', GATEWAY_PORT) },
    logLevel,
    deadlineMs: integerFromEnv(env, 'GATEWAY_DEADLINE_MS', 45_000, 1),
    controlReadMs: integerFromEnv(env, 'GATEWAY_CONTROL_READ_MS', 1_500, 1),
    agentIdleMs: integerFromEnv(env, 'GATEWAY_AGENT_IDLE_MS', 900_000, 1_000),
    maxBodyBytes: integerFromEnv(env, 'GATEWAY_MAX_BODY_BYTES', 1024 * 1024, 1024),
    trustEntrypointHeader: booleanFromEnv(env, 'GATEWAY_TRUST_ENTRYPOINT_HEADER', true),
    otlpMaxBodyBytes: integerFromEnv(env, 'GATEWAY_OTLP_MAX_BODY_BYTES', 4 * 1024 * 1024, 1024),
  };
}
