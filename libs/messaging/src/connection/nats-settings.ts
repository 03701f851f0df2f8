/** How a Warden process reaches NATS. */
export interface NatsSettings {
  /** Comma-separated server URLs, e.g. `nats://127.0.0.1:4222`. */
  servers: string;
  user?: string;
  password?: string;
  /** Shown in the server's connection list. */
  name?: string;
  /** Prefix of reply inboxes; agents get their own so that they can only read their own replies. */
  inboxPrefix?: string;
}

export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

/**
 * Reads `NATS_URL`, `NATS_USER` and `NATS_PASSWORD`. Every Warden process uses the same three
 * variables; see the README's configuration table.
 */
export function natsSettingsFromEnv(env: NodeJS.ProcessEnv, name?: string): NatsSettings {
  return {
    servers: env.NATS_URL ?? DEFAULT_NATS_URL,
    user: env.NATS_USER || undefined,
    password: env.NATS_PASSWORD || undefined,
    name,
  };
}
