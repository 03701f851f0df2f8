import { linkEvents, type Unchained } from './chain-links.js';
import { ChainVerifier, type ChainEntry } from './chain-verifier.js';
import { createHash } from 'node:crypto';
import { canonicalJson, canonicalTexts, chainHash, GENESIS_HASH, type HashedContent } from './event-hash.js';

function event(id: string, sessionId: string, at: number, payload: unknown = { n: id }): Unchained {
  return {
    id,
    type: 'action.proposed',
    version: 1,
    channel: 'action',
    sessionId,
    agentId: 'agent-1',
    traceId: `t-${id}`,
    causationId: null,
    occurredAt: new Date(at),
    payload,
    control: null,
    streamSequence: String(at),
    canonical: canonicalTexts(payload, null),
  };
}

function entries(events: Unchained[]): ChainEntry[] {
  return linkEvents(events, new Map()).chained.map((c) => ({ kind: 'event', chainSeq: c.chainSeq, prevHash: c.prevHash, hash: c.hash, content: c.event }));
}

function verify(list: ChainEntry[], head = { chainSeq: list.length, hash: list.at(-1)!.hash }) {
  const verifier = new ChainVerifier('s1');
  for (const e of list) verifier.add(e);
  return verifier.finish(head);
}

describe('canonicalJson', () => {
  it('gives the same text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }));
    expect(canonicalJson({ a: 1, skip: undefined })).toBe('{"a":1}');
  });

  it('writes every value as the definition does, also where the engine would order keys otherwise', () => {
    // Integer-like keys (the engine writes them first, in numeric order), `__proto__`, holes, functions.
    expect(canonicalJson({ b: 1, '10': 'x', '9': 'y', a: [] })).toBe('{"10":"x","9":"y","a":[],"b":1}');
    expect(canonicalJson(JSON.parse('{"z":1,"__proto__":{"k":2}}'))).toBe('{"__proto__":{"k":2},"z":1}');
    expect(canonicalJson([1, , undefined, { f: () => 1, g: 2 }])).toBe('[1,,null,{"f":null,"g":2}]');
    expect(canonicalJson({ s: 'é\u2028"\\\n', n: [NaN, -0, 1e21, Infinity], t: true })).toBe(definition({ s: 'é\u2028"\\\n', n: [NaN, -0, 1e21, Infinity], t: true }));
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const keys = ['a', 'B', 'b', '0', '01', '7', 'é', 'ß', '__proto__', 'toJSON', 'k\u0000', '😀', 'a b'];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return [null, 0, -1.5, 'x', '"q"\n', true, undefined][Math.floor(random() * 7)];
      if (r < 0.55) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return JSON.parse(JSON.stringify(Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, () => [keys[Math.floor(random() * keys.length)]!, value(depth + 1)]))) ?? 'null');
    };
    for (let i = 0; i < 2000; i++) {
      const v = value(0);
      expect(canonicalJson(v)).toBe(definition(v));
    }
  });
});

