import { isSubjectToken } from '@warden/contracts';
import { EdgeInputError } from '../edge-event.js';

// Reading the hook payloads of agents that do not copy Claude Code's format: each field checked, the error naming it.

export const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** The payload as an object: the gateway gives it parsed, the command hook as the text it read. */
export function payloadObject(payload: unknown): Record<string, unknown> {
  let value = payload;
  if (typeof payload === 'string') {
    try {
      value = JSON.parse(payload);
    } catch (error) {
      throw new EdgeInputError(`the payload is not JSON (${(error as Error).message})`);
    }
  }
  if (!isObject(value)) throw new EdgeInputError('the payload must be a JSON object');
  return value;
}

/** A string field that must be there. */
export function requiredText(raw: Record<string, unknown>, name: string): string {
  const value = raw[name];
  if (typeof value !== 'string' || !value) throw new EdgeInputError(`${name} must be a non-empty string`);
  return value;
}

/** A string field that may be missing or empty (undefined then), bounded. */
export function optionalText(raw: Record<string, unknown>, name: string, max = 4096): string | undefined {
  const value = raw[name];
  return typeof value === 'string' && value ? value.slice(0, max) : undefined;
}

/** The session id, from the first of `names` the payload has: it travels in NATS subjects and message ids. */
export function sessionIdOf(raw: Record<string, unknown>, ...names: string[]): string {
  const name = names.find((n) => typeof raw[n] === 'string' && raw[n]);
  if (!name) throw new EdgeInputError(`${names.join(' or ')} must be a non-empty string`);
  const id = raw[name] as string;
  if (!isSubjectToken(id)) throw new EdgeInputError(`${name} "${id.slice(0, 200)}" must be 1-128 letters, digits, - or _`);
  return id;
}

/** A tool's arguments: an object, or the JSON text of one (Copilot CLI's toolArgs, Cursor's MCP tool_input). */
export function argumentsOf(value: unknown, name: string): Record<string, unknown> {
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new EdgeInputError(`${name} is not JSON (${(error as Error).message})`);
    }
    if (isObject(parsed)) return parsed;
  }
  if (value === undefined || value === null || value === '') return {};
  throw new EdgeInputError(`${name} must be a JSON object or the JSON text of one`);
}

/** A non-negative number field (a duration), or undefined. */
export function optionalDuration(raw: Record<string, unknown>, name: string): number | undefined {
  const value = raw[name];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
