import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { skipCancelErrorOfAnsweredRequests } from './answered-requests.js';
import type { NatsSettings } from './nats-settings.js';

export interface BusConnectionEvents {
  onDisconnect?: () => void;
  onReconnect?: () => void;
  onError?: (error: Error) => void;
}

/**
 * One NATS connection per process with its JetStream client and manager. It reconnects forever;
 * `connected` tells readiness whether the bus is reachable right now.
 */
export class BusConnection {
  private isConnected = true;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
  ) {}

  static async open(settings: NatsSettings, events: BusConnectionEvents = {}): Promise<BusConnection> {
    skipCancelErrorOfAnsweredRequests();
    const nc = await connect({
      servers: settings.servers.split(',').map((s) => s.trim()),
      user: settings.user,
      pass: settings.password,
      name: settings.name,
      inboxPrefix: settings.inboxPrefix,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      waitOnFirstConnect: true,
      // Capturing a stack trace for every request costs more than the handler itself on the hot path.
      noAsyncTraces: true,
    });
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    const connection = new BusConnection(nc, jetstream(nc, { checkAPI: false }), jsm);
    void connection.watch(events);
    return connection;
  }

  get connected(): boolean {
    return this.isConnected && !this.nc.isClosed();
  }

  /** Drains (finishes what is in flight) when the server is reachable, gives up after `timeoutMs`; closes at once when it is not. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (this.nc.isClosed()) return;
    if (!this.isConnected) {
      await this.nc.close();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([this.nc.drain().catch(() => 'failed' as const), gaveUp]);
    clearTimeout(timer);
    if (outcome !== undefined && !this.nc.isClosed()) await this.nc.close();
  }

  private async watch(events: BusConnectionEvents): Promise<void> {
    for await (const status of this.nc.status()) {
      switch (status.type) {
        case 'disconnect':
          this.isConnected = false;
          events.onDisconnect?.();
          break;
        case 'reconnect':
          this.isConnected = true;
          events.onReconnect?.();
          break;
        case 'error':
          events.onError?.(status.error);
          break;
      }
    }
  }
}