/** canonicalJson as first defined: every key sorted, written out by hand. */
function definition(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : definition(item))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .filter((key) => record[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${definition(record[key])}`);
  return `{${members.join(',')}}`;
}

describe('the content an event hash covers', () => {
  const stored: HashedContent = {
    id: 'm1',
    type: 'action.proposed',
    version: 1,
    channel: 'action',
    sessionId: 's1',
    agentId: 'agent-1',
    traceId: 't1',
    causationId: null,
    occurredAt: new Date('2026-11-21T10:00:00.000Z'),
    payload: { tool: 'Bash', input: { command: 'ls', '10': 'ten', '9': 'nine' }, list: [1, 'two', null, { b: true, a: 1.5 }] },
    control: { pause: false },
  };

  it('gives the hashes chains were stored with', () => {
    expect(chainHash(GENESIS_HASH, stored)).toBe('055d6ded5cf2aca3448115415ebef535028007846098520cfa9ffc077ab29ca7');
    expect(chainHash(GENESIS_HASH, { ...stored, control: null, causationId: 'c0' })).toBe('0bb9c1f07115a014c2f32c0381fa8a6181ab3b7b397d51fb1a7f7e12edf3e307');
  });

  it.each([
    ['a full event', stored],
    ['no control', { ...stored, control: null }],
    ['members left undefined', { ...stored, causationId: undefined, payload: undefined, control: undefined } as unknown as HashedContent],
  ])('covers the canonical JSON of the stored columns: %s', (_name, event) => {
    const whole = canonicalJson({
      id: event.id,
      type: event.type,
      version: event.version,
      channel: event.channel,
      session_id: event.sessionId,
      agent_id: event.agentId,
      trace_id: event.traceId,
      causation_id: event.causationId,
      occurred_at: event.occurredAt.toISOString(),
      payload: event.payload,
      control: event.control,
    });
    const expected = createHash('sha256').update(`${GENESIS_HASH}\n${whole}`).digest('hex');
    expect(chainHash(GENESIS_HASH, event)).toBe(expected);
    expect(chainHash(GENESIS_HASH, event, canonicalTexts(event.payload, event.control))).toBe(expected);
  });
});

describe('the hash chain of a session', () => {
  it('links events per session in time order, starting from the genesis hash', () => {
    const { chained, heads } = linkEvents([event('b', 's1', 2), event('x', 's2', 1), event('a', 's1', 1)], new Map());
    const s1 = chained.filter((c) => c.event.sessionId === 's1');
    expect(s1.map((c) => [c.event.id, c.chainSeq])).toEqual([['a', 1], ['b', 2]]);
    expect(s1[0]!.prevHash).toBe(GENESIS_HASH);
    expect(s1[1]!.prevHash).toBe(s1[0]!.hash);
    expect(heads.get('s1')).toEqual({ chainSeq: 2, hash: s1[1]!.hash });
    expect(heads.get('s2')!.chainSeq).toBe(1);
  });

  it('continues from the stored head of the session', () => {
    const first = linkEvents([event('a', 's1', 1)], new Map());
    const second = linkEvents([event('b', 's1', 2)], first.heads);
    expect(second.chained[0]!.chainSeq).toBe(2);
    expect(second.chained[0]!.prevHash).toBe(first.chained[0]!.hash);
  });

  it('holds when nothing was changed', () => {
    expect(verify(entries([event('a', 's1', 1), event('b', 's1', 2), event('c', 's1', 3)]))).toBeNull();
  });

  it('finds an altered event', () => {
    const list = entries([event('a', 's1', 1), event('b', 's1', 2), event('c', 's1', 3)]);
    (list[1] as { content: { payload: unknown } }).content.payload = { n: 'forged' };
    expect(verify(list)).toMatchObject({ chainSeq: 2, eventId: 'b', problem: 'altered' });
  });

  it('finds an altered event whose hash was recomputed, at the next link', () => {
    const list = entries([event('a', 's1', 1), event('b', 's1', 2), event('c', 's1', 3)]);
    const forged = list[1] as Extract<ChainEntry, { kind: 'event' }>;
    forged.content.payload = { n: 'forged' };
    forged.hash = chainHash(forged.prevHash, forged.content);
    expect(verify(list, { chainSeq: 3, hash: list[2]!.hash })).toMatchObject({ chainSeq: 3, eventId: 'c', problem: 'broken_link' });
  });

  it('finds a deleted event, also the newest one', () => {
    const list = entries([event('a', 's1', 1), event('b', 's1', 2), event('c', 's1', 3)]);
    const head = { chainSeq: 3, hash: list[2]!.hash };
    expect(verify([list[0]!, list[2]!], head)).toMatchObject({ chainSeq: 2, problem: 'missing' });
    expect(verify([list[0]!, list[1]!], head)).toMatchObject({ chainSeq: 3, problem: 'missing' });
  });

  it('accepts a tombstone retention left in place of a deleted event', () => {
    const list = entries([event('a', 's1', 1), event('b', 's1', 2)]);
    const tombstone: ChainEntry = { kind: 'tombstone', chainSeq: 1, prevHash: list[0]!.prevHash, hash: list[0]!.hash, eventId: 'a' };
    expect(verify([tombstone, list[1]!], { chainSeq: 2, hash: list[1]!.hash })).toBeNull();
  });
});
