import type { KV } from '@nats-io/kv';
import { LeaseConflictError, type LeaseEntry, type LeaseStore } from './lease-store.js';

const WRONG_SEQUENCE = /wrong last sequence|key exists/i;

function conflict(error: unknown, key: string): Error {
  return error instanceof Error && WRONG_SEQUENCE.test(error.message) ? new LeaseConflictError(key) : (error as Error);
}

/** Leases in a JetStream KV bucket, with the server's revision checks as compare-and-set. */
export class KvLeaseStore implements LeaseStore {
  constructor(private readonly kv: KV) {}

  async watch(prefix: string, onEntry: (entry: LeaseEntry) => void): Promise<{ stop(): void }> {
    const iterator = await this.kv.watch({ key: `${prefix}.>` });
    void (async () => {
      for await (const e of iterator) {
        onEntry({ key: e.key, value: e.operation === 'PUT' ? e.string() : null, revision: e.revision });
      }
    })();
    return { stop: () => iterator.stop() };
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
