import type { KV, KvWatchEntry } from '@nats-io/kv';
import { whileJetStreamSettles } from '../connection/jetstream-settling.js';
import { isConflict } from '../state/bus-failures.js';
import { LeaseConflictError, type LeaseEntry, type LeaseStore } from './lease-store.js';

/** A watch that ended while wanted (the bus went away for long) is started again after this long. */
const REWATCH_MS = 1_000;

function conflict(error: unknown, key: string): Error {
  return isConflict(error) ? new LeaseConflictError(key) : (error as Error);
}

/** Leases in a JetStream KV bucket, with the server's revision checks as compare-and-set. */
export class KvLeaseStore implements LeaseStore {
  constructor(private readonly kv: KV) {}

  async watch(prefix: string, onEntry: (entry: LeaseEntry) => void): Promise<{ stop(): void }> {
    let stopped = false;
    // Started while the cluster elects its leaders ("temporarily unavailable"), the first watch waits for it.
    let iterator = await whileJetStreamSettles(() => this.kv.watch({ key: `${prefix}.>` }));
    void (async () => {
      while (!stopped) {
        try {
          for await (const e of iterator) onEntry(entryOf(e));
        } catch {
          // The watch failed (the bus away for long): it is started again below.
        }
        if (stopped) return;
        await new Promise((resolve) => setTimeout(resolve, REWATCH_MS));
        iterator = await this.kv.watch({ key: `${prefix}.>` }).catch(() => iterator);
      }
    })();
    return {
      stop: () => {
        stopped = true;
        iterator.stop();
      },
    };
  }

  async get(key: string): Promise<LeaseEntry | null> {
    const e = await this.kv.get(key);
    return e ? entryOf(e) : null;
  }

  put(key: string, value: string): Promise<number> {
    return this.kv.put(key, value);
  }

  async create(key: string, value: string): Promise<number> {
    try {
      return await this.kv.create(key, value);
    } catch (error) {
      throw conflict(error, key);
    }
  }

  async update(key: string, value: string, revision: number): Promise<number> {
    try {
      return await this.kv.update(key, value, revision);
    } catch (error) {
      throw conflict(error, key);
    }
  }

  async delete(key: string, revision: number): Promise<void> {
    try {
      await this.kv.delete(key, { previousSeq: revision });
    } catch (error) {
      throw conflict(error, key);
    }
  }

  async remove(key: string): Promise<void> {
    await this.kv.delete(key);
  }
}

function entryOf(e: Pick<KvWatchEntry, 'key' | 'operation' | 'revision' | 'string'>): LeaseEntry {
  return { key: e.key, value: e.operation === 'PUT' ? e.string() : null, revision: e.revision };
}
