import { createMessage, EXAMPLE_PAYLOADS, type MessageOf } from '@warden/contracts';
import { checkCommandMessage, checkHitlCommand, REQUIRED_FIELDS } from './hitl-command.js';

const at = '2026-11-21T10:00:00Z';
const base = { session_id: 'sess-abc', agent_id: 'agent-1', operator_id: 'operator-xander', timestamp: at };
const complete = {
  hitl_pause: { ...base, type: 'hitl_pause', reason: 'Inspect the migration' },
  hitl_rewrite: { ...base, type: 'hitl_rewrite', original_trace_id: '5d0c7f8e-4a3b-4f1e-9c2d-7b6a5e4d3c2b', new_content: '{"command":"ls"}' },
  hitl_inject: { ...base, type: 'hitl_inject', prompt: 'Stop and summarise.' },
  hitl_unpause: { ...base, type: 'hitl_unpause' },
} as const;

describe('checkHitlCommand (FR-11.4)', () => {
  it.each(Object.entries(complete))('accepts a complete %s', (_type, command) => {
    expect(checkHitlCommand(command)).toMatchObject({ ok: true, command: { type: command.type, session_id: 'sess-abc', agent_id: 'agent-1' } });
  });

  const cases = Object.entries(REQUIRED_FIELDS).flatMap(([type, fields]) => fields.map((field) => [type, field] as const));
  it.each(cases)('refuses %s without %s', (type, field) => {
    const command: Record<string, unknown> = { ...complete[type as keyof typeof complete] };
    delete command[field];
    expect(checkHitlCommand(command)).toEqual({ ok: false, reason: `missing_required_field: ${field}` });
  });

  it('treats blank values as missing', () => {
    expect(checkHitlCommand({ ...complete.hitl_pause, reason: '   ' })).toEqual({ ok: false, reason: 'missing_required_field: reason' });
    expect(checkHitlCommand({ ...complete.hitl_pause, operator_id: null })).toEqual({ ok: false, reason: 'missing_required_field: operator_id' });
  });

  it('refuses a type that is not one of the four', () => {
    expect(checkHitlCommand({ ...complete.hitl_pause, type: 'hitl_resume' })).toEqual({ ok: false, reason: 'unknown_command_type' });
    expect(checkHitlCommand({ ...complete.hitl_pause, type: 42 })).toEqual({ ok: false, reason: 'unknown_command_type' });
  });

  it('refuses malformed values', () => {
    expect(checkHitlCommand({ ...complete.hitl_pause, timestamp: '2026-11-21 10:00' })).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid_field: timestamp/) });
    expect(checkHitlCommand({ ...complete.hitl_pause, timestamp: '2026-13-45T10:00:00Z' })).toMatchObject({ ok: false });
    expect(checkHitlCommand({ ...complete.hitl_pause, session_id: 'a.b' })).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid_field: session_id/) });
    expect(checkHitlCommand({ ...complete.hitl_inject, prompt: 7 })).toMatchObject({ ok: false, reason: 'invalid_field: prompt (must be a string)' });
    expect(checkHitlCommand({ ...complete.hitl_inject, prompt: 'x'.repeat(16_001) })).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid_field: prompt/) });
    expect(checkHitlCommand([])).toEqual({ ok: false, reason: 'body_must_be_a_json_object' });
  });

  it('accepts the unpause extensions: resolution, request, conditions, and a rewrite carried along', () => {
    expect(checkHitlCommand({ ...complete.hitl_unpause, resolution: 'reject', prompt: 'No.' })).toMatchObject({ ok: true, command: { resolution: 'reject', prompt: 'No.' } });
    expect(checkHitlCommand({ ...complete.hitl_unpause, request_id: 'req-1', conditions: [' backup first '] })).toMatchObject({
      ok: true,
      command: { request_id: 'req-1', conditions: ['backup first'] },
    });
    expect(checkHitlCommand({ ...complete.hitl_unpause, original_trace_id: 't-1', new_content: '{}' })).toMatchObject({ ok: true, command: { original_trace_id: 't-1' } });
  });

  it('refuses inconsistent unpause extensions', () => {
    expect(checkHitlCommand({ ...complete.hitl_unpause, resolution: 'maybe' })).toMatchObject({ ok: false });
    expect(checkHitlCommand({ ...complete.hitl_unpause, original_trace_id: 't-1' })).toEqual({ ok: false, reason: 'missing_required_field: new_content' });
    expect(checkHitlCommand({ ...complete.hitl_unpause, resolution: 'reject', conditions: ['x'] })).toMatchObject({ ok: false });
    expect(checkHitlCommand({ ...complete.hitl_unpause, resolution: 'reject', original_trace_id: 't', new_content: '{}' })).toMatchObject({ ok: false });
  });

  it('takes an emergency stop on a pause only', () => {
    expect(checkHitlCommand({ ...complete.hitl_pause, stop_agent: true })).toMatchObject({ ok: true, command: { type: 'hitl_pause', stop_agent: true } });
    expect(checkHitlCommand({ ...complete.hitl_pause, stop_agent: false })).toMatchObject({ ok: true, command: { type: 'hitl_pause' } });
    expect((checkHitlCommand({ ...complete.hitl_pause, stop_agent: false }) as { command: object }).command).not.toHaveProperty('stop_agent');
    expect(checkHitlCommand({ ...complete.hitl_pause, stop_agent: 'yes' })).toEqual({ ok: false, reason: 'invalid_field: stop_agent (true or false)' });
    expect(checkHitlCommand({ ...complete.hitl_unpause, stop_agent: true })).toEqual({ ok: false, reason: 'invalid_field: stop_agent (only a pause stops the agent)' });
  });
});

describe('a gate.command from the bus', () => {
  const message = (payload: Partial<MessageOf<'gate.command'>['payload']>) =>
    createMessage('gate.command', { session_id: 'sess-abc', agent_id: 'agent-1', payload: { ...EXAMPLE_PAYLOADS['gate.command'], ...payload } as MessageOf<'gate.command'>['payload'] });

  it('is checked by the same rules as a request to the API', () => {
    const pause = checkCommandMessage(message({ command_type: 'hitl_pause', operator_id: 'op', reason: 'look' }));
    expect(pause).toMatchObject({ ok: true, command: { type: 'hitl_pause', session_id: 'sess-abc', agent_id: 'agent-1', operator_id: 'op', reason: 'look' } });
    expect(checkCommandMessage(message({ command_type: 'hitl_rewrite', operator_id: 'op', original_trace_id: undefined, new_content: undefined }))).toMatchObject({ ok: false });
  });
});
