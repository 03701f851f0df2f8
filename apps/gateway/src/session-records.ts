import type { KV } from '@nats-io/kv';
import { emptySessionState, SEEN_CONTROLS_KEPT, type HookSessionState, type SessionStates } from '@warden/agent-edge';
import { SessionLanes } from '@warden/messaging';

const encoder = new TextEncoder();
const MAX_CACHED = 100_000;
const CONFLICT_RETRIES = 3;

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

export interface CachedState {
  state: HookSessionState;
  revision: number | null;
}

/**
 * The hook states of one agent's sessions in KV, written with compare-and-set so that any replica may
 * serve the next call of a session, and cached: a call that changes nothing (most PreToolUse calls)
 * reads memory and writes nothing. A write that finds the record changed by another replica reloads
 * it and runs the task again.
 */
export class KvSessionStates implements SessionStates {
  private readonly lanes = new SessionLanes();

  constructor(
    private readonly kv: KV,
    private readonly agentId: string,
    private readonly cache: Map<string, CachedState>,
  ) {}

  /** Whether this replica has served the session before (it then holds its control messages as they come). */
  known(sessionId: string): boolean {
    return this.cache.has(this.key(sessionId));
  }

  async read(sessionId: string): Promise<HookSessionState> {
    return structuredClone((await this.load(sessionId)).state);
  }

  update<T>(sessionId: string, _waitMs: number, task: (state: HookSessionState) => Promise<T>): Promise<T> {
    return this.lanes.run(this.key(sessionId), async () => {
      for (let attempt = 1; ; attempt++) {
        const cached = await this.load(sessionId);
        const state = structuredClone(cached.state);
        const result = await task(state);
        state.seenControls = state.seenControls.slice(-SEEN_CONTROLS_KEPT);
        if (JSON.stringify(state) === JSON.stringify(cached.state)) return result;
        const data = encoder.encode(JSON.stringify(state));
        try {
          const revision = cached.revision === null ? await this.kv.create(this.key(sessionId), data) : await this.kv.update(this.key(sessionId), data, cached.revision);
          this.remember(sessionId, { state, revision });
          return result;
        } catch (error) {
          this.cache.delete(this.key(sessionId));
          if (attempt >= CONFLICT_RETRIES) throw error;
        }
      }
    });
  }

  private key(sessionId: string): string {
    return `state.${this.agentId}.${sessionId}`;
  }

  private async load(sessionId: string): Promise<CachedState> {
    const cached = this.cache.get(this.key(sessionId));
    if (cached) return cached;
    const entry = await this.kv.get(this.key(sessionId));
    const loaded: CachedState =
      entry && entry.operation === 'PUT' ? { state: { ...emptySessionState(), ...entry.json<Partial<HookSessionState>>() }, revision: entry.revision } : { state: emptySessionState(), revision: entry?.revision ?? null };
    this.remember(sessionId, loaded);
    return loaded;
  }

  private remember(sessionId: string, cached: CachedState): void {
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(this.key(sessionId), cached);
  }
}
