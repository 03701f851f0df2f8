import { Module } from '@nestjs/common';
import { BusConnection } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import { ObservabilityModule } from '@warden/observability-nest';
import { startInProcess, TestNatsServer } from '@warden/testing';
import { MessagingModule } from '../src/index.js';

/**
 * A consumer configured otherwise than the topology (refiltered, or given a delivery target) delivers
 * what its service does not expect: the service says so when it starts (log, and a metric an alert
 * watches), and keeps serving.
 */
describe('a service whose consumer strays from the topology', () => {
  it('reports it in its log and in warden_consumer_config_drift', async () => {
    const nats = await TestNatsServer.start({ partitions: 2 });
    const bus = await BusConnection.open(nats.service);
    try {
      const stream = 'WARDEN_CONTROL';
      const name = 'audit-control-p1';
      const before = await bus.jsm.consumers.info(stream, name);
      await bus.jsm.consumers.delete(stream, name);
      await bus.jsm.consumers.add(stream, { ...before.config, filter_subject: 'warden.control.1.mallory.*' });
      const service = await startInProcess('audit', (logger: Logger) => {
        @Module({
          imports: [
            ObservabilityModule.forRoot({ service: 'audit', logger }),
            MessagingModule.forRoot({ service: 'audit', nats: nats.service, partitions: 2, channels: ['control'], heartbeatMs: 200, leaseMs: 1000 }),
          ],
        })
        class DriftModule {}
        return DriftModule;
      });
      try {
        const metrics = await (await fetch(`${service.url}/metrics`)).text();
        expect(metrics).toMatch(/warden_consumer_config_drift\{[^}]*consumer="audit-control-p1"[^}]*\} 1/);
        expect(metrics).toMatch(/warden_consumer_config_drift\{[^}]*consumer="audit-control-p0"[^}]*\} 0/);
        expect(service.log.lines.some((l) => String(l.msg).includes('strays from the topology') && JSON.stringify(l).includes('filter is warden.control.1.mallory.*'))).toBe(true);
      } finally {
        await service.close();
      }
    } finally {
      await bus.close();
      await nats.stop();
    }
  }, 60_000);
});
