/** scheme://[user@]host: the host, or a bracketed IPv6 address. */
const HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\s]*@)?(\[[^\]]*\]|[^:/?#\s]*)/i;
const PRIVATE_IPV4 = /^(?:127\.|10\.|192\.168\.|169\.254\.|172\.(?:1[6-9]|2\d|3[01])\.|0\.0\.0\.0$)/;
const PRIVATE_IPV6 = /^(?:::1|::|f[cd][0-9a-f]{2}:.*|fe[89ab][0-9a-f]:.*|::ffff:(?:127|10|192\.168)\..*)$/;
const LOCAL_SUFFIX = /(?:^|\.)(?:localhost|local|internal)$/;

export function hostOf(url: string): string | null {
  const match = HOST.exec(url);
  return match ? match[1]!.toLowerCase().replace(/^\[|\]$/g, '') : null;
}

/**
 * Whether a host stays on this machine or its private network: localhost, loopback and private
 * addresses, `*.local`/`*.internal`, and single-label names (a compose service such as `db`).
 */
export function isInternalHost(host: string): boolean {
  if (!host || /[$`{}%]/.test(host)) return false;
  if (host.includes(':')) return PRIVATE_IPV6.test(host);
  return LOCAL_SUFFIX.test(host) || PRIVATE_IPV4.test(host) || !host.includes('.');
}

/** A URL whose host is not internal; a URL whose host cannot be read (`http://$HOST/`) counts as external. */
export function isExternalUrl(url: string): boolean {
  const host = hostOf(url);
  return host === null || !isInternalHost(host);
}

/** A URL on this machine: localhost, 127.x.x.x, [::1], 0.0.0.0; the scheme may be left out (HTTPie's `localhost:3000/api`, `:3000/api`). */
const LOOPBACK_URL = /^(?:(?:https?:\/\/)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?::\d+)?|:\d+)(?:[/?#]|$)/i;
/** A word that names a host somewhere: a URL of any scheme, or `name.tld[:port][/…]`. */
const NAMES_A_HOST = /^(?:[a-z][a-z0-9+.-]*:\/\/|[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:[/?#]|$))/i;

/**
 * Whether an HTTP client's arguments send its requests to this machine only: they name a loopback URL and
 * no other word names a host (an output file such as `out.json` counts as one, to be safe).
 */
export function requestsOnlyThisMachine(words: readonly string[]): boolean {
  if (!words.some((w) => LOOPBACK_URL.test(w))) return false;
  return !words.some((w) => !LOOPBACK_URL.test(w) && !w.startsWith('-') && !w.startsWith('@') && NAMES_A_HOST.test(w));
}

/** Words of a variable's name that say nothing of the service its value is for. */
const GENERIC_NAME_WORDS = new Set(['api', 'key', 'keys', 'token', 'secret', 'access', 'public', 'private', 'next', 'vite', 'react', 'app', 'expo', 'nuxt', 'service', 'role', 'anon', 'id', 'client', 'auth', 'url', 'uri', 'base', 'host', 'endpoint', 'dev', 'prod', 'test', 'live', 'sandbox', 'password', 'user', 'bearer', 'pat', 'default', 'env']);
/** Options of an HTTP client whose value is no URL (a header, a body, a user, an output file). */
const VALUE_OPTIONS = /^(?:-[HdFuoOwbceAXT]|--(?:header|data(?:-\w+)?|form|user|output|write-out|cookie|cookie-jar|referer|user-agent|request|upload-file|oauth2-bearer))$/;

/** The name a registrable domain is known by: `resend` of api.resend.com, `supabase` of x.supabase.co, `example` of a.example.co.uk. */
function siteName(host: string): string | undefined {
  const labels = host.split('.');
  if (labels.length < 2) return undefined;
  const second = labels[labels.length - 2]!;
  return labels.length > 2 && /^[a-z]{2}$/.test(labels[labels.length - 1]!) && /^(?:co|com|org|net|gov|ac|edu)$/.test(second) ? labels[labels.length - 3] : second;
}

/**
 * Whether an HTTP client sends what it reads from a secret file to the service that secret is for: the URL it
 * requests is read from the same file (`curl "$(grep SUPABASE_URL .env)/auth/v1/settings" -H "apikey: …"`),
 * or the site it requests is what the variable is named after (`RESEND_API_KEY` to api.resend.com). That is
 * how a project calls its own services; the key goes nowhere it is not already trusted.
 */
export function requestsItsOwnService(words: readonly string[], secretFile: string): boolean {
  // Values read out of the file, not the file itself (`-d @.env`, `-T .env` upload it whole).
  const carried = words.filter((w) => w.includes(secretFile));
  if (!carried.length || carried.some((w) => !w.includes('$('))) return false;
  // The variables it reads are named in upper case (`grep '^RESEND_API_KEY=' .env`); `$(cat .env)` takes all of them.
  const namesIn = (w: string) => (w.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? []).filter((n) => n.length >= 3);
  if (carried.some((w) => !namesIn(w).length)) return false;
  const urls = words.filter((w, i) => !w.startsWith('-') && !VALUE_OPTIONS.test(words[i - 1] ?? '') && (/^https?:\/\//i.test(w) || w.startsWith('$(')));
  if (!urls.length) return false;
  return urls.every((url) => {
    if (url.startsWith('$(')) return url.slice(0, url.indexOf(')') + 1).includes(secretFile);
    const site = siteName(hostOf(url) ?? '');
    if (!site || site.length < 3) return false;
    return carried.flatMap(namesIn).every((name) => name.toLowerCase().split('_').some((word) => word.length >= 3 && !GENERIC_NAME_WORDS.has(word) && site === word));
  });
}
