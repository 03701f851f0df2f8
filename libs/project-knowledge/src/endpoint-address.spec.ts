import { addressesIn, addressOf, joinUrl } from './endpoint-address.js';
import { containsPhrase, wordsOf } from './wording.js';

describe('endpoint addresses', () => {
  it('compares loopback names and default ports as one', () => {
    expect(addressOf('http://127.0.0.1:3000/json')?.hostPort).toBe('localhost:3000');
    expect(addressOf('localhost:3000/health')?.hostPort).toBe('localhost:3000');
    expect(addressOf('http://[::1]:9222')?.hostPort).toBe('localhost:9222');
    expect(addressOf('https://API.example.com/v1')).toEqual({ host: 'api.example.com', port: 443, hostPort: 'api.example.com:443', local: false });
    expect(addressOf('not a url')).toBeUndefined();
    expect(addressOf('localhost:99999')).toBeUndefined();
  });

  it('finds the addresses an error message names, and not the positions of a stack trace', () => {
    const found = addressesIn('Failed to connect to Playwright server at localhost:3000 ECONNREFUSED\n    at Object.<anonymous> (/work/app/tests/a.spec.ts:12:5)');
    expect(found).toEqual([{ address: expect.objectContaining({ hostPort: 'localhost:3000' }), url: 'http://localhost:3000' }]);
    expect(addressesIn('connect ECONNREFUSED 127.0.0.1:5432; see https://db.internal:8443/status.').map((a) => a.url)).toEqual([
      'https://db.internal:8443/status',
      'http://127.0.0.1:5432',
    ]);
    expect(addressesIn('Timeout 30000ms exceeded at 10:30:12')).toEqual([]);
  });

  it('joins a health check to its endpoint', () => {
    expect(joinUrl('http://localhost:9222/', '/json/version')).toBe('http://localhost:9222/json/version');
    expect(joinUrl('http://localhost:9222', undefined)).toBe('http://localhost:9222');
  });
});

describe('phrase matching', () => {
  it('ignores case, punctuation and word endings, and keeps the order', () => {
    expect(containsPhrase(wordsOf('npx  Playwright install chromium'), wordsOf('playwright install'))).toBe(true);
    expect(containsPhrase(wordsOf('Installing the browsers for Playwright'), wordsOf('install playwright browsers'))).toBe(false);
    expect(containsPhrase(wordsOf('Install Playwright browser binaries'), wordsOf('install playwright browsers'))).toBe(true);
    expect(containsPhrase(wordsOf('install a b c dependency'), wordsOf('install dependencies'))).toBe(true);
    expect(containsPhrase(wordsOf('install a b c d dependency'), wordsOf('install dependencies'))).toBe(false);
  });
});
