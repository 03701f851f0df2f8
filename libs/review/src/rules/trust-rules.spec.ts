import { tlsVerificationRule } from './trust-rules.js';
import { bashContext as bash, ruleContext as context } from './rule-context.fixture.js';

describe('tls_verification_disabled', () => {
  it.each([
    'npm config set strict-ssl false',
    'git config --global http.sslVerify false',
    'export NODE_TLS_REJECT_UNAUTHORIZED=0',
    'NODE_TLS_REJECT_UNAUTHORIZED=0 npm install',
    'pip install --trusted-host pypi.example.com requests',
  ])('asks for approval to turn certificate checks off: %s', (command) => {
    expect(tlsVerificationRule.evaluate(bash(command))?.verdict).toBe('require_approval');
  });

  it('finds the setting written into a file too', () => {
    expect(tlsVerificationRule.evaluate(context('Write', { file_path: '.npmrc', content: 'strict-ssl=false\n' }))?.verdict).toBe('require_approval');
  });

  it('warns about a single insecure request and leaves normal ones alone', () => {
    expect(tlsVerificationRule.evaluate(bash('curl -k https://localhost:8443/health'))?.verdict).toBe('warn');
    expect(tlsVerificationRule.evaluate(bash('curl -s https://example.com'))).toBeNull();
    expect(tlsVerificationRule.evaluate(bash('npm config set registry https://registry.npmjs.org'))).toBeNull();
  });
});
