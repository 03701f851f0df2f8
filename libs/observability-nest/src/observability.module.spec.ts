import { Writable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, HealthRegistry, LOGGER, MetricsRegistry } from '@warden/observability';
import { PinoNestLogger } from './nest-logger.js';
import { ObservabilityModule } from './observability.module.js';

describe('ObservabilityModule', () => {
  const lines: string[] = [];
  const logger = createLogger({ service: 'probe', destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }) });
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    app = await NestFactory.create(ObservabilityModule.forRoot({ service: 'probe', logger }), { logger: new PinoNestLogger(logger) });
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  it('provides the registry, the health checks and the logger it was given', () => {
    expect(app.get(MetricsRegistry).service).toBe('probe');
    expect(app.get(HealthRegistry)).toBeInstanceOf(HealthRegistry);
    expect(app.get(LOGGER)).toBe(logger);
  });

  it('serves /metrics and /health, readiness 503 while a check is down', async () => {
    app.get(MetricsRegistry).counter({ name: 'warden_probe_total', help: 'probe' }).inc();
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.headers.get('cache-control')).toBe('no-store');
    expect(await metrics.text()).toContain('warden_probe_total{service="probe"} 1');
    expect(await (await fetch(`${url}/health/live`)).json()).toEqual({ status: 'ok' });
    let up = false;
    app.get(HealthRegistry).register('bus', () => ({ up }));
    const down = await fetch(`${url}/health/ready`);
    expect([down.status, await down.json()]).toEqual([503, { status: 'unavailable', checks: { bus: { up: false } } }]);
    up = true;
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it("writes Nest's own log lines through pino", () => {
    expect(lines.some((line) => /"service":"probe"/.test(line) && /"context":"NestApplication"/.test(line))).toBe(true);
  });
});
