import { encodeCursor, parseQueryRequest } from './query-request.js';

describe('audit query requests', () => {
  it('accepts a known query with its parameters and normalises times', () => {
    expect(parseQueryRequest('breaker_history', { breaker: 'cost', since: '2026-11-21' }, '20')).toEqual({
      query: 'breaker_history',
      params: { breaker: 'cost', since: '2026-11-21T00:00:00.000Z' },
      limit: 20,
      cursor: null,
    });
  });

  it('reads back its own cursors', () => {
    const cursor = encodeCursor({ at: '2026-11-21T10:00:00.000Z', key: '7' });
    expect(parseQueryRequest('incidents', {}, undefined, cursor).cursor).toEqual({ at: '2026-11-21T10:00:00.000Z', key: '7' });
  });

  it.each([
    ['nope', {}, undefined, undefined, 'unknown_query'],
    ['session_timeline', {}, undefined, undefined, 'missing_param: session_id'],
    ['session_timeline', { session_id: 'a b' }, undefined, undefined, 'invalid_param: session_id'],
    ['breaker_history', { breaker: 'fuse' }, undefined, undefined, 'invalid_param: breaker'],
    ['breaker_history', { colour: 'red' }, undefined, undefined, 'unknown_param: colour'],
    ['incidents', { since: 'yesterday' }, undefined, undefined, 'invalid_param: since'],
    ['incidents', { since: '2026-11-22', until: '2026-11-21' }, undefined, undefined, 'since is after until'],
    ['incidents', {}, '0', undefined, 'invalid_param: limit'],
    ['incidents', {}, '1001', undefined, 'invalid_param: limit'],
    ['incidents', {}, undefined, 'garbage', 'invalid_param: cursor'],
    ['cost_breakdown', {}, undefined, undefined, 'missing_param: one of'],
  ])('refuses %s %j limit=%s cursor=%s', (query, params, limit, cursor, reason) => {
    expect(() => parseQueryRequest(query, params, limit, cursor)).toThrow(reason);
  });
});
