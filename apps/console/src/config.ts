import { natsSettingsFromEnv, TOPOLOGY_DEFAULTS, type NatsSettings } from '@warden/messaging';
import { booleanFromEnv, ConfigurationError, integerFromEnv } from '@warden/service-bootstrap';

/**
 * The console's configuration, read from the environment (defaults in brackets):
 *
 * - `HTTP_HOST` [127.0.0.1], `HTTP_PORT` [3109]: the page, its API and live stream, `/metrics`, `/health/*`.
 * - `NATS_URL` [nats://127.0.0.1:4222], `NATS_USER`, `NATS_PASSWORD`: a service user (the console reads
 *   every stream of the suite, the breaker and ladder KV buckets and the operator store).
 * - `LOG_LEVEL` [info].
 * - `WARDEN_PARTITIONS` [8]: the suite's partitions (a message in the wrong one is not shown, as the
 *   services refuse it).
 * - `CONSOLE_GATE_URL` [http://127.0.0.1:3105]: the gate's operator API, which the console calls on
 *   behalf of the logged-in operator (Approve, Rewrite, Reject, Stop, Resume).
 * - `CONSOLE_HISTORY_HOURS` [24]: how far back the console reads the streams when it starts.
 * - `CONSOLE_MAX_SESSIONS` [20000]: sessions kept in memory; the least recently active ended ones go first.
 * - `CONSOLE_LIVE_INTERVAL_MS` [250]: how often changes are pushed to open pages (batched).
 * - `CONSOLE_COOKIE_SECURE` [auto]: mark the login cookie Secure: `true`, `false`, or `auto` (when the
 *   request came over HTTPS, as seen by `X-Forwarded-Proto` from a proxy you trust or the socket).
 */
export interface ConsoleConfig {
  http: { host: string; port: number };
  nats: NatsSettings;
  partitions: number;
  logLevel: string;
  gateUrl: string;
  historyHours: number;
  maxSessions: number;
  liveIntervalMs: number;
  cookieSecure: 'auto' | boolean;
}

export const CONSOLE_PORT = 3109;

export function loadConsoleConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  const gateUrl = (env.CONSOLE_GATE_URL || 'http://127.0.0.1:3105').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(gateUrl)) throw new ConfigurationError(`CONSOLE_GATE_URL must be http(s)://host:port (got "${gateUrl}")`);
  const secure = env.CONSOLE_COOKIE_SECURE?.trim();
  return {
    http: { host: env.HTTP_HOST || '127.0.0.1', port: integerFromEnv(env, 'HTTP_PORT', CONSOLE_PORT) },
    nats: natsSettingsFromEnv(env, 'warden-console'),
    partitions: integerFromEnv(env, 'WARDEN_PARTITIONS', TOPOLOGY_DEFAULTS.partitions, 1),
    logLevel: env.LOG_LEVEL || 'info',
    gateUrl,
    historyHours: integerFromEnv(env, 'CONSOLE_HISTORY_HOURS', 24, 0),
    maxSessions: integerFromEnv(env, 'CONSOLE_MAX_SESSIONS', 20_000, 10),
    liveIntervalMs: integerFromEnv(env, 'CONSOLE_LIVE_INTERVAL_MS', 250, 10),
    cookieSecure: !secure || secure === 'auto' ? 'auto' : booleanFromEnv(env, 'CONSOLE_COOKIE_SECURE', false),
  };
}
