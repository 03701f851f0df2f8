import { countRedactions, redactForStorage, redactText, redactValue, totalRedactions } from './redact.js';

const SECRETS: [string, string, string][] = [
  ['aws access key', 'aws s3 ls --profile x AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
  ['github token', 'git clone https://ghp_1234567890abcdefghijklmnopqrstuvwxyzAB@github.com/o/r', 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB'],
  ['fine-grained github token', 'GH=github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop'],
  ['anthropic key', 'export ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
  ['openai key', 'OPENAI_API_KEY="sk-proj-abcdefghijklmnopqrstuvwxyz123456"', 'sk-proj-abcdefghijklmnopqrstuvwxyz123456'],
  ['stripe key', 'stripe.api_key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
  ['slack token', 'curl -d token=xoxb-1234567890-abcdefghij https://slack.com/api', 'xoxb-1234567890-abcdefghij'],
  ['bearer header', 'curl -H "Authorization: Bearer abc.def.ghi-jkl_mno" https://api', 'abc.def.ghi-jkl_mno'],
  ['password assignment', 'PGPASSWORD=hunter2hunter2 psql -h db', 'hunter2hunter2'],
  ['json password', '{"user":"app","password":"correct-horse-battery"}', 'correct-horse-battery'],
  ['password flag', 'mysql --password s3cr3t-pw -u root', 's3cr3t-pw'],
  ['url credentials', 'DATABASE_URL=postgres://warden:Sup3rS3cret@db:5432/warden', 'Sup3rS3cret'],
  ['jwt', 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'eyJhbGciOiJIUzI1NiJ9'],
  [
    'private key',
    'cat > id_rsa <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\nEOF',
    'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ',
  ],
];

describe('redactText', () => {
  it.each(SECRETS)('removes a %s', (_name, text, secret) => {
    const { value, counts } = redactText(text);
    expect(value).not.toContain(secret);
    expect(value).toContain('[REDACTED:');
    expect(totalRedactions(counts)).toBeGreaterThan(0);
  });

  it.each([
    'npm test -- --watch=false',
    'git commit -m "Fix the token parser"',
    'cat src/auth/password-policy.ts',
    'ls -la /work/app',
  ])('leaves ordinary commands alone: %s', (text) => {
    expect(redactText(text)).toEqual({ value: text, counts: {} });
  });

  it('keeps the key so that a reader knows what was there', () => {
    expect(redactText('PGPASSWORD=hunter2hunter2 psql').value).toBe('PGPASSWORD=[REDACTED:assigned_secret] psql');
  });
});

describe('redactValue', () => {
  it('redacts inside nested tool inputs and named secret fields, without touching the input', () => {
    const input = {
      command: 'curl -H "Authorization: Bearer abcdefghijklmnop" https://x',
      env: { API_KEY: 'short', HOME: '/root' },
      files: [{ content: 'aws_secret=AKIAIOSFODNN7EXAMPLE' }],
    };
    const { value, counts } = redactValue(input);
    expect(JSON.stringify(value)).not.toMatch(/abcdefghijklmnop|AKIAIOSFODNN7EXAMPLE|"short"/);
    expect(value.env.HOME).toBe('/root');
    expect(counts.named_secret).toBe(1);
    expect(input.env.API_KEY).toBe('short');
  });

  it('copies only what held a secret, and keeps a "__proto__" key a key', () => {
    const input = JSON.parse('{"tool":{"name":"Bash","args":["ls"]},"env":{"TOKEN":"abcdefgh"},"__proto__":{"password":"hunter2hunter2"}}') as Record<string, any>;
    const { value } = redactValue(input);
    expect(value.tool).toBe(input.tool);
    expect(value.env).toEqual({ TOKEN: '[REDACTED:named_secret]' });
    expect(Object.keys(value)).toEqual(['tool', 'env', '__proto__']);
    expect(JSON.stringify(value)).toBe('{"tool":{"name":"Bash","args":["ls"]},"env":{"TOKEN":"[REDACTED:named_secret]"},"__proto__":{"password":"[REDACTED:named_secret]"}}');
    expect(input.env.TOKEN).toBe('abcdefgh');
  });
});

describe('redactForStorage: what Warden stores or shows after the reviewer', () => {
  it('redacts every secret of an action, and keeps the input the agent is told to run as given', () => {
    const verdict = {
      action: { tool: 'Bash', input: { command: 'AWS_ACCESS_KEY_ID=AKIAQ7ZR2XW5TLMN3KPD aws s3 ls' } },
      reasons: ['Credential in the command: ANTHROPIC_API_KEY=sk-ant-api03-Zq8vN2xW4kL7mP9rT1yB3cF6hJ0dG5sA8eU2iO4wR7t'],
      modified_input: { command: 'aws s3 ls --profile AKIAQ7ZR2XW5TLMN3KPD' },
    };
    const stored = redactForStorage(verdict);
    expect(stored.action.input.command).toBe('AWS_ACCESS_KEY_ID=[REDACTED:aws_access_key] aws s3 ls');
    expect(stored.reasons[0]).not.toContain('sk-ant-');
    expect(stored.modified_input).toBe(verdict.modified_input);
    expect(verdict.action.input.command).toContain('AKIAQ7ZR2XW5TLMN3KPD');
  });
});

describe('countRedactions', () => {
  it('counts the markers a redaction left, by kind, anywhere in a value', () => {
    const { value } = redactValue({ command: 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws s3 ls', env: [{ password: 'pw-1234' }], note: 'no secret' });
    expect(countRedactions(value)).toEqual({ aws_access_key: 1, named_secret: 1 });
    expect(countRedactions({ text: 'nothing here', n: 3, nested: [null, true] })).toEqual({});
  });
});
