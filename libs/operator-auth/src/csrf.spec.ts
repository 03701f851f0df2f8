import { csrfTokenFor, csrfTokenMatches, sameOrigin } from './csrf.js';
import { newSessionToken } from './secrets.js';

describe('CSRF defence', () => {
  it('derives a per-session token that only fits its own session', () => {
    const a = newSessionToken();
    const b = newSessionToken();
    expect(csrfTokenFor(a)).toEqual(csrfTokenFor(a));
    expect(csrfTokenMatches(a, csrfTokenFor(a))).toBe(true);
    expect(csrfTokenMatches(a, csrfTokenFor(b))).toBe(false);
    expect(csrfTokenMatches(a, undefined)).toBe(false);
    expect(csrfTokenMatches(a, '')).toBe(false);
    expect(csrfTokenMatches(a, csrfTokenFor(a).slice(1))).toBe(false);
  });

  it('accepts requests from the console origin only', () => {
    expect(sameOrigin({ host: '127.0.0.1:3108', origin: 'http://127.0.0.1:3108' })).toBe(true);
    expect(sameOrigin({ host: '127.0.0.1:3108', referer: 'http://127.0.0.1:3108/approvals' })).toBe(true);
    expect(sameOrigin({ host: '127.0.0.1:3108', origin: 'http://evil.example' })).toBe(false);
    expect(sameOrigin({ host: '127.0.0.1:3108', origin: 'http://127.0.0.1:3109' })).toBe(false);
    expect(sameOrigin({ host: '127.0.0.1:3108', origin: 'null' })).toBe(false);
    expect(sameOrigin({ host: '127.0.0.1:3108' })).toBe(false);
    expect(sameOrigin({ origin: 'http://127.0.0.1:3108' })).toBe(false);
    expect(sameOrigin({ host: '127.0.0.1:3108', referer: 'not a url' })).toBe(false);
  });
});
