import { Compile, type Validator } from 'typebox/compile';
import { definitionOf, type AnyMessage, type MessageType } from './catalog.js';
import { envelopeSchema } from './envelope.js';

export type RejectionReason = 'invalid_json' | 'schema_invalid' | 'unknown_type' | 'unsupported_version';

export interface SchemaError {
  path: string;
  message: string;
}

export type ValidationResult =
  | { ok: true; message: AnyMessage }
  | { ok: false; reason: RejectionReason; detail: string; type?: string; errors: SchemaError[] };

const MAX_REPORTED_ERRORS = 10;
const validators = new Map<string, Validator>();
const decoder = new TextDecoder('utf-8', { fatal: true });

function validatorFor(type: MessageType): Validator {
  let validator = validators.get(type);
  if (!validator) {
    validator = Compile(envelopeSchema(definitionOf(type)!)) as unknown as Validator;
    validators.set(type, validator);
  }
  return validator;
}

function fail(reason: RejectionReason, detail: string, type?: string, errors: SchemaError[] = []): ValidationResult {
  return { ok: false, reason, detail, type, errors };
}

/** Validates a decoded message against its type's schema: envelope, type, version and payload. */
export function validateMessage(value: unknown): ValidationResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('schema_invalid', 'a message must be a JSON object');
  }
  const { type, version } = value as { type?: unknown; version?: unknown };
  if (typeof type !== 'string') return fail('schema_invalid', '/type: required string is missing');
  const definition = definitionOf(type);
  if (!definition) return fail('unknown_type', `unknown message type "${type.slice(0, 128)}"`, type.slice(0, 128));
  if (version !== definition.version) {
    return fail(
      'unsupported_version',
      `${type} version ${JSON.stringify(version)} is not supported (expected ${definition.version})`,
      type,
    );
  }
  const validator = validatorFor(type as MessageType);
  if (validator.Check(value)) return { ok: true, message: value as AnyMessage };
  const errors = validator
    .Errors(value)
    .filter((e) => e.keyword !== 'boolean')
    .slice(0, MAX_REPORTED_ERRORS)
    .map((e) => ({ path: e.instancePath || '/', message: e.message }));
  return fail('schema_invalid', errors.map((e) => `${e.path}: ${e.message}`).join('; '), type, errors);
}

/** Decodes bytes as UTF-8 JSON and validates the message. */
export function parseMessage(data: Uint8Array | string): ValidationResult {
  let value: unknown;
  try {
    value = JSON.parse(typeof data === 'string' ? data : decoder.decode(data));
  } catch (error) {
    return fail('invalid_json', `not valid UTF-8 JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  return validateMessage(value);
}
