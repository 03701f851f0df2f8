import { hash } from 'node:crypto';

/** The hash a session's chain starts from (the "previous hash" of its first event). */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash of a stored event covers: everything the event said, as stored (secrets redacted). */
export interface HashedContent {
  id: string;
  type: string;
  version: number;
  channel: string;
  sessionId: string;
  agentId: string;
  traceId: string;
  causationId: string | null;
  occurredAt: Date;
  payload: unknown;
  control: unknown;
}

/**
 * JSON with object keys sorted, so that the same value always gives the same text: PostgreSQL's jsonb
 * does not keep key order, and the verifier hashes what it reads back. A copy with its keys inserted in
 * sorted order is written by the engine's JSON.stringify (three times faster than writing it out here,
 * and every stored event is written so); a value where that would differ is written out by hand: an
 * object with integer-like keys (the engine puts them first, in numeric order) or a `__proto__` key, an
 * array with holes.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const sorted = sortedCopy(value);
  return sorted === UNSORTABLE ? writtenOut(value) : JSON.stringify(sorted);
}

/** A key the engine would not keep in insertion order (an array index) or not as an own property. */
const ENGINE_ORDERED_KEY = /^(?:0|[1-9]\d*)$|^__proto__$/;
const UNSORTABLE = Symbol('unsortable');

/** A copy of JSON data whose objects have their keys in sorted order, or UNSORTABLE. */
function sortedCopy(value: unknown): unknown {
  // The engine leaves out a function's or a symbol's key, where the written-out form writes null.
  if (typeof value === 'function' || typeof value === 'symbol') return UNSORTABLE;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return UNSORTABLE;
      const item = sortedCopy(value[i]);
      if (item === UNSORTABLE) return UNSORTABLE;
      copy[i] = item;
    }
    return copy;
  }
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of sortedKeys(record)) {
    if (ENGINE_ORDERED_KEY.test(key)) return UNSORTABLE;
    const item = sortedCopy(record[key]);
    if (item === UNSORTABLE) return UNSORTABLE;
    copy[key] = item;
  }
  return copy;
}

/** canonicalJson written out by hand: the definition, for what the engine cannot write in sorted order. */
function writtenOut(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // As Array.prototype.join leaves it: a hole of a sparse array is empty, an undefined item null.
      out += `${i ? ',' : ''}${item === undefined ? (i in value ? 'null' : '') : writtenOut(item)}`;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const key of sortedKeys(record)) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${writtenOut(item)}`;
    first = false;
  }
  return `${out}}`;
}

/** The canonical JSON of an event's payload and control: made once, for its hash and for the store. */
export interface CanonicalTexts {
  payloadJson: string;
  controlJson: string;
}

export function canonicalTexts(payload: unknown, control: unknown): CanonicalTexts {
  return { payloadJson: canonicalJson(payload), controlJson: canonicalJson(control) };
}

/** The keys in the order Array.prototype.sort gives, sorted in place: objects have few keys, and sort() copies. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * sha256(previous hash, newline, canonical content): changing any stored field or the order breaks it.
 * The content is what canonicalJson writes for {id, type, version, channel, session_id, agent_id,
 * trace_id, causation_id, occurred_at, payload, control}, here put together from its members in sorted
 * key order (undefined ones left out) around the payload's and control's texts.
 */
export function chainHash(previousHash: string, event: HashedContent, texts: CanonicalTexts = canonicalTexts(event.payload, event.control)): string {
  let separator = '';
  const member = (key: string, value: unknown, text?: string) => {
    if (value === undefined) return '';
    const written = `${separator}"${key}":${text ?? canonicalJson(value)}`;
    separator = ',';
    return written;
  };
  const members =
    member('agent_id', event.agentId) +
    member('causation_id', event.causationId) +
    member('channel', event.channel) +
    member('control', event.control, texts.controlJson) +
    member('id', event.id) +
    member('occurred_at', event.occurredAt.toISOString()) +
    member('payload', event.payload, texts.payloadJson) +
    member('session_id', event.sessionId) +
    member('trace_id', event.traceId) +
    member('type', event.type) +
    member('version', event.version);
  return hash('sha256', `${previousHash}\n{${members}}`, 'hex');
}
