import type { ServiceName } from '@warden/contracts';
import { natsSettingsFromEnv, TOPOLOGY_DEFAULTS } from '@warden/messaging';
import { MESSAGING_DEFAULTS, type MessagingOptions } from '@warden/messaging-nest';

/** Default HTTP port of each service (metrics, health, and the service's own API). */
export const SERVICE_PORTS: Record<ServiceName, number> = {
  reviewer: 3101,
  'pattern-detector': 3102,
  'intervention-controller': 3103,
  breaker: 3104,
  gate: 3105,
  ladder: 3106,
  audit: 3107,
};

/** What every service reads from its environment. Service-specific settings live in each app's config. */
export interface ServiceRuntime {
  service: ServiceName;
  http: { host: string; port: number };
  logLevel: string;
  messaging: MessagingOptions;
}

export class ConfigurationError extends Error {}

export function integerFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigurationError(`${name} must be an integer >= ${min} (got "${raw}")`);
  }
  return value;
}

export function booleanFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigurationError(`${name} must be true or false (got "${raw}")`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The shared environment of a Warden service (defaults in brackets):
 * NATS_URL [nats://127.0.0.1:4222], NATS_USER, NATS_PASSWORD, WARDEN_PARTITIONS [8],
 * HTTP_HOST [127.0.0.1], HTTP_PORT [per service, 3101-3107], LOG_LEVEL [info], WARDEN_REPLICA_ID [generated],
 * WARDEN_MAX_PAYLOAD_BYTES [1048576], WARDEN_HEARTBEAT_MS [2000], WARDEN_LEASE_MS [8000],
 * WARDEN_MAX_CONCURRENT_HANDLERS [256].
 */
export function loadServiceRuntime(service: ServiceName, env: NodeJS.ProcessEnv = process.env): ServiceRuntime {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigurationError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  return {
    service,
    http: { host: env.HTTP_HOST || '127.0.0.1', port: integerFromEnv(env, 'HTTP_PORT', SERVICE_PORTS[service]) },
    logLevel,
    messaging: {
      service,
      nats: natsSettingsFromEnv(env, `warden-${service}`),
      partitions: integerFromEnv(env, 'WARDEN_PARTITIONS', TOPOLOGY_DEFAULTS.partitions, 1),
      replicaId: env.WARDEN_REPLICA_ID || undefined,
      maxPayloadBytes: integerFromEnv(env, 'WARDEN_MAX_PAYLOAD_BYTES', 1024 * 1024, 1024),
      heartbeatMs: integerFromEnv(env, 'WARDEN_HEARTBEAT_MS', MESSAGING_DEFAULTS.heartbeatMs, 50),
      leaseMs: integerFromEnv(env, 'WARDEN_LEASE_MS', MESSAGING_DEFAULTS.leaseMs, 200),
      maxConcurrentHandlers: integerFromEnv(env, 'WARDEN_MAX_CONCURRENT_HANDLERS', 256, 1),
    },
  };
}
