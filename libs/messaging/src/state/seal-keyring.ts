import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { SEAL_KEY_BUCKET, SEAL_PRIVATE_KEY, SEAL_PUBLIC_KEY } from '@warden/contracts';
import { newSealKeys, publicHalfOf, type SealKeys } from '@warden/secrets';

const encoder = new TextEncoder();

/**
 * Makes the key pair agents seal secrets with, once: both halves under `private` (created only if absent,
 * so two provisioners agree on one pair), the public half under `public` (written again when it is
 * missing or does not match). Returns what it did.
 */
export async function ensureSealKeys(kv: KV): Promise<'created' | 'repaired' | 'unchanged'> {
  let created = false;
  let keys = await storedKeys(kv);
  if (!keys) {
    try {
      await kv.create(SEAL_PRIVATE_KEY, encoder.encode(JSON.stringify(newSealKeys())));
      created = true;
    } catch {
      // Another provisioner made it first: that pair is the one.
    }
    keys = await storedKeys(kv);
    if (!keys) throw new Error(`the seal key in ${SEAL_KEY_BUCKET} could not be made or read`);
  }
  const published = await kv.get(SEAL_PUBLIC_KEY);
  if (published?.operation === 'PUT' && published.string() === keys.publicKey) return created ? 'created' : 'unchanged';
  await kv.put(SEAL_PUBLIC_KEY, encoder.encode(keys.publicKey));
  return created ? 'created' : 'repaired';
}

async function storedKeys(kv: KV): Promise<SealKeys | null> {
  const entry = await kv.get(SEAL_PRIVATE_KEY);
  if (!entry || entry.operation !== 'PUT') return null;
  const { privateKey } = entry.json<Partial<SealKeys>>();
  if (typeof privateKey !== 'string') throw new Error(`the seal key in ${SEAL_KEY_BUCKET} is not a key pair`);
  // The public half is derived, not trusted from the record: a damaged record cannot pair two keys.
  return { privateKey, publicKey: publicHalfOf(privateKey) };
}

/**
 * The key pair a service opens sealed secrets with (the reviewer), read from `warden_seal` when first
 * needed and again when asked to (a sealed text made for another key: provisioned anew since).
 */
export class SealKeyring {
  private keys: Promise<SealKeys | null> | undefined;

  constructor(private readonly nc: NatsConnection) {}

  /** The key pair, or null when none is provisioned (sealed texts then stay closed: the markers are judged). */
  current(): Promise<SealKeys | null> {
    this.keys ??= this.read().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  /** Reads the key pair again on the next `current()`. */
  reload(): void {
    this.keys = undefined;
  }

  private async read(): Promise<SealKeys | null> {
    return storedKeys(await new Kvm(this.nc).open(SEAL_KEY_BUCKET));
  }
}
