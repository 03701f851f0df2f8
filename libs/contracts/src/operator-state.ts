/**
 * Operators of Warden's HTTP surfaces (gate API, audit API, console) and their credentials, kept hashed
 * in JetStream KV buckets that only service users can read (libs/operator-auth owns the format).
 */

/** Operators (`operator.<id>`: role and scrypt password hash) and their API tokens (`token.<sha256>`). */
export const OPERATOR_BUCKET = 'warden_operators';

/** Console login sessions (`<sha256 of the session token>`); the bucket forgets them after their lifetime. */
export const OPERATOR_SESSION_BUCKET = 'warden_operator_sessions';

/** How long a console login lasts (absolute, not sliding): a working day. */
export const OPERATOR_SESSION_TTL_MS = 12 * 3_600_000;
