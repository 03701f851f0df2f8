import { Kvm, type KV } from '@nats-io/kv';
import { redactForStorage } from '@warden/observability';
import type { NatsConnection } from '@nats-io/transport-node';
import { TransientError } from '../errors.js';
import { asTransient, isConflict, onTheBus } from './bus-failures.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** How often `update` decides again on a fresh record before it gives the message back to the bus. */
const UPDATE_ATTEMPTS = 50;

/**
 * Another writer stored the record since it was read: the copy here is stale. A TransientError, so a
 * message that meets it is redelivered (and decided again on the fresh record), never dead-lettered.
 */
export class RecordConflictError extends TransientError {
  constructor(
    readonly bucket: string,
    readonly key: string,
  ) {
    super(`${bucket}/${key} changed under this replica; it is reloaded and the event retried`);
    this.name = 'RecordConflictError';
  }
}

/** A record as stored, with the KV revision it was read or last written at. */
export interface Versioned<T> {
  value: T;
  revision: number;
}

/** What `update` did: the record as it now stands, and whether this call wrote it. */
export interface Updated<T> {
  value: T;
  revision: number | undefined;
  written: boolean;
}

/**
 * JSON records in one of the suite's JetStream KV buckets, written with compare-and-set so that two
 * writers never both apply an event to the same record.
 *
 * One convention for everyone: a record that is not stored (never written, deleted or purged) is
 * `undefined`; a write with no revision creates the record. Conflicts are recognised by their
 * JetStream API code and raised as RecordConflictError. Every other failure of the bus is a
 * TransientError. A bucket that does not exist is a TransientError too, naming `warden provision`:
 * it is never created here (provisioning knows its replicas and limits), and the next call tries to
 * open it again.
 */
export class RecordStore<T> {
  private bucket?: Promise<KV>;

  constructor(
    private readonly nc: NatsConnection,
    readonly name: string,
    /** Reads a stored value; the default parses JSON. A record that does not parse throws its own error. */
    private readonly decode: (text: string, key: string) => T = (text) => JSON.parse(text) as T,
  ) {}

  async get(key: string): Promise<Versioned<T> | undefined> {
    const kv = await this.kv();
    const entry = await onTheBus(`reading ${this.name}/${key}`, () => kv.get(key));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return undefined;
    return { value: this.decode(decoder.decode(entry.value), key), revision: entry.revision };
  }

  /** Writes `value` if nobody has since `revision` (none: if the record is not stored); returns the new revision. */
  async write(key: string, value: T, revision: number | undefined): Promise<number> {
    const kv = await this.kv();
    const data = encoded(value);
    try {
      return revision === undefined ? await kv.create(key, data) : await kv.update(key, data, revision);
    } catch (error) {
      if (isConflict(error)) throw new RecordConflictError(this.name, key);
      throw new TransientError(`writing ${this.name}/${key}: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * Read, decide, write with compare-and-set, decided again on the fresh record while another writer
   * comes first: for records several replicas change (an agent's, not a session's). `decide` returns
   * the new value, or undefined to leave the record as it is.
   */
  async update(key: string, decide: (current: T | undefined) => T | undefined, onConflict?: () => void): Promise<Updated<T>> {
    for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
      const stored = await this.get(key);
      const next = decide(stored?.value);
      if (next === undefined) return { value: stored?.value as T, revision: stored?.revision, written: false };
      try {
        return { value: next, revision: await this.write(key, next, stored?.revision), written: true };
      } catch (error) {
        if (!(error instanceof RecordConflictError)) throw error;
        onConflict?.();
        // Spread the writers out a little, with jitter, before deciding again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
      }
    }
    throw new TransientError(`${this.name}/${key} kept changing under ${UPDATE_ATTEMPTS} attempts to update it`);
  }

  /** Writes `value` whatever is stored: for records one writer derives from another (a mirror for readers). */
  async put(key: string, value: T): Promise<number> {
    const kv = await this.kv();
    return onTheBus(`writing ${this.name}/${key}`, () => kv.put(key, encoded(value)));
  }

  /** Deletes the record; with a revision, only if nobody wrote it since (else a RecordConflictError). */
  async delete(key: string, revision?: number): Promise<void> {
    const kv = await this.kv();
    try {
      await kv.delete(key, revision === undefined ? {} : { previousSeq: revision });
    } catch (error) {
      if (isConflict(error)) throw new RecordConflictError(this.name, key);
      throw asTransient(`deleting ${this.name}/${key}`, error);
    }
  }

  /** Opens the bucket: a missing one is a TransientError naming `warden provision` (a service checks at start). */
  async open(): Promise<void> {
    await this.kv();
  }

  /** Keys matching a KV filter (`session.>`), e.g. to load what a replica took over. */
  async keys(filter = '>'): Promise<string[]> {
    const kv = await this.kv();
    return onTheBus(`listing ${this.name}`, async () => {
      const keys: string[] = [];
      for await (const key of await kv.keys(filter)) keys.push(key);
      return keys;
    });
  }

  private kv(): Promise<KV> {
    this.bucket ??= openBucket(this.nc, this.name).catch((error: unknown) => {
      this.bucket = undefined;
      throw error;
    });
    return this.bucket;
  }
}

/** A record as stored: JSON, with the secrets of any action it holds redacted (`redactForStorage`). */
function encoded(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(redactForStorage(value)));
}

/** Opens a provisioned bucket; a missing one is a TransientError that says how to create it. */
export async function openBucket(nc: NatsConnection, name: string): Promise<KV> {
  return onTheBus(`KV bucket ${name} unavailable (run \`warden provision\`)`, async () => {
    const kv = await new Kvm(nc).open(name);
    await kv.status();
    return kv;
  });
}
