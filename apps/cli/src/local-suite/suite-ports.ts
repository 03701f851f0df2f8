import { createServer } from 'node:net';
import { freePort, portAccepts } from '@warden/local-runtime';

/** Whether this process could listen on the port now: a server busy with its one connection may not accept, yet holds the port. */
function portBindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The port when nothing holds it, else a free one. */
export async function preferredPort(port: number): Promise<number> {
  return (await portAccepts(port)) || !(await portBindable(port)) ? freePort() : port;
}

function portTaken(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'EADDRINUSE' || /EADDRINUSE|address already in use/.test((error as Error).message);
}

/**
 * Starts a server on the ports it is given. Another program may take a port between the look and the
 * listen: then the start is tried again on free ports, a few times.
 */
export async function onFreePorts<T>(first: () => Promise<T>, again: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (attempt === 1 ? first() : again());
    } catch (error) {
      if (!portTaken(error) || attempt >= 3) throw error;
    }
  }
}
