import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiError,
  ReplayPolicy,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { SEAL_KEY_BUCKET } from '@warden/contracts';
import { whileJetStreamSettles } from '../connection/jetstream-settling.js';
import { ensureSealKeys } from '../state/seal-keyring.js';
import type { ConsumerSpec, StreamSpec, Topology } from './topology.js';

export type ChangeAction = 'created' | 'updated' | 'repaired' | 'unchanged' | 'stale' | 'deleted';

export interface ProvisionChange {
  kind: 'stream' | 'consumer' | 'kv' | 'object-store';
  name: string;
  action: ChangeAction;
  detail?: string;
}

export interface ProvisionOptions {
  /** Report what would change without changing anything. */
  dryRun?: boolean;
  /** Delete Warden consumers that the topology no longer declares (e.g. after lowering the partition count). */
  prune?: boolean;
  onChange?: (change: ProvisionChange) => void;
  /** Told when JetStream does not answer yet (an election, a busy cluster) and a step waits before it tries again. */
  onWait?: (error: unknown, attempt: number, delayMs: number) => void;
}

export interface ProvisionReport {
  changes: ProvisionChange[];
}

/** Every message may be up to this big on the wire; services refuse bigger payloads themselves, with a reason. */
export const STREAM_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;

function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

export function streamConfig(spec: StreamSpec): Partial<StreamConfig> & { name: string } {
  return {
    name: spec.name,
    subjects: spec.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(spec.maxAgeMs),
    duplicate_window: nanos(spec.duplicateWindowMs),
    num_replicas: spec.replicas,
    max_msg_size: STREAM_MAX_MESSAGE_BYTES,
  };
}

export function consumerConfig(spec: ConsumerSpec): Partial<ConsumerConfig> & { durable_name: string } {
  return {
    durable_name: spec.name,
    description: `${spec.service} consumes ${spec.channel}${spec.partition === null ? '' : ` partition ${spec.partition}`}`,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    replay_policy: ReplayPolicy.Instant,
    filter_subject: spec.filterSubject,
    ack_wait: nanos(spec.ackWaitMs),
    // The transport counts deliveries itself and dead-letters at its limit: the server must keep
    // redelivering so that the ack floor never sticks on an abandoned message.
    max_deliver: -1,
    max_ack_pending: spec.maxAckPending,
  };
}

/**
 * How a consumer's stored configuration strays from the topology where it matters for what it delivers
 * (its filter, or a delivery subject a pull consumer never has), or undefined. Services check their own
 * consumers with it (JetStreamServer); provision repairs what it finds.
 */
export function consumerDrift(spec: ConsumerSpec, have: Record<string, unknown>): string | undefined {
  if (have.filter_subject !== spec.filterSubject) return `filter is ${String(have.filter_subject || 'none')}, expected ${spec.filterSubject}`;
  if (have.deliver_subject) return `delivers to ${String(have.deliver_subject)}, where Warden's consumers are pulled`;
  return undefined;
}

function differs(want: Record<string, unknown>, have: Record<string, unknown>, keys: string[]): string[] {
  return keys.filter((k) => JSON.stringify(want[k]) !== JSON.stringify(have[k]));
}

/**
 * Creates or updates every stream, consumer and KV bucket of the topology. Safe to run any number of
 * times: what already matches is left alone; a consumer whose filter or delivery target strayed from
 * the topology (what it delivers would not be what its service expects) is recreated from where it
 * stood.
 */
export async function provision(nc: NatsConnection, jsm: JetStreamManager, topology: Topology, options: ProvisionOptions = {}): Promise<ProvisionReport> {
  const changes: ProvisionChange[] = [];
  const record = (change: ProvisionChange) => {
    changes.push(change);
    options.onChange?.(change);
  };

  // A cluster still electing its leaders, or too busy to answer in time (a replicated stream's first election), is
  // waited out: every step looks before it changes, so one that timed out after it took effect finds it done.
  const step = <T>(work: () => Promise<T>) => whileJetStreamSettles(work, options.onWait ? { onWait: options.onWait } : {});
  for (const change of await inBatches(topology.streams, (spec) => step(() => provisionStream(jsm, spec, options.dryRun ?? false)))) record(change);
  for (const change of await inBatches(topology.consumers, (spec) => step(() => provisionConsumer(jsm, spec, options.dryRun ?? false)))) record(change);
  for (const spec of topology.keyValues) {
    const exists = await step(() => streamExists(jsm, `KV_${spec.bucket}`));
    if (!exists && !options.dryRun) {
      await step(async () => {
        if (await streamExists(jsm, `KV_${spec.bucket}`)) return;
        await new Kvm(nc).create(spec.bucket, {
          history: spec.history,
          replicas: spec.replicas,
          description: spec.description,
          ...(spec.ttlMs ? { ttl: spec.ttlMs } : {}),
        });
      });
    }
    record({ kind: 'kv', name: spec.bucket, action: exists ? 'unchanged' : 'created' });
    if (spec.bucket === SEAL_KEY_BUCKET && !options.dryRun) {
      const keys = await step(async () => ensureSealKeys(await new Kvm(nc).open(spec.bucket)));
      if (keys !== 'unchanged') record({ kind: 'kv', name: `${spec.bucket}/keys`, action: keys, detail: 'the key pair agents seal secrets with' });
    }
  }
  for (const spec of topology.objectStores) {
    const exists = await step(() => streamExists(jsm, `OBJ_${spec.bucket}`));
    if (!exists && !options.dryRun) {
      await step(async () => {
        if (!(await streamExists(jsm, `OBJ_${spec.bucket}`))) await new Objm(nc).create(spec.bucket, { description: spec.description, replicas: spec.replicas, max_bytes: spec.maxBytes });
      });
    }
    let action: ChangeAction = exists ? 'unchanged' : 'created';
    if (exists) {
      // A store provisioned before it had a limit (or with another) gets the topology's.
      const info = await step(() => jsm.streams.info(`OBJ_${spec.bucket}`));
      if (info.config.max_bytes !== spec.maxBytes) {
        if (!options.dryRun) await step(() => jsm.streams.update(`OBJ_${spec.bucket}`, { ...info.config, max_bytes: spec.maxBytes }));
        action = 'updated';
      }
    }
    record({ kind: 'object-store', name: spec.bucket, action });
  }
  for (const stale of await step(() => staleConsumers(jsm, topology))) {
    if (options.prune && !options.dryRun) {
      await step(() => jsm.consumers.delete(stale.stream, stale.name).catch((error: unknown) => {
        // Deleted by the try that timed out.
        if (!isApiError(error, CONSUMER_NOT_FOUND)) throw error;
        return true;
      }));
      record({ kind: 'consumer', name: `${stale.stream}/${stale.name}`, action: 'deleted' });
    } else {
      record({
        kind: 'consumer',
        name: `${stale.stream}/${stale.name}`,
        action: 'stale',
        detail: 'not in the topology any more; run with --prune to delete it',
      });
    }
  }
  return { changes };
}

