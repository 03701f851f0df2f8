import { createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { redactValue, undoRedaction, type Redaction, type ValueUndo } from './redact.js';

/**
 * The key pair secrets are sealed with: X25519, each half as the base64url of its 32 bytes. Agents hold
 * the public half only (they seal); the reviewer holds the private half (it opens what it judges).
 */
export interface SealKeys {
  publicKey: string;
  privateKey: string;
}

/** A value with its secrets redacted, and, when there were any and a key to seal them with, what they were, sealed. */
export interface SealedRedaction<T> extends Redaction<T> {
  sealed?: string;
}

/** Why a sealed text could not be opened: another key sealed it, or it was damaged. */
export class SealError extends Error {
  override readonly name = 'SealError';
}

const VERSION = 'v1';
const INFO = Buffer.from('warden sealed secrets v1');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

const rawOf = (key: KeyObject, half: 'x' | 'd') => key.export({ format: 'jwk' })[half] as string;
const publicKeyOf = (x: string) => createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x }, format: 'jwk' });
/** A short name of a public key, in each sealed text: a reviewer with another key says so instead of failing to decrypt. */
const keyIdOf = (publicKey: string) => publicKey.slice(0, 8);

export function newSealKeys(): SealKeys {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return { publicKey: rawOf(publicKey, 'x'), privateKey: rawOf(privateKey, 'd') };
}

/** The public half of a private key (base64url), for a store that lost it or a check of a pair. */
export function publicHalfOf(privateKey: string): string {
  return rawOf(createPublicKey(createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: privateKey, x: '' }, format: 'jwk' })), 'x');
}

function cipherKey(shared: Buffer, ephemeral: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, ephemeral, INFO, KEY_BYTES));
}

/** Encrypts a text for the holder of the private half of `publicKey` (an ephemeral key pair per text). */
export function seal(text: string, publicKey: string): string {
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralRaw = Buffer.from(rawOf(ephemeral.publicKey, 'x'), 'base64url');
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: publicKeyOf(publicKey) });
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(shared, ephemeralRaw), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${VERSION}.${keyIdOf(publicKey)}.${Buffer.concat([ephemeralRaw, iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The text `seal` encrypted, with the key pair it was sealed for; a SealError when it is not that. */
export function unseal(sealed: string, keys: SealKeys): string {
  const [version, keyId, blob] = sealed.split('.');
  if (version !== VERSION || blob === undefined) throw new SealError(`not a sealed text of ${VERSION}`);
  if (keyId !== keyIdOf(keys.publicKey)) throw new SealError(`sealed for another key (${keyId}; this one is ${keyIdOf(keys.publicKey)})`);
  const bytes = Buffer.from(blob, 'base64url');
  if (bytes.length < KEY_BYTES + IV_BYTES + TAG_BYTES) throw new SealError('a sealed text too short to hold anything');
  const ephemeralRaw = bytes.subarray(0, KEY_BYTES);
  const iv = bytes.subarray(KEY_BYTES, KEY_BYTES + IV_BYTES);
  const tag = bytes.subarray(KEY_BYTES + IV_BYTES, KEY_BYTES + IV_BYTES + TAG_BYTES);
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: keys.privateKey, x: keys.publicKey }, format: 'jwk' });
  const shared = diffieHellman({ privateKey, publicKey: publicKeyOf(ephemeralRaw.toString('base64url')) });
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(shared, ephemeralRaw), iv);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(bytes.subarray(KEY_BYTES + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealError('a sealed text that does not open with this key (damaged, or not made for it)');
  }
}

/**
 * Redacts a value's secrets as everywhere in Warden, and seals what each marker replaced for the holder
 * of `publicKey` (when there is one): what is stored shows `[REDACTED:…]`, and the reviewer, opening it
 * with `openSealed`, judges the value as it was. Only the replaced parts are sealed, so a large text with
 * one key in it adds the key, not the text, to the message.
 */
export function sealSecrets<T>(value: T, publicKey: string | null): SealedRedaction<T> {
  const undo: ValueUndo = [];
  const redaction = redactValue(value, {}, { undo });
  if (!undo.length || !publicKey) return redaction;
  return { ...redaction, sealed: seal(JSON.stringify(undo), publicKey) };
}

/** The value `sealSecrets` redacted, as it was: its markers replaced again by what they stood for. */
export function openSealed<T>(redacted: T, sealed: string, keys: SealKeys): T {
  let undo: ValueUndo;
  try {
    undo = JSON.parse(unseal(sealed, keys)) as ValueUndo;
  } catch (error) {
    throw error instanceof SealError ? error : new SealError('a sealed text that holds no redaction record');
  }
  let value: unknown = redacted;
  for (const [path, textUndo] of undo) value = replaceAt(value, path, (text) => undoRedaction(text, textUndo));
  return value as T;
}

/** A copy of `value` with the string at `path` replaced (copies along the path only); unchanged when no string is there. */
function replaceAt(value: unknown, path: readonly (string | number)[], change: (text: string) => string): unknown {
  if (!path.length) return typeof value === 'string' ? change(value) : value;
  if (value === null || typeof value !== 'object') return value;
  const [step, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    if (typeof step !== 'number' || step >= value.length) return value;
    const copy = value.slice();
    copy[step] = replaceAt(value[step], rest, change);
    return copy;
  }
  if (typeof step !== 'string' || !Object.hasOwn(value, step)) return value;
  const copy = { ...(value as Record<string, unknown>) };
  Object.defineProperty(copy, step, { value: replaceAt((value as Record<string, unknown>)[step], rest, change), enumerable: true, writable: true, configurable: true });
  return copy;
}
