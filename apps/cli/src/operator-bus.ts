import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsSettingsFromEnv, type NatsSettings } from '@warden/messaging';
import { out } from './output.js';

const CONNECT_TIMEOUT_MS = 5_000;

/** A connection for one operator command: NATS and JetStream. */
export interface OperatorBus {
  nc: NatsConnection;
  js: JetStreamClient;
}

/**
 * Runs `task` on a connection made from NATS_URL / NATS_USER / NATS_PASSWORD (or the given settings).
 * One attempt, not the services' reconnect-forever: a command line says at once when the bus is not
 * there (exit 1).
 */
export async function withOperatorBus(name: string, task: (bus: OperatorBus) => Promise<number>, given?: NatsSettings): Promise<number> {
  const settings = given ?? natsSettingsFromEnv(process.env, name);
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: settings.servers.split(',').map((s) => s.trim()), user: settings.user, pass: settings.password, name: settings.name, timeout: CONNECT_TIMEOUT_MS });
  } catch (error) {
    out.error(`cannot reach NATS at ${settings.servers}: ${(error as Error).message}`);
    return 1;
  }
  try {
    return await task({ nc, js: jetstream(nc, { checkAPI: false }) });
  } finally {
    await nc.drain().catch(() => nc.close());
  }
}
