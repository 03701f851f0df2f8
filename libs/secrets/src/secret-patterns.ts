/** A kind of secret and how to find it in free text. */
export interface SecretPattern {
  kind: string;
  pattern: RegExp;
  /** Replace only the last capture group (the value), keeping the key or prefix before it. */
  valueGroup?: number;
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private_key',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  },
  { kind: 'aws_access_key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'github_token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
  { kind: 'gitlab_token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { kind: 'slack_token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g },
  { kind: 'stripe_key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'anthropic_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_key', pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'npm_token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer_token', pattern: /(\b(?:Bearer|Basic|Token)\s+)([A-Za-z0-9._~+/=-]{8,})/gi, valueGroup: 2 },
  { kind: 'url_credentials', pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(?=@)/gi, valueGroup: 2 },
  {
    kind: 'assigned_secret',
    // KEY=value, KEY: value, "key": "value": the value goes, the key stays.
    pattern:
      /((?:^|[^A-Za-z0-9])[A-Za-z0-9_-]*?(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?)([^\s"'&;,}]{4,})/gi,
    valueGroup: 2,
  },
  {
    kind: 'flag_secret',
    // --password value, --api-key=value on a command line. A flag is a word of its own: the `-api-key` inside
    // `x-goog-api-key header` is a header's name in prose, not a flag with the value "header".
    pattern: /((?<![^\s"'(])--?[A-Za-z0-9_-]*?(?:password|passwd|secret|token|api[_-]?key)[= ]["']?)([^\s"']{4,})/gi,
    valueGroup: 2,
  },
];

/** Object keys whose string values are secrets whatever they look like. */
export const SECRET_KEY = /(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|authorization|credentials?)$/i;
