import { redactValue } from './redact.js';
import { newSealKeys, openSealed, publicHalfOf, seal, SealError, sealSecrets, unseal } from './sealed-secrets.js';

const KEYS = newSealKeys();

/** Texts with secrets of every pattern, some of them several in one text, some next to markers already there. */
const TEXTS = [
  'aws s3 ls --profile x AKIAIOSFODNN7EXAMPLE',
  'git clone https://ghp_1234567890abcdefghijklmnopqrstuvwxyzAB@github.com/o/r && GH=github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
  'export ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345 OPENAI_API_KEY="sk-proj-abcdefghijklmnopqrstuvwxyz123456"',
  'curl -H "Authorization: Bearer abc.def.ghi-jkl_mno" -d token=xoxb-1234567890-abcdefghij https://slack.com/api',
  'PGPASSWORD=hunter2hunter2 psql -h db; mysql --password s3cr3t-pw -u root; DATABASE_URL=postgres://warden:Sup3rS3cret@db:5432/warden',
  'echo "[REDACTED:aws_access_key] was here" AKIAIOSFODNN7EXAMPLE [REDACTED:x] sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  'cat > id_rsa <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ AKIAIOSFODNN7EXAMPLE\n-----END OPENSSH PRIVATE KEY-----\nEOF',
  'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U and ünïcödé 😀 AKIAIOSFODNN7EXAMPLE',
];

describe('sealed secrets', () => {
  it.each(TEXTS.map((text) => [text]))('stores %j redacted and opens it as it was', (command) => {
    const input = { command, description: `run ${command}` };
    const { value, sealed } = sealSecrets(input, KEYS.publicKey);
    expect(value).toEqual(redactValue(input).value);
    expect(sealed).toMatch(/^v1\./);
    expect(openSealed(value, sealed!, KEYS)).toEqual(input);
  });

  it('seals what the markers replaced, not the text around them', () => {
    const content = `${'x'.repeat(200_000)}\nAWS_KEY=AKIAIOSFODNN7EXAMPLE\n${'y'.repeat(200_000)}`;
    const { value, sealed } = sealSecrets({ file_path: '/work/app/config.txt', content }, KEYS.publicKey);
    expect(sealed!.length).toBeLessThan(500);
    expect(openSealed(value, sealed!, KEYS).content).toBe(content);
  });

  it('opens named secrets, nested arrays and a "__proto__" key', () => {
    const input = JSON.parse('{"env":{"API_KEY":"short","HOME":"/root"},"files":[{"content":"a"},{"content":"aws=AKIAIOSFODNN7EXAMPLE"}],"__proto__":{"password":"pw-1234"}}') as Record<string, unknown>;
    const { value, sealed } = sealSecrets(input, KEYS.publicKey);
    expect(JSON.stringify(value)).not.toMatch(/short|AKIAIOSFODNN7EXAMPLE|pw-1234/);
    const opened = openSealed(value, sealed!, KEYS);
    expect(JSON.stringify(opened)).toBe(JSON.stringify(input));
    expect(Object.hasOwn(opened, '__proto__')).toBe(true);
  });

  it('leaves a value without secrets as it is, with nothing sealed', () => {
    const input = { command: 'npm test -- --watch=false' };
    expect(sealSecrets(input, KEYS.publicKey)).toEqual({ value: input, counts: {} });
  });

  it('without a key, redacts and seals nothing', () => {
    const { value, sealed } = sealSecrets({ command: 'echo AKIAIOSFODNN7EXAMPLE' }, null);
    expect(value).toEqual({ command: 'echo [REDACTED:aws_access_key]' });
    expect(sealed).toBeUndefined();
  });

  it('seals each text anew: the same secret twice gives two different sealed texts', () => {
    expect(seal('AKIAIOSFODNN7EXAMPLE', KEYS.publicKey)).not.toBe(seal('AKIAIOSFODNN7EXAMPLE', KEYS.publicKey));
  });

  it('refuses to open with another key, or a damaged text, with the reason', () => {
    const sealed = seal('secret', KEYS.publicKey);
    expect(unseal(sealed, KEYS)).toBe('secret');
    expect(() => unseal(sealed, newSealKeys())).toThrow(/sealed for another key/);
    const [version, keyId, blob] = sealed.split('.') as [string, string, string];
    const bytes = Buffer.from(blob, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    const flipped = `${version}.${keyId}.${bytes.toString('base64url')}`;
    expect(() => unseal(flipped, KEYS)).toThrow(SealError);
    expect(() => unseal('v2.x.y', KEYS)).toThrow(/not a sealed text of v1/);
    expect(() => openSealed({ command: 'x' }, seal('not json', KEYS.publicKey), KEYS)).toThrow(/holds no redaction record/);
  });

  it('gives the public half of a private key', () => {
    expect(publicHalfOf(KEYS.privateKey)).toBe(KEYS.publicKey);
  });
});
