import { JetStreamApiError } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { JETSTREAM_UNAVAILABLE } from '../connection/jetstream-settling.js';
import { KvLeaseStore } from './kv-lease-store.js';

describe('KvLeaseStore', () => {
  it('waits for a cluster electing its leaders before its first watch, instead of failing the start', async () => {
    // The answer of a JetStream cluster whose servers just restarted (err_code 10008), then a watch with nothing in it.
    let calls = 0;
    const kv = {
      watch: () => {
        calls++;
        if (calls === 1) return Promise.reject(new JetStreamApiError({ code: 503, err_code: JETSTREAM_UNAVAILABLE, description: 'JetStream system temporarily unavailable' }));
        return Promise.resolve({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }), stop: () => undefined });
      },
    } as unknown as KV;
    const watch = await new KvLeaseStore(kv).watch('breaker', () => undefined);
    expect(calls).toBe(2);
    watch.stop();
  });
});
