import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { buildTopology } from '../topology/topology.js';

const WRONG_SEQUENCE = /wrong last sequence|key exists/i;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Another replica wrote the record since it was read: the copy here is stale; reload it and retry. */
export class RecordConflictError extends Error {
  constructor(
    readonly bucket: string,
    readonly key: string,
  ) {
    super(`${bucket}/${key} changed under this replica; it is reloaded and the event retried`);
  }
}

export interface StoredRecord<T> {
  value: T;
  /** KV revision it was read or last written at; 0 when not stored yet. */
  revision: number;
}

/**
 * JSON records in one of the suite's JetStream KV buckets, written with compare-and-set so that two
 * replicas never both apply an event to the same record. The bucket is opened on first use and, when
 * provisioning has not created it, created as the topology describes it; a failure to open is not
 * remembered, so the next call tries again.
 */
export class KvRecords<T> {
  private bucket?: Promise<KV>;

  constructor(
    private readonly nc: NatsConnection,
    readonly name: string,
  ) {}

  async get(key: string): Promise<StoredRecord<T> | null> {
    const entry = await (await this.kv()).get(key);
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return { value: JSON.parse(decoder.decode(entry.value)) as T, revision: entry.revision };
  }

  /** Writes `value` if nobody else has since `revision` (0: if nobody has yet); returns the new revision. */
  async put(key: string, value: T, revision: number): Promise<number> {
    const kv = await this.kv();
    const data = encoder.encode(JSON.stringify(value));
    try {
      return revision === 0 ? await kv.create(key, data) : await kv.update(key, data, revision);
    } catch (error) {
      if (error instanceof Error && WRONG_SEQUENCE.test(error.message)) throw new RecordConflictError(this.name, key);
      throw error;
    }
  }

  /** Keys matching a KV filter (`session.>`), e.g. to load what a replica took over. */
  async keys(filter = '>'): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of await (await this.kv()).keys(filter)) keys.push(key);
    return keys;
  }

  private kv(): Promise<KV> {
    this.bucket ??= this.open().catch((error: unknown) => {
      this.bucket = undefined;
      throw new Error(`the ${this.name} bucket is unavailable: ${(error as Error).message}`);
    });
    return this.bucket;
  }

  private async open(): Promise<KV> {
    const kvm = new Kvm(this.nc);
    try {
      const kv = await kvm.open(this.name);
      await kv.status();
      return kv;
    } catch {
      const spec = buildTopology().keyValues.find((b) => b.bucket === this.name);
      if (!spec) throw new Error(`${this.name} is not a bucket of the topology`);
      return kvm.create(this.name, { history: spec.history, description: spec.description, ...(spec.ttlMs ? { ttl: spec.ttlMs } : {}) });
    }
  }
}
