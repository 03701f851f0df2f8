/**
 * Where a request goes, as `host:port`, so that `http://127.0.0.1:3000/x`, `localhost:3000` in an error
 * message and the suspect endpoint "localhost:3000" of the settings compare equal.
 */
export interface EndpointAddress {
  /** Lower case; every loopback name is `localhost`. */
  host: string;
  port: number;
  hostPort: string;
  /** The machine itself (localhost, 127.0.0.1, ::1, 0.0.0.0). */
  local: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0', '[::]']);
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443, 'ftp:': 21 };
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s'"<>)\]]+/gi;
/** `localhost:3000`, `127.0.0.1:9222`, `[::1]:8080`, `db.internal:5432`, `playwright:3000` (a compose service). */
const HOST_PORT_IN_TEXT = /(?<![\w/.:-])(localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*):(\d{2,5})\b(?!:)/gi;
const TRAILING_PUNCTUATION = /[.,;:]+$/;
const HOST_PORT = /^(localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*):(\d{1,5})(?:\/.*)?$/i;

function address(host: string, port: number): EndpointAddress | undefined {
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  const lower = host.toLowerCase();
  const local = LOOPBACK.has(lower);
  const name = local ? 'localhost' : lower;
  return { host: name, port, hostPort: `${name}:${port}`, local };
}

/** `http://127.0.0.1:3000/json` → localhost:3000; the scheme's port when none is given. */
export function addressOfUrl(url: string): EndpointAddress | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  return parsed.hostname && port !== undefined ? address(parsed.hostname, port) : undefined;
}

/** `localhost:3000`, `localhost:3000/health` or a URL. */
export function addressOf(text: string): EndpointAddress | undefined {
  if (text.includes('://')) return addressOfUrl(text);
  const match = HOST_PORT.exec(text.trim());
  return match ? address(match[1]!, Number(match[2])) : undefined;
}

/** URL or host:port named in free text (an error message), in order of appearance, URLs first. */
export function addressesIn(text: string): { address: EndpointAddress; url: string }[] {
  const found: { address: EndpointAddress; url: string }[] = [];
  const seen = new Set<string>();
  const add = (a: EndpointAddress | undefined, url: string) => {
    if (!a || seen.has(a.hostPort)) return;
    seen.add(a.hostPort);
    found.push({ address: a, url });
  };
  for (const match of text.matchAll(URL_IN_TEXT)) add(addressOfUrl(match[0]), match[0].replace(TRAILING_PUNCTUATION, ''));
  const withoutUrls = text.replace(URL_IN_TEXT, ' ');
  for (const match of withoutUrls.matchAll(HOST_PORT_IN_TEXT)) add(address(match[1]!, Number(match[2])), `http://${match[1]}:${match[2]}`);
  return found;
}

/** The URL a health check is reached at: default_url joined with health_check. */
export function joinUrl(base: string, path: string | undefined): string {
  if (!path) return base;
  if (path.includes('://')) return path;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
