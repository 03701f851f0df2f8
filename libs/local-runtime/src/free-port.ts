import { createServer } from 'node:net';

/**
 * Ports are handed out below Linux's ephemeral range (32768-60999 by default). A port that `listen(0)`
 * returns is one the kernel may also give to the local end of an outgoing connection between this
 * check and the server's own bind: a cluster member's route connection to a peer not yet listening
 * has taken another member's client port that way ("bind: address already in use").
 */
const LOWEST = 20_000;
const HIGHEST = 32_000;
/** Never the same port twice from one process; processes start at different random places. */
const handedOut = new Set<number>();
let cursor = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST));

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 500; tries++) {
    cursor = cursor + 1 + Math.floor(Math.random() * 16);
    if (cursor >= HIGHEST) cursor = LOWEST + (cursor % 97);
    // Claimed before the check: calls made together must not check (and return) the same port.
    const port = cursor;
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  // The whole range busy: let the kernel choose.
  return listenAndClose(0);
}

async function canListen(port: number): Promise<boolean> {
  try {
    await listenAndClose(port);
    return true;
  } catch {
    return false;
  }
}

function listenAndClose(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
}
