import type { KV } from '@nats-io/kv';
import { emptySessionState, SEEN_CONTROLS_KEPT, type HookSessionState, type SessionStates } from '@warden/agent-edge';
import { SessionLanes } from '@warden/messaging';

const encoder = new TextEncoder();
const MAX_CACHED = 100_000;
const CONFLICT_RETRIES = 3;

export interface CachedState {
  revision: number | null;
  /** The state as stored (JSON): what a task's result is compared with, and each task's copy is read from. */
  json: string;
}

/** A change given to `later`, not stored yet, and who waits for it to be. */
interface PendingChange {
  change: (state: HookSessionState) => void;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The hook states of one agent's sessions in KV, written with compare-and-set so that any replica may
 * serve the next call of a session, and cached: a call that changes nothing (most PreToolUse calls)
 * reads memory and writes nothing. A write that finds the record changed by another replica reloads
 * it and runs the task again; an update asked for the `latest` state reads the record first. Changes
 * given to `later` are part of what this replica sees at once, and stored a moment later, or with the
 * session's next write if that comes first (one write for both).
 */
export class KvSessionStates implements SessionStates {
  private readonly lanes = new SessionLanes();
  private readonly pending = new Map<string, { changes: PendingChange[]; timer: NodeJS.Timeout; delayMs: number }>();

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
    const key = this.key(sessionId);
    const state = JSON.parse((await this.load(key)).json) as HookSessionState;
    for (const { change } of this.pending.get(key)?.changes ?? []) change(state);
    return state;
  }

  update<T>(sessionId: string, _waitMs: number, task: (state: HookSessionState) => Promise<T>, options: { latest?: boolean } = {}): Promise<T> {
    return this.run(this.key(sessionId), task, { latest: options.latest === true, store: false });
  }

  /**
   * Applies `change` to what this replica sees of the session at once, and stores it within `delayMs`, or
   * with the session's next write: off the path of the answer it follows. Resolves once stored; rejects
   * when it cannot be.
   */
  later(sessionId: string, change: (state: HookSessionState) => void, delayMs: number): Promise<void> {
    const key = this.key(sessionId);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = { changes: [], timer: this.storeLater(key, delayMs), delayMs };
      this.pending.set(key, pending);
    }
    const changes = pending.changes;
    return new Promise<void>((resolve, reject) => changes.push({ change, resolve, reject }));
  }

  /**
   * Resolves once the stored state satisfies `ready` (the record another replica stores once it has
   * answered), or after `waitMs`: watches the session's key, so nothing is read again and again.
   */
  async whenStored(sessionId: string, ready: (state: HookSessionState) => boolean, waitMs: number): Promise<void> {
    const watch = await this.kv.watch({ key: this.key(sessionId) });
    const timer = setTimeout(() => watch.stop(), waitMs);
    try {
      for await (const entry of watch) {
        if (entry.operation === 'PUT' && ready({ ...emptySessionState(), ...entry.json<Partial<HookSessionState>>() })) return;
      }
    } finally {
      clearTimeout(timer);
      watch.stop();
    }
  }

  /**
   * One task under the session's lane, on the state with the pending changes applied. The state is
   * written when the task changed it (or, with `store`, when the pending changes did), pending changes
   * with it.
   */
  private run<T>(key: string, task: (state: HookSessionState) => Promise<T>, options: { latest: boolean; store: boolean }): Promise<T> {
    return this.lanes.run(key, async () => {
      // The stored record, not the cached one, where the task must see what another replica wrote even when it changes nothing.
      if (options.latest) this.cache.delete(key);
      for (let attempt = 1; ; attempt++) {
        const cached = await this.load(key);
        const state = JSON.parse(cached.json) as HookSessionState;
        const taken = [...(this.pending.get(key)?.changes ?? [])];
        for (const { change } of taken) change(state);
        const seen = taken.length && !options.store ? JSON.stringify(state) : cached.json;
        const result = await task(state);
        state.seenControls = state.seenControls.slice(-SEEN_CONTROLS_KEPT);
        const json = JSON.stringify(state);
        if (json === seen) {
          // Nothing of the task's to store; pending changes wait for their timer, or are stored already.
          if (options.store) this.settle(key, taken.length);
          return result;
        }
        try {
          const data = encoder.encode(json);
          const revision = cached.revision === null ? await this.kv.create(key, data) : await this.kv.update(key, data, cached.revision);
          this.remember(key, { revision, json });
          this.settle(key, taken.length);
          return result;
        } catch (error) {
          this.cache.delete(key);
          if (attempt >= CONFLICT_RETRIES) {
            // A task's write that failed leaves pending changes to their timer; their own write that failed gives them up.
            if (options.store) this.settle(key, taken.length, error as Error);
            throw error;
          }
        }
      }
    });
  }

  /** The first `count` pending changes are stored (or, with an error, given up): their waiters are told. */
  private settle(key: string, count: number, error?: Error): void {
    const pending = this.pending.get(key);
    if (!pending || !count) return;
    for (const done of pending.changes.splice(0, count)) {
      if (error) done.reject(error);
      else done.resolve();
    }
    clearTimeout(pending.timer);
    // Given while the write was on its way: stored by a write of their own.
    if (pending.changes.length) pending.timer = this.storeLater(key, pending.delayMs);
    else this.pending.delete(key);
  }

  private storeLater(key: string, delayMs: number): NodeJS.Timeout {
    return setTimeout(() => void this.run(key, async () => undefined, { latest: false, store: true }).catch(() => undefined), delayMs);
  }

  private key(sessionId: string): string {
    return `state.${this.agentId}.${sessionId}`;
  }

  private async load(key: string): Promise<CachedState> {
    const cached = this.cache.get(key);
    if (cached) return cached;
    const entry = await this.kv.get(key);
    const state = entry && entry.operation === 'PUT' ? { ...emptySessionState(), ...entry.json<Partial<HookSessionState>>() } : emptySessionState();
    const loaded: CachedState = { revision: entry?.revision ?? null, json: JSON.stringify(state) };
    this.remember(key, loaded);
    return loaded;
  }

  private remember(key: string, cached: CachedState): void {
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, cached);
  }
}
