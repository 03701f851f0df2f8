import { generatePassword, hashPassword, looksLikeToken, newApiToken, newSessionToken, passwordProblem, tokenDigest, verifyPassword } from './secrets.js';

describe('operator secrets', () => {
  it('hash a password with a fresh salt and verify it', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toEqual(b);
    expect(a).not.toContain('correct horse battery');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse battery!', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('refuse malformed or outrageous stored hashes instead of throwing', async () => {
    for (const stored of ['', 'plain', 'scrypt$1$1$1$x$y', `scrypt$${2 ** 30}$8$1$AAAA$${'A'.repeat(43)}`, 'bcrypt$10$abc']) {
      expect(await verifyPassword('whatever password', stored)).toBe(false);
    }
  });

  it('ask for passwords of a reasonable length', () => {
    expect(passwordProblem('short')).toMatch(/at least 12/);
    expect(passwordProblem('long enough password')).toBeNull();
    expect(passwordProblem(generatePassword())).toBeNull();
  });

  it('issue 256-bit tokens with a prefix per kind, stored as their SHA-256', () => {
    const api = newApiToken();
    const session = newSessionToken();
    expect(api).toMatch(/^wdn_[A-Za-z0-9_-]{43}$/);
    expect(session).toMatch(/^wds_[A-Za-z0-9_-]{43}$/);
    expect(looksLikeToken(api) && looksLikeToken(session)).toBe(true);
    expect(looksLikeToken('wdn_short')).toBe(false);
    expect(looksLikeToken(`Bearer ${api}`)).toBe(false);
    expect(tokenDigest(api)).toMatch(/^[a-f0-9]{64}$/);
    expect(tokenDigest(api)).not.toEqual(tokenDigest(newApiToken()));
  });
});
