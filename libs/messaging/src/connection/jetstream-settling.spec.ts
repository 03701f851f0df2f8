import { JetStreamApiError } from '@nats-io/jetstream';
import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/nats-core';
import { isJetStreamSettling, JETSTREAM_UNAVAILABLE, whileJetStreamSettles } from './jetstream-settling.js';

// The server's answer while a cluster has no meta leader, as nats-server 2.9 sends it (seen in a restart of all three servers).
const unavailable = () => new JetStreamApiError({ code: 503, err_code: JETSTREAM_UNAVAILABLE, description: 'JetStream system temporarily unavailable' });
const notFound = () => new JetStreamApiError({ code: 404, err_code: 10014, description: 'consumer not found' });

/** A clock that moves only when the retry waits on it. */
function fakeClock() {
  let t = 0;
  const waits: number[] = [];
  return { waits, now: () => t, delay: async (ms: number) => { waits.push(ms); t += ms; } };
}

describe('whileJetStreamSettles', () => {
  it('knows the answers of a settling cluster from answers that are final', () => {
    expect(isJetStreamSettling(unavailable())).toBe(true);
    expect(isJetStreamSettling(new TimeoutError())).toBe(true);
    expect(isJetStreamSettling(new NoRespondersError('$JS.API.INFO'))).toBe(true);
    expect(isJetStreamSettling(new RequestError('no responders', { cause: new NoRespondersError('$JS.API.INFO') }))).toBe(true);
    expect(isJetStreamSettling(notFound())).toBe(false);
    expect(isJetStreamSettling(new Error('permissions violation'))).toBe(false);
  });

  it('tries again, backing off, until the cluster answers', async () => {
    const clock = fakeClock();
    let calls = 0;
    const seen: number[] = [];
    const result = await whileJetStreamSettles(
      async () => {
        calls++;
        if (calls < 6) throw unavailable();
        return 'ready';
      },
      { ...clock, onWait: (_error, attempt) => seen.push(attempt) },
    );
    expect(result).toBe('ready');
    expect(clock.waits).toEqual([250, 500, 1_000, 2_000, 4_000]);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('does not wait out a final answer', async () => {
    const clock = fakeClock();
    await expect(whileJetStreamSettles(() => Promise.reject(notFound()), clock)).rejects.toThrow('consumer not found');
    expect(clock.waits).toEqual([]);
  });

  it('gives up with the last error once the wait is over', async () => {
    const clock = fakeClock();
    await expect(whileJetStreamSettles(() => Promise.reject(unavailable()), { ...clock, waitMs: 20_000 })).rejects.toThrow('temporarily unavailable');
    expect(clock.waits).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(clock.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20_000);
  });
});
