import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * How operator secrets are kept. Passwords are chosen by people and guessable, so they are hashed with
 * scrypt (memory-hard, salted, parameters stored with the hash so that they can be raised later).
 * Tokens are 256 random bits: nobody can guess or precompute them, so a SHA-256 digest is enough and
 * keeps the check on every API call cheap. Nothing raw is ever stored.
 */

/** scrypt cost: N=2^15, r=8, p=1 (32 MiB, about 0.1 s here): paid once per login, never per request. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** API tokens (the `warden` CLI, scripts) and console login sessions are told apart by their prefix. */
export const API_TOKEN_PREFIX = 'wdn_';
export const SESSION_TOKEN_PREFIX = 'wds_';

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `scrypt$N$r$p$<salt base64url>$<hash base64url>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, SCRYPT_PARAMS);
  const { N, r, p } = SCRYPT_PARAMS;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a password against a stored hash in constant time; false for anything malformed. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEY_LENGTH || password.length > PASSWORD_MAX_LENGTH) return false;
  const key = await derive(password, salt, { N, r, p });
  return timingSafeEqual(key, expected);
}

/** Why a password is not acceptable, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `a password needs at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `a password has at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}

/** A password for an operator who did not choose one: 20 random characters. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

export function newApiToken(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function newSessionToken(): string {
  return SESSION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^wd[ns]_[A-Za-z0-9_-]{43}$/;

/** Whether a string has the shape of a Warden token (checked before any lookup). */
export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** What is stored for a token: the hex SHA-256 of it. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
