import { MESSAGE_DEFINITIONS, type MessageDefinition } from './index.js';
import { exampleMessage, parseMessage, validateMessage } from './index.js';

const proposed = () => exampleMessage(MESSAGE_DEFINITIONS[0] as MessageDefinition);

describe('message validation', () => {
  it.each(MESSAGE_DEFINITIONS.map((d) => [d.type, d] as const))('accepts the example of %s', (_type, definition) => {
    const result = validateMessage(exampleMessage(definition as MessageDefinition));
    expect(result).toEqual(expect.objectContaining({ ok: true }));
  });

  it('rejects bytes that are not JSON', () => {
    const result = parseMessage('{"id": "x",');
    expect(result).toMatchObject({ ok: false, reason: 'invalid_json' });
  });

  it('rejects bytes that are not UTF-8', () => {
    const result = parseMessage(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    expect(result).toMatchObject({ ok: false, reason: 'invalid_json' });
  });

  it('names the failing path of a wrong payload', () => {
    const message = proposed();
    (message.payload as Record<string, unknown>).tool = 42;
    const result = validateMessage(message);
    expect(result).toMatchObject({ ok: false, reason: 'schema_invalid', type: 'action.proposed' });
    expect(!result.ok && result.detail).toContain('/payload/tool');
  });

  it('rejects a message without a type', () => {
    const { type: _type, ...message } = proposed();
    expect(validateMessage(message)).toMatchObject({ ok: false, reason: 'schema_invalid' });
  });

  it('rejects an unknown type', () => {
    expect(validateMessage({ ...proposed(), type: 'action.teleported' })).toMatchObject({
      ok: false,
      reason: 'unknown_type',
      type: 'action.teleported',
    });
  });

  it('rejects a version it does not support', () => {
    expect(validateMessage({ ...proposed(), version: 2 })).toMatchObject({ ok: false, reason: 'unsupported_version' });
  });

  it('rejects unknown envelope fields', () => {
    expect(validateMessage({ ...proposed(), priority: 'urgent' })).toMatchObject({ ok: false, reason: 'schema_invalid' });
  });

  it('rejects a session id that is not one subject token', () => {
    expect(validateMessage({ ...proposed(), session_id: 'sess.1' })).toMatchObject({
      ok: false,
      reason: 'schema_invalid',
    });
  });

  it('rejects a timestamp that is not ISO 8601', () => {
    expect(validateMessage({ ...proposed(), timestamp: 'yesterday' })).toMatchObject({ ok: false, reason: 'schema_invalid' });
  });

  it('accepts the optional hitl_required control flag', () => {
    expect(validateMessage({ ...proposed(), control: { hitl_required: true } })).toMatchObject({ ok: true });
    expect(validateMessage({ ...proposed(), control: { hitl_required: 'yes' } })).toMatchObject({ ok: false });
  });
});
