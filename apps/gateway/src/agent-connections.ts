import { createHash, timingSafeEqual } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { WardenClient } from '@warden/sdk';
import type { AgentCredentials } from './hook-request.js';

/** The token is refused (answered 401 with this message): NATS refused it, or it is not an agent's. */
export class AgentUnauthorized extends Error {}

/** A JetStream API request every user but an agent may make: an agent's connection is refused it. */
const NOT_FOR_AGENTS = '$JS.API.STREAM.NAMES';

interface Entry {
  tokenHash: Buffer;
  client: Promise<WardenClient>;
  lastUsed: number;
}

const hash = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * One NATS connection per agent, made with the agent's own token: nats-server checks the secret and
 * holds the connection to the agent's permissions (its own subjects only), so whatever the gateway
 * sends for a request can only be that agent's. The token itself is not kept, only its SHA-256, to
 * recognise the next request of the same agent without asking NATS again; a token that differs is
 * checked by connecting with it.
 */
export class AgentConnections {
  private readonly entries = new Map<string, Entry>();
  /** Connections being made with a token not yet checked, by agent and token hash. */
  private readonly pending = new Map<string, Promise<WardenClient>>();
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: { servers: string; idleMs: number; deadlineMs: number }) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(60_000, Math.max(1_000, options.idleMs / 4)));
    this.sweeper.unref();
  }

  /** The agent's client; rejects with AgentUnauthorized when the token is refused, or with the connection error. */
  async client(credentials: AgentCredentials): Promise<WardenClient> {
    const tokenHash = hash(credentials.secret);
    const entry = this.entries.get(credentials.agentId);
    if (entry && entry.tokenHash.length === tokenHash.length && timingSafeEqual(entry.tokenHash, tokenHash)) {
      entry.lastUsed = Date.now();
      return entry.client;
    }
    // Another token is checked by connecting with it, once for all the calls that bring it at the same
    // time. The agent's working connection stays in place meanwhile: only a connection that worked
    // replaces it (and closes it); a refused one is closed and leaves nothing behind.
    const key = `${credentials.agentId}\u0000${tokenHash.toString('hex')}`;
    const pending = this.pending.get(key);
    if (pending) return pending;
    const connecting = this.connect(credentials).then(async (client) => {
      if (this.closed) {
        await client.close().catch(() => undefined);
        throw new Error('the gateway is closing');
      }
      const replaced = this.entries.get(credentials.agentId);
      this.entries.set(credentials.agentId, { tokenHash, client: Promise.resolve(client), lastUsed: Date.now() });
      if (replaced) void replaced.client.then((old) => old.close()).catch(() => undefined);
      return client;
    });
    this.pending.set(key, connecting);
    try {
      return await connecting;
    } finally {
      this.pending.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const clients = [...this.entries.values()].map((e) => e.client);
    this.entries.clear();
    for (const connecting of this.pending.values()) clients.push(connecting);
    await Promise.all(clients.map((c) => c.then((client) => client.close()).catch(() => undefined)));
  }

  private async connect(credentials: AgentCredentials): Promise<WardenClient> {
    let client: WardenClient;
    try {
      client = await WardenClient.connect({
        servers: this.options.servers,
        agentId: credentials.agentId,
        password: credentials.secret,
        decisionTimeoutMs: this.options.deadlineMs,
        // The adapter carries out stops itself, as the command hook does, and records its own fallbacks.
        applyControl: false,
        recordFallbacks: false,
        name: `warden-gateway-${credentials.agentId}`,
      });
    } catch (error) {
      const text = `${(error as Error).name} ${(error as Error).message}`;
      if (/authoriz|authentication/i.test(text)) throw new AgentUnauthorized(`NATS refused the token of agent ${credentials.agentId}: the token is not valid`);
      throw error;
    }
    // Only an agent passes as an agent: the service user's or an operator's password is a valid NATS
    // login too, with far more rights than an agent's. Their connection is closed and the call refused.
    let agent: boolean;
    try {
      agent = await refusedAsAgent(client.nc);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    if (!agent) {
      await client.close().catch(() => undefined);
      throw new AgentUnauthorized(`${credentials.agentId} is not an agent: only an agent's token passes as an agent`);
    }
    return client;
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now();
    for (const [agentId, entry] of this.entries) {
      if (now - entry.lastUsed < this.options.idleMs) continue;
      this.entries.delete(agentId);
      await entry.client.then((client) => client.close()).catch(() => undefined);
    }
  }
}

/** Whether the connection has an agent's permissions: NATS refuses it the publish of a request only an agent may not make. */
async function refusedAsAgent(nc: NatsConnection): Promise<boolean> {
  try {
    await nc.request(NOT_FOR_AGENTS, new TextEncoder().encode('{}'), { timeout: 5_000 });
    return false;
  } catch (error) {
    const text = `${(error as Error).name} ${(error as Error).message}`;
    // Refused the publish: an agent. Refused anything else (an operator has no inbox of an agent's name): not one.
    if (/permissions? violation for publish/i.test(text) && text.includes(NOT_FOR_AGENTS)) return true;
    if (/permission/i.test(text)) return false;
    throw error;
  }
}
