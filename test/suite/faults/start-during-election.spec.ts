import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '@warden/local-runtime';
import { eventually, TestNatsCluster } from '@warden/testing';
import { FAST_LEASES } from '../scenarios/path-fixture.js';

const PARTITIONS = 2;

/**
 * A service that starts while its NATS cluster has no JetStream meta leader (two of three servers away, as
 * after a restart of every server or while a platform rolls the cluster) waits for one instead of exiting,
 * and is ready once the cluster is whole again.
 */
describe('a service started while the cluster elects its leaders', () => {
  let cluster: TestNatsCluster;
  let dir: string;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    cluster = await TestNatsCluster.start({ partitions: PARTITIONS });
    dir = mkdtempSync(join(tmpdir(), 'warden-start-election-'));
    await cluster.provision(['breaker']);
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('waits for JetStream rather than exiting, and is ready once the cluster has a leader again', async () => {
    await Promise.all([cluster.kill('nats-2'), cluster.kill('nats-3')]);
    const logFile = join(dir, 'breaker.log');
    const starting = ServiceProcess.start({ app: 'breaker', nats: cluster.service, partitions: PARTITIONS, logFile, readyTimeoutMs: 180_000, env: FAST_LEASES });
    starting.catch(() => undefined);
    // Only once it has met the cluster without a leader are the other two started again.
    await eventually('the breaker to wait for JetStream', () => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('JetStream is not available yet'), { timeoutMs: 60_000 });
    await Promise.all([cluster.start('nats-2'), cluster.start('nats-3')]);
    service = await starting;
    expect(service.running).toBe(true);
    expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
  }, 300_000);
});
