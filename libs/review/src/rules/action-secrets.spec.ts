import { SECRET_PATTERNS } from '@warden/secrets';
import { parseAction } from '../parsing/parsed-action.js';
import { MAY_MATCH, secretsOf } from './action-secrets.js';

/** The patterns MAY_MATCH was written for: a change to one of them must be checked against its words. */
const PINNED: Record<string, string> = {
  github_token: String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b`,
  gitlab_token: String.raw`\bglpat-[A-Za-z0-9_-]{20,}\b`,
  slack_token: String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}\b`,
  jwt: String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
  bearer_token: String.raw`(\b(?:Bearer|Basic|Token)\s+)([A-Za-z0-9._~+/=-]{8,})`,
  url_credentials: String.raw`(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(?=@)`,
  assigned_secret: String.raw`((?:^|[^A-Za-z0-9])[A-Za-z0-9_-]*?(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?)([^\s"'&;,}]{4,})`,
  flag_secret: String.raw`((?<![^\s"'(])--?[A-Za-z0-9_-]*?(?:password|passwd|secret|token|api[_-]?key)[= ]["']?)([^\s"']{4,})`,
};

const kindsIn = (command: string) => secretsOf(parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app')).kinds;

describe('the words the slow secret patterns need', () => {
  it('are written for the patterns as they are', () => {
    for (const kind of Object.keys(MAY_MATCH)) {
      expect([kind, SECRET_PATTERNS.find((p) => p.kind === kind)?.pattern.source]).toEqual([kind, PINNED[kind]]);
    }
  });

  it('hold for matches in any case', () => {
    const samples: [string, string][] = [
      ['bearer_token', 'curl -H "Authorization: BEARER abcdef123456789"'],
      ['bearer_token', 'TOKEN   zz99xxyy88ww'],
      ['url_credentials', 'git clone https://ann:s3cretpass@git.example.com/x.git'],
      ['assigned_secret', 'DB_PASSWORD=hunter22 npm start'],
      ['assigned_secret', 'export MY_API-KEY: abcd1234'],
      ['assigned_secret', 'PWD=/x/y; Client_Secret="abcd1234"'],
      ['flag_secret', 'mysql --PASSWORD=hunter22'],
      ['flag_secret', 'tool -api_key abcd1234'],
      ['github_token', 'git clone https://ghp_0123456789abcdefghijABCDEFGHIJ0123@github.com/o/r'],
      ['github_token', 'gh auth login --with-token <<< github_pat_11ABCDEFG0123456789_abcdefghij'],
      ['gitlab_token', 'curl -H "PRIVATE-TOKEN: glpat-abcdefghij0123456789" https://gitlab.com/api/v4/projects'],
      ['slack_token', 'SLACK=xoxb-1234567890-abcdefghij node bot.js'],
      ['jwt', 'curl -H "Authorization: eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4"'],
    ];
    for (const [kind, text] of samples) {
      const pattern = SECRET_PATTERNS.find((p) => p.kind === kind)!.pattern;
      pattern.lastIndex = 0;
      expect([kind, text, pattern.test(text)]).toEqual([kind, text, true]);
      pattern.lastIndex = 0;
      expect([kind, text, MAY_MATCH[kind]!(text.toLowerCase())]).toEqual([kind, text, true]);
    }
  });

  it('leave a long command without them unscanned and still find secrets in others', () => {
    const long = Array.from({ length: 50 }, (_, i) => `cd /work/app && npm run build -- --filter pkg-${i} 2>&1 | tail -20`).join('\n');
    expect(kindsIn(long)).toEqual([]);
    expect(kindsIn(`${long}\nexport DB_PASSWORD=hunter22`)).toEqual(['assigned_secret']);
    expect(kindsIn(`${long}\ncurl -H "Authorization: Bearer 0123456789abcdef"`)).toContain('bearer_token');
  });

  it('read a flag only where a word begins', () => {
    expect(kindsIn('mysql -u root --password hunter22 app')).toEqual(['flag_secret']);
    expect(kindsIn('python3 -c "print(1)" "--api-key=abcd1234"')).toContain('flag_secret');
    // A header's name in a comment or a description is no flag, and "header" is no value.
    expect(kindsIn("python3 -c \"# Try the x-goog-api-key header instead\nkey = os.environ['GEMINI_API_KEY']\"")).toEqual([]);
    expect(kindsIn('echo use the my-secret-token header')).toEqual([]);
  });
});

describe("Warden's redaction markers", () => {
  it('stand for a secret of their kind: an action whose seal could not be opened is judged as carrying it', () => {
    expect(kindsIn('curl -H "x-api-key: [REDACTED:anthropic_key]" https://api.example.com/v1/models')).toEqual(['anthropic_key']);
    expect(kindsIn('AWS_ACCESS_KEY_ID=[REDACTED:aws_access_key] aws s3 ls')).toEqual(['aws_access_key']);
    const named = secretsOf(parseAction({ kind: 'tool_use', tool: 'mcp__db__connect', input: { password: '[REDACTED:named_secret]' } }, '/work/app'));
    expect(named.kinds).toEqual(['named_secret']);
  });

  it('are not any bracketed text: a placeholder of another tool, or an unknown kind, is no secret', () => {
    expect(kindsIn('echo "API_KEY=[REDACTED]" >> .env.example')).toEqual([]);
    expect(kindsIn('echo "[REDACTED:something_else]"')).toEqual([]);
    // In file content, only the kinds whose shape alone identifies them.
    const write = (content: string) => secretsOf(parseAction({ kind: 'tool_use', tool: 'Write', input: { file_path: '/work/app/a.ts', content } }, '/work/app')).kinds;
    expect(write('const key = "[REDACTED:aws_access_key]";')).toEqual(['aws_access_key']);
    expect(write('password: "[REDACTED:assigned_secret]"')).toEqual([]);
  });
});

describe('file content in a patch', () => {
  // The patch's field differs by where it comes from: `input` in Codex's rollouts (a custom tool call, apps/cli
  // codex-rollout.ts), `command` from Codex's hook (libs/agent-edge codex-adapter.ts), `patchText` from OpenCode.
  const patch = (body: string, field = 'input') =>
    secretsOf(parseAction({ kind: 'tool_use', tool: 'apply_patch', input: { [field]: `*** Begin Patch\n*** Add File: .env.example\n${body}\n*** End Patch` } }, '/work/app')).kinds;

  it('is looked at as file content: only secrets whose shape alone identifies them', () => {
    expect(patch('+AI_API_KEY=replace_with_your_model_key\n+ADMIN_PASSWORD=password')).toEqual([]);
    expect(patch('+AI_API_KEY=你的_key', 'command')).toEqual([]);
    expect(patch('+DB_PASSWORD=hunter2hunter2', 'patchText')).toEqual([]);
    expect(patch('+GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz')).toEqual(['github_token']);
  });

  it('and a placeholder that says to replace it is no secret on a command line either', () => {
    expect(kindsIn('echo "AI_API_KEY=replace_with_your_model_key" >> .env.example')).toEqual([]);
    expect(kindsIn('echo "AI_API_KEY=sk3cr3t-v4lu3-9876" >> .env')).toEqual(['assigned_secret']);
  });

  it('nor is a value that says it stands in for tests', () => {
    expect(kindsIn('AI_API_KEY=test-key PORT=3001 npm run start')).toEqual([]);
    expect(kindsIn('STRIPE_SECRET=fake_secret pytest')).toEqual([]);
    // A login's failure tried on purpose (a public Claude Code session testing its own deployment).
    expect(kindsIn('curl -s -X POST http://3.19.25.92:5050/login -d "username=testuser&password=wrongpassword"')).toEqual([]);
    expect(kindsIn('curl -X POST https://api.example.com/login -d "password=wr0ngPa55-2024"')).toEqual(['assigned_secret']);
    expect(kindsIn('AI_API_KEY=test-key-7d9f2a PORT=3001 npm run start')).toEqual(['assigned_secret']);
  });
});
