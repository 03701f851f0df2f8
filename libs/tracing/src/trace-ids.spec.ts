import { otelTraceId, publishSpanId } from './trace-ids.js';

describe('trace ids', () => {
  it("derive one OpenTelemetry trace id from a Warden trace_id, the same every time, and another from another", () => {
    const id = otelTraceId('3f1c9a52-7d55-4b8e-9d07-2a5c1f0e6b11');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(otelTraceId('3f1c9a52-7d55-4b8e-9d07-2a5c1f0e6b11')).toBe(id);
    expect(otelTraceId('3f1c9a52-7d55-4b8e-9d07-2a5c1f0e6b12')).not.toBe(id);
  });

  it('take a trace_id that already is a W3C trace id as it is, but not the invalid all-zero one', () => {
    expect(otelTraceId('4bf92f3577b34da6a3ce929d0e0e4736')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(otelTraceId('4BF92F3577B34DA6A3CE929D0E0E4736')).not.toBe('4BF92F3577B34DA6A3CE929D0E0E4736');
    expect(otelTraceId('0'.repeat(32))).not.toBe('0'.repeat(32));
    expect(otelTraceId('0'.repeat(32))).toMatch(/^[0-9a-f]{32}$/);
  });

  it("derive a message's publication span id from its id", () => {
    const id = publishSpanId('msg-1');
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(publishSpanId('msg-1')).toBe(id);
    expect(publishSpanId('msg-2')).not.toBe(id);
    // Not the trace id's digits: a message whose id is its trace_id gets unrelated ids for both.
    expect(otelTraceId('msg-1').startsWith(id)).toBe(false);
  });
});
