import { isIP } from 'node:net';
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
 * - `CONSOLE_REVIEWER_URL` [http://127.0.0.1:3101]: the reviewer's HTTP port, whose `POST /review/explain`
 *   the console calls on behalf of the logged-in operator for an action's "Why this verdict".
 * - `CONSOLE_HISTORY_HOURS` [24]: how far back the console reads the streams when it starts.
 * - `CONSOLE_MAX_SESSIONS` [20000]: sessions kept in memory; the least recently active ended ones go first.
 * - `CONSOLE_LIVE_INTERVAL_MS` [250]: how often changes are pushed to open pages (batched).
 * - `CONSOLE_COOKIE_SECURE` [auto]: mark the login cookie Secure: `true`, `false`, or `auto` (when the
 *   request came over HTTPS, as seen by `X-Forwarded-Proto` from a proxy you trust or the socket).
 * - `CONSOLE_TRUST_PROXY` [unset]: the reverse proxies in front of the console whose `X-Forwarded-For`
 *   names the client: a comma-separated list of addresses, subnets (`10.0.0.0/8`) or `loopback`,
 *   `linklocal`, `uniquelocal`, or a number of hops. Unset, the client is the connection's address and
 *   the header is ignored (anyone could write it). Login throttling counts failures per client address:
 *   behind a proxy without this setting, every operator shares the proxy's.
 * - `CONSOLE_SUPERVISOR_LOG` [unset]: the supervisor's log of `warden up` (which sets it): the sessions
 *   page shows its latest incidents of the last day (a service that died and was started again).
 */
export interface ConsoleConfig {
  http: { host: string; port: number };
  nats: NatsSettings;
  partitions: number;
  logLevel: string;
  gateUrl: string;
  reviewerUrl: string;
  historyHours: number;
  maxSessions: number;
  liveIntervalMs: number;
  cookieSecure: 'auto' | boolean;
  /** Express's `trust proxy`: hops, or addresses and subnets; false to ignore X-Forwarded-For. */
  trustProxy: false | number | string[];
  supervisorLog?: string;
}

export const CONSOLE_PORT = 3109;

export function loadConsoleConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  const gateUrl = (env.CONSOLE_GATE_URL || 'http://127.0.0.1:3105').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(gateUrl)) throw new ConfigurationError(`CONSOLE_GATE_URL must be http(s)://host:port (got "${gateUrl}")`);
  const reviewerUrl = (env.CONSOLE_REVIEWER_URL || 'http://127.0.0.1:3101').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(reviewerUrl)) throw new ConfigurationError(`CONSOLE_REVIEWER_URL must be http(s)://host:port (got "${reviewerUrl}")`);
  const secure = env.CONSOLE_COOKIE_SECURE?.trim();
  return {
    http: { host: env.HTTP_HOST || '127.0.0.1', port: integerFromEnv(env, 'HTTP_PORT', CONSOLE_PORT) },
    nats: natsSettingsFromEnv(env, 'warden-console'),
    partitions: integerFromEnv(env, 'WARDEN_PARTITIONS', TOPOLOGY_DEFAULTS.partitions, 1),
    logLevel: env.LOG_LEVEL || 'info',
    gateUrl,
    reviewerUrl,
    historyHours: integerFromEnv(env, 'CONSOLE_HISTORY_HOURS', 24, 0),
    maxSessions: integerFromEnv(env, 'CONSOLE_MAX_SESSIONS', 20_000, 10),
    liveIntervalMs: integerFromEnv(env, 'CONSOLE_LIVE_INTERVAL_MS', 250, 10),
    cookieSecure: !secure || secure === 'auto' ? 'auto' : booleanFromEnv(env, 'CONSOLE_COOKIE_SECURE', false),
    trustProxy: trustedProxies(env.CONSOLE_TRUST_PROXY),
    ...(env.CONSOLE_SUPERVISOR_LOG ? { supervisorLog: env.CONSOLE_SUPERVISOR_LOG } : {}),
  };
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** CONSOLE_TRUST_PROXY read strictly: a typo must not trust every address, nor silently none. */
function trustedProxies(raw: string | undefined): ConsoleConfig['trustProxy'] {
  const value = raw?.trim();
  if (!value) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10) throw new ConfigurationError(`CONSOLE_TRUST_PROXY as a number of hops must be 1-10 (got "${value}")`);
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    if (NAMED_RANGES.has(entry) || (isIP(entry.split('/')[0]!) && /^[^/]+(\/\d{1,3})?$/.test(entry))) continue;
    throw new ConfigurationError(`CONSOLE_TRUST_PROXY: "${entry}" is not an address, a subnet (10.0.0.0/8), loopback, linklocal or uniquelocal`);
  }
  return entries;
}
