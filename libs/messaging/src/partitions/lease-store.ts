/** A change seen on a key: a value, or null when the key was deleted. */
export interface LeaseEntry {
  key: string;
  value: string | null;
  revision: number;
}

export class LeaseConflictError extends Error {
  constructor(key: string) {
    super(`lease ${key} changed under us`);
  }
}

/**
 * Compare-and-set storage for partition leases. The NATS implementation is a JetStream KV bucket;
 * tests use an in-memory one. Writes throw LeaseConflictError when the revision does not match.
 */
export interface LeaseStore {
  /** Calls back with the current entry of every key under the prefix, then with every change. */
  watch(prefix: string, onEntry: (entry: LeaseEntry) => void): Promise<{ stop(): void }>;
  /** The key as stored now (null when deleted or never written): to refresh a view a conflict proved stale. */
  get(key: string): Promise<LeaseEntry | null>;
  put(key: string, value: string): Promise<number>;
  /** Writes only if the key does not exist (or was deleted). */
  create(key: string, value: string): Promise<number>;
  /** Writes only if the key's revision is still `revision`. */
  update(key: string, value: string, revision: number): Promise<number>;
  /** Deletes only if the key's revision is still `revision`. */
  delete(key: string, revision: number): Promise<void>;
  /** Deletes whatever the revision. */
  remove(key: string): Promise<void>;
}
