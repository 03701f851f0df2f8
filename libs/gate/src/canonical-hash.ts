import { createHash } from 'node:crypto';
import { canonicalJson } from '@warden/contracts';

/** SHA-256 (hex) of a value's canonical JSON: the before/after state of an intervention (FR-11.7). */
export function stateHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
