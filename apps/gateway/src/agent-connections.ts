import { createHash, timingSafeEqual } from 'node:crypto';
import { WardenClient } from '@warden/sdk';
import type { AgentCredentials } from './hook-request.js';

/** The token was refused by NATS: the secret is not this agent's. */
export class AgentUnauthorized extends Error {}

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
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: { servers: string; idleMs: number; deadlineMs: number }) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(60_000, Math.max(1_000, options.idleMs / 4)));
    this.sweeper.unref();
  }

  /** The agent's client; rejects with AgentUnauthorized when NATS refuses the token, or with the connection error. */
  async client(credentials: AgentCredentials): Promise<WardenClient> {
    const tokenHash = hash(credentials.secret);
    const entry = this.entries.get(credentials.agentId);
    if (entry && entry.tokenHash.length === tokenHash.length && timingSafeEqual(entry.tokenHash, tokenHash)) {
      entry.lastUsed = Date.now();
      return entry.client;
    }
    const connecting = this.connect(credentials);
    const next: Entry = { tokenHash, client: connecting, lastUsed: Date.now() };
    this.entries.set(credentials.agentId, next);
    try {
      const client = await connecting;
      if (entry) void entry.client.then((old) => old.close()).catch(() => undefined);
      return client;
    } catch (error) {
      // A refused or failed attempt leaves the agent's working connection, if it had one, in place.
      if (this.entries.get(credentials.agentId) === next) {
        if (entry) this.entries.set(credentials.agentId, entry);
        else this.entries.delete(credentials.agentId);
      }
      throw error;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const clients = [...this.entries.values()].map((e) => e.client);
    this.entries.clear();
    await Promise.all(clients.map((c) => c.then((client) => client.close()).catch(() => undefined)));
  }

  private async connect(credentials: AgentCredentials): Promise<WardenClient> {
    try {
      return await WardenClient.connect({
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
      if (/authoriz|authentication/i.test(text)) throw new AgentUnauthorized(`NATS refused the token of agent ${credentials.agentId}`);
      throw error;
    }
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
