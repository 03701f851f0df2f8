const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

/**
 * The partition nats-server assigns to a session id with `{{partition(n, k)}}`: FNV-1a (32 bit) of the
 * token's bytes, modulo n. Services use it to check that a message sits in the partition its session
 * belongs to, so a client that publishes straight to a partition subject cannot split a session.
 */
export function partitionOf(sessionId: string, partitions: number): number {
  let hash = FNV_OFFSET;
  for (const byte of encoder.encode(sessionId)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash % partitions;
}
