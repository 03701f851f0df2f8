import { CREDENTIAL_STORE_TEXT, CREDENTIAL_STORES, credentialStoreExamples, isCredentialStorePath, mayNameCredentialStore } from './credential-stores.js';

describe('the credential-store table', () => {
  it('matches one real path of every entry, under a Linux, a macOS and a Windows home', () => {
    for (const home of ['/home/ann', '/users/ann', 'c:/users/ann']) {
      for (const path of credentialStoreExamples(home)) {
        expect({ path, store: isCredentialStorePath(path) }).toEqual({ path, store: true });
        expect({ path, hint: mayNameCredentialStore(path) }).toEqual({ path, hint: true });
        expect({ path, text: CREDENTIAL_STORE_TEXT.test(` ${path} `) }).toEqual({ path, text: true });
      }
    }
  });

  it('names a holder and the systems of every entry', () => {
    for (const entry of CREDENTIAL_STORES) {
      expect(entry.holder).not.toBe('');
      expect(entry.platforms.length).toBeGreaterThan(0);
    }
  });

  it.each([
    '/home/ann/.ssh/id_ed25519.pub',
    '/home/ann/.ssh/known_hosts',
    '/home/ann/.codex/config.toml',
    '/home/ann/.claude/settings.json',
    '/home/ann/project/.npmrc',
    '/home/ann/project/src/auth.json',
    '/home/ann/.config/gh/config.yml',
    '/etc/kubernetes/manifests/kube-apiserver.yaml',
  ])('is not a credential store: %s', (path) => {
    expect(isCredentialStorePath(path)).toBe(false);
  });

  it('finds a store whatever the path separator or the way the home is written', () => {
    for (const text of ['Get-Content $env:USERPROFILE\\.codex\\auth.json', 'type %USERPROFILE%\\.config\\gh\\hosts.yml', 'tar czf k.tgz ~/.config/solana/id.json', 'cat /etc/kubernetes/admin.conf']) {
      expect({ text, named: CREDENTIAL_STORE_TEXT.test(text) }).toEqual({ text, named: true });
    }
    expect(CREDENTIAL_STORE_TEXT.test('cat ~/.ssh/id_rsa.pub')).toBe(false);
    expect(CREDENTIAL_STORE_TEXT.test('cat ~/.codex/auth.json.example')).toBe(false);
  });
});
