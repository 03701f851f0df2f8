import type { NatsConnection } from '@nats-io/transport-node';
import { parseMessage, sessionSubscription } from '@warden/contracts';
import type { ControlMessage } from './agent-session.js';

const CONTROL_STREAM = 'WARDEN_CONTROL';

export interface StoredControls {
  controls: { message: ControlMessage; sequence: number }[];
  /** Highest stream sequence read (the cursor for the next run). */
  lastSequence: number;
  /** Why the stored messages could not be read, when they could not. */
  unavailable?: string;
}

/**
 * Reads the control messages of one session stored after `afterSequence` in the control stream (see
 * WardenClient.storedControls). A hook run lives for one tool call, so it cannot hold a subscription
 * between calls: each run creates a short-lived push consumer filtered to the session's control subject, delivering to the agent's own
 * inbox, from the sequence after the last one the previous run saw.
 *
 * The consumer is created with the filtered create subject
 * `$JS.API.CONSUMER.CREATE.WARDEN_CONTROL.<name>.warden.control.*.<agent>.<session>`, so an agent user
 * needs permission to publish `$JS.API.CONSUMER.CREATE.WARDEN_CONTROL.*.warden.control.*.<agent>.*`
 * (its own subjects only). Without it, `unavailable` says so and the run sees only the control
 * messages published while it runs.
 */
export async function readStoredControls(nc: NatsConnection, agentId: string, sessionId: string, afterSequence: number, waitMs: number): Promise<StoredControls> {
  const filter = sessionSubscription('control', agentId, sessionId);
  const name = `hook-${sessionId.slice(0, 40)}-${Math.random().toString(36).slice(2, 10)}`;
  const inbox = `_INBOX_${agentId}.${name}`;
  const controls: StoredControls['controls'] = [];
  let lastSequence = afterSequence;
  let sawLast = false;
  let wake: () => void = () => undefined;
  const sub = nc.subscribe(inbox, {
    callback: (error, msg) => {
      if (error) return;
      // $JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<timestamp>.<pending>
      const tokens = msg.reply?.split('.') ?? [];
      const sequence = Number(tokens[5]);
      const pending = Number(tokens[8]);
      if (Number.isFinite(sequence)) lastSequence = Math.max(lastSequence, sequence);
      const parsed = parseMessage(msg.data);
      if (parsed.ok && parsed.message.type === 'control.issued') controls.push({ message: parsed.message as ControlMessage, sequence });
      if (pending === 0) {
        sawLast = true;
        wake();
      }
    },
  });
  try {
    const request = {
      stream_name: CONTROL_STREAM,
      config: {
        name,
        deliver_subject: inbox,
        filter_subject: filter,
        ack_policy: 'none',
        ...(afterSequence > 0 ? { deliver_policy: 'by_start_sequence', opt_start_seq: afterSequence + 1 } : { deliver_policy: 'all' }),
        // Removed by the server shortly after this run unsubscribes.
        inactive_threshold: 5_000_000_000,
        mem_storage: true,
        num_replicas: 1,
      },
    };
    let pending: number;
    try {
      const reply = await nc.request(`$JS.API.CONSUMER.CREATE.${CONTROL_STREAM}.${name}.${filter}`, JSON.stringify(request), { timeout: waitMs });
      const info = reply.json<{ num_pending?: number; error?: { description?: string } }>();
      if (info.error) return { controls, lastSequence: afterSequence, unavailable: info.error.description ?? 'consumer not created' };
      pending = info.num_pending ?? 0;
    } catch (error) {
      return { controls: [], lastSequence: afterSequence, unavailable: (error as Error).message };
    }
    if (pending > 0 && !sawLast) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return { controls, lastSequence };
  } finally {
    sub.unsubscribe();
  }
}
