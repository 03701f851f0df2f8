import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HookGateway } from './hook-gateway.js';

/** The path Claude Code's http hooks post to (`warden hook install` writes it). */
export const HOOK_PATH = '/hooks/claude-code';

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status, { 'content-length': '0' }).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

/**
 * `POST /hooks/claude-code`, served straight from Node's HTTP server (it is on every tool call's path;
 * the Nest application serves `/metrics` and `/health`): the body is the hook's JSON input; the answer
 * is a 200 with the hook's JSON output (an empty body when there is nothing to say), or 400 / 401 /
 * 403 / 405 / 413 with `{ "error": reason }`.
 */
export function hookRequestHandler(gateway: HookGateway, maxBodyBytes: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'POST') {
      send(res, 405, { error: `${req.method} is not allowed: Claude Code POSTs its hook input here` });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes && !refused) {
        refused = true;
        send(res, 413, { error: `the hook input is larger than ${maxBodyBytes} bytes (GATEWAY_MAX_BODY_BYTES)` });
        req.resume();
      }
      if (!refused) chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const url = new URL(req.url ?? HOOK_PATH, 'http://gateway');
      const header = (name: string) => (Array.isArray(req.headers[name]) ? req.headers[name]![0] : (req.headers[name] as string | undefined));
      gateway
        .handle({
          authorization: header('authorization'),
          entrypoint: header('x-claude-code-entrypoint'),
          query: Object.fromEntries([...new Set(url.searchParams.keys())].map((key) => [key, url.searchParams.getAll(key).length > 1 ? url.searchParams.getAll(key) : url.searchParams.get(key)!])),
          body: Buffer.concat(chunks).toString('utf8'),
        })
        .then(
          (reply) => (reply.status === 200 ? send(res, 200, reply.output ?? undefined) : send(res, reply.status, { error: reply.error })),
          (error: Error) => send(res, 500, { error: `the gateway failed: ${error.message}` }),
        );
    });
  };
}