/**
 * Creating a replicated stream or consumer waits for its group to elect a leader (about half a second
 * each on a cluster): several at a time, results in the topology's order.
 */
async function inBatches<S, R>(specs: readonly S[], work: (spec: S) => Promise<R>, size = 8): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < specs.length; start += size) results.push(...(await Promise.all(specs.slice(start, start + size).map(work))));
  return results;
}

async function streamExists(jsm: JetStreamManager, name: string): Promise<boolean> {
  try {
    await jsm.streams.info(name);
    return true;
  } catch (error) {
    if (!isApiError(error, STREAM_NOT_FOUND)) throw error;
    return false;
  }
}

async function provisionStream(jsm: JetStreamManager, spec: StreamSpec, dryRun: boolean): Promise<ProvisionChange> {
  const want = streamConfig(spec);
  try {
    const info = await jsm.streams.info(spec.name);
    const changed = differs(want, info.config as unknown as Record<string, unknown>, [
      'subjects',
      'max_age',
      'duplicate_window',
      'max_msg_size',
      'num_replicas',
    ]);
    if (!changed.length) return { kind: 'stream', name: spec.name, action: 'unchanged' };
    if (!dryRun) await jsm.streams.update(spec.name, { ...info.config, ...want });
    return { kind: 'stream', name: spec.name, action: 'updated', detail: changed.join(', ') };
  } catch (error) {
    if (!isApiError(error, STREAM_NOT_FOUND)) throw error;
    if (!dryRun) await jsm.streams.add(want);
    return { kind: 'stream', name: spec.name, action: 'created' };
  }
}

async function provisionConsumer(jsm: JetStreamManager, spec: ConsumerSpec, dryRun: boolean): Promise<ProvisionChange> {
  const want = consumerConfig(spec);
  const name = `${spec.stream}/${spec.name}`;
  try {
    const info = await jsm.consumers.info(spec.stream, spec.name);
    const have = info.config as unknown as Record<string, unknown>;
    const drift = consumerDrift(spec, have);
    if (drift) {
      // A filter or a delivery target cannot be changed in place: recreated where it stood, so that nothing acknowledged is delivered again.
      const from = info.ack_floor.stream_seq + 1;
      if (!dryRun) {
        await jsm.consumers.delete(spec.stream, spec.name);
        await jsm.consumers.add(spec.stream, { ...want, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from });
      }
      return { kind: 'consumer', name, action: 'repaired', detail: `${drift}; recreated from stream sequence ${from}` };
    }
    const changed = differs(want, have, ['ack_wait', 'max_deliver', 'max_ack_pending', 'description']);
    if (!changed.length) return { kind: 'consumer', name, action: 'unchanged' };
    if (!dryRun) {
      await jsm.consumers.update(spec.stream, spec.name, {
        ack_wait: want.ack_wait,
        max_deliver: want.max_deliver,
        max_ack_pending: want.max_ack_pending,
        description: want.description,
      });
    }
    return { kind: 'consumer', name, action: 'updated', detail: changed.join(', ') };
  } catch (error) {
    if (!isApiError(error, CONSUMER_NOT_FOUND) && !isApiError(error, STREAM_NOT_FOUND)) throw error;
    if (!dryRun) await jsm.consumers.add(spec.stream, want);
    return { kind: 'consumer', name, action: 'created' };
  }
}

async function staleConsumers(jsm: JetStreamManager, topology: Topology): Promise<{ stream: string; name: string }[]> {
  const declared = new Set(topology.consumers.map((c) => `${c.stream}/${c.name}`));
  const stale: { stream: string; name: string }[] = [];
  for (const stream of topology.streams) {
    let consumers;
    try {
      consumers = await jsm.consumers.list(stream.name).next();
    } catch (error) {
      if (isApiError(error, STREAM_NOT_FOUND)) continue;
      throw error;
    }
    for (const consumer of consumers) {
      const key = `${stream.name}/${consumer.name}`;
      if (consumer.config.durable_name && !declared.has(key)) stale.push({ stream: stream.name, name: consumer.name });
    }
  }
  return stale;
}

export { isApiError, STREAM_NOT_FOUND, CONSUMER_NOT_FOUND };
