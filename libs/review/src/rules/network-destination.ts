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

/** A URL on this machine: localhost, 127.x.x.x, [::1], 0.0.0.0. */
const LOOPBACK_URL = /^https?:\/\/(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?::\d+)?(?:[/?#]|$)/i;
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
