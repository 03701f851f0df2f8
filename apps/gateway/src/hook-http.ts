import type { IncomingMessage, ServerResponse } from 'node:http';
import { AGENT_ADAPTERS, agentAdapter } from '@warden/agent-edge';
import type { HookGateway } from './hook-gateway.js';

/** Where agents' hooks post: `/hooks/<agent>` (`warden hook install --agent <agent>` writes it). */
export const HOOK_PREFIX = '/hooks/';

/** The path of an agent's hook endpoint. */
export const hookPath = (agent: string) => `${HOOK_PREFIX}${agent}`;

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status, { 'content-length': '0' }).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

/**
 * `POST /hooks/<agent>` (claude-code, codex, cursor, …), served straight from Node's HTTP server (it is on
 * every tool call's path; the Nest application serves `/metrics` and `/health`): the body is the hook's
 * JSON input as the agent sends it; the answer is a 200 with the agent's JSON output (an empty body when
 * there is nothing to say), or 400 / 401 / 403 / 404 / 405 / 413 with `{ "error": reason }`. A GET with
 * the agent's token says whether the gateway takes it (`{agent, agent_id}`, or 401).
 */
export function hookRequestHandler(gateway: HookGateway, maxBodyBytes: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? HOOK_PREFIX, 'http://gateway');
    const adapter = agentAdapter(url.pathname.slice(HOOK_PREFIX.length));
    if (!adapter) {
      send(res, 404, { error: `no agent at ${url.pathname}: hooks post to ${[...AGENT_ADAPTERS.keys()].map(hookPath).join(', ')}` });
      req.resume();
      return;
    }
    const header = (name: string) => (Array.isArray(req.headers[name]) ? req.headers[name]![0] : (req.headers[name] as string | undefined));
    if (req.method === 'GET') {
      // `warden hook doctor`: is the token one the gateway takes? Nothing is published.
      req.resume();
      gateway.whoami(header('authorization')).then(
        (reply) => (reply.status === 200 ? send(res, 200, { agent: adapter.name, agent_id: reply.agentId }) : send(res, reply.status, { error: reply.error })),
        (error: Error) => send(res, 500, { error: `the gateway failed: ${error.message}` }),
      );
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, { error: `${req.method} is not allowed: ${adapter.title} POSTs its hook input here` });
      req.resume();
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
      gateway
        .handle({
          adapter,
          authorization: header('authorization'),
          entrypoint: header('x-claude-code-entrypoint'),
          query: Object.fromEntries([...new Set(url.searchParams.keys())].map((key) => [key, url.searchParams.getAll(key).length > 1 ? url.searchParams.getAll(key) : url.searchParams.get(key)!])),
          body: Buffer.concat(chunks).toString('utf8'),
        })
        .then(
          (reply) => {
            if (reply.status !== 200) return send(res, reply.status, { error: reply.error });
            const { afterwards } = reply;
            // Once the answer has left (or the agent hung up): nothing that follows it delays it.
            if (afterwards && res.closed) afterwards();
            else if (afterwards) res.once('close', afterwards);
            send(res, 200, reply.output ?? undefined);
          },
          (error: Error) => send(res, 500, { error: `the gateway failed: ${error.message}` }),
        );
    });
  };
}
