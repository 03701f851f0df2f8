import { cookieValue, operatorHeaderProblem, presentedCredential } from './credentials.js';
import { newApiToken, newSessionToken } from './secrets.js';

describe('presented credentials', () => {
  const token = newApiToken();

  it('take a bearer token', () => {
    expect(presentedCredential({ authorization: `Bearer ${token}` })).toEqual({ ok: true, token, via: 'bearer' });
    expect(presentedCredential({ authorization: `bearer   ${token}` })).toEqual({ ok: true, token, via: 'bearer' });
  });

  it('refuse other schemes and things that are not Warden tokens', () => {
    for (const authorization of [`Basic ${token}`, 'Bearer', `Bearer ${token} extra`, 'Bearer abc', token]) {
      expect(presentedCredential({ authorization })).toEqual({ ok: false, reason: 'malformed_authorization' });
    }
  });

  it('say credentials are missing when only the operator header is there', () => {
    expect(presentedCredential({ operatorId: 'operator-xander' })).toEqual({ ok: false, reason: 'missing_credentials' });
    expect(presentedCredential({})).toEqual({ ok: false, reason: 'missing_credentials' });
  });

  it('read the session cookie only where a cookie is accepted, the bearer header first', () => {
    const session = newSessionToken();
    const cookie = `theme=dark; warden_session=${session}; other=1`;
    expect(presentedCredential({ cookie })).toEqual({ ok: false, reason: 'missing_credentials' });
    expect(presentedCredential({ cookie }, { cookie: 'warden_session' })).toEqual({ ok: true, token: session, via: 'cookie' });
    expect(presentedCredential({ cookie, authorization: `Bearer ${token}` }, { cookie: 'warden_session' })).toEqual({ ok: true, token, via: 'bearer' });
    expect(presentedCredential({ cookie: 'warden_session=forged' }, { cookie: 'warden_session' })).toEqual({ ok: false, reason: 'invalid_token' });
  });

  it('parse cookies', () => {
    expect(cookieValue('a=1; b = 2 ;c=3=4', 'b')).toBe('2');
    expect(cookieValue('a=1; c=3=4', 'c')).toBe('3=4');
    expect(cookieValue(undefined, 'a')).toBeUndefined();
    expect(cookieValue('novalue', 'novalue')).toBeUndefined();
  });
});

describe('the X-Observatory-Operator-Id rule', () => {
  it('accepts no header, a blank one, or the authenticated operator', () => {
    expect(operatorHeaderProblem('operator-xander', undefined)).toBeNull();
    expect(operatorHeaderProblem('operator-xander', '   ')).toBeNull();
    expect(operatorHeaderProblem('operator-xander', ' operator-xander ')).toBeNull();
  });

  it('refuses a header naming someone else', () => {
    expect(operatorHeaderProblem('operator-xander', 'admin')).toBe('operator_id_mismatch');
    expect(operatorHeaderProblem('operator-xander', ['admin', 'operator-xander'])).toBe('operator_id_mismatch');
  });
});
