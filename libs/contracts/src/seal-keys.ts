/**
 * The key pair agents seal the secrets of their actions with (libs/secrets `sealSecrets`): `public`, the
 * half every agent reads with a JetStream direct get, and `private`, both halves, which only services
 * read (the reviewer opens what it judges). Made once by `warden provision`.
 */
export const SEAL_KEY_BUCKET = 'warden_seal';

export const SEAL_PUBLIC_KEY = 'public';
export const SEAL_PRIVATE_KEY = 'private';

/** The subject an agent reads the public half at (last message of the key). */
export const SEAL_PUBLIC_KEY_SUBJECT = `$JS.API.DIRECT.GET.KV_${SEAL_KEY_BUCKET}.$KV.${SEAL_KEY_BUCKET}.${SEAL_PUBLIC_KEY}`;
