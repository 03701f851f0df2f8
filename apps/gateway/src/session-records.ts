import type { KV } from '@nats-io/kv';

const encoder = new TextEncoder();
const MAX_CACHED = 100_000;

/** Which agent each session belongs to: the first agent whose token used it. Never changes once set. */
export class SessionOwners {
  private readonly owners = new Map<string, string>();

  constructor(private readonly kv: KV) {}

  /** The session's owner: `agentId` when the session is new (it claims it), or the agent that claimed it first. */
  async claim(sessionId: string, agentId: string): Promise<string> {
    const known = this.owners.get(sessionId);
    if (known) return known;
    let owner: string;
    try {
      await this.kv.create(`owner.${sessionId}`, encoder.encode(agentId));
      owner = agentId;
    } catch (error) {
      const entry = await this.kv.get(`owner.${sessionId}`);
      if (!entry || entry.operation !== 'PUT') throw error;
      owner = entry.string();
    }
    if (this.owners.size >= MAX_CACHED) this.owners.delete(this.owners.keys().next().value!);
    this.owners.set(sessionId, owner);
    return owner;
  }
}
