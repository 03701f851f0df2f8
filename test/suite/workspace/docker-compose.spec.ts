// docker-compose.yml as Compose itself resolves it (`docker compose config`): the services, how each is
// built and wired, and that the defaults alone give a working file. Nothing is built or started.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICES } from '@warden/contracts';
import { SERVICE_PORTS } from '@warden/service-bootstrap';
import { buildOf, composeConfig, dependsOn, env, mounts, ROOT, run, words, type RawService } from './compose.fixture.js';

const DOCKERFILE = join(ROOT, 'deploy', 'docker', 'Dockerfile');
const PARAMS = JSON.parse(readFileSync(join(ROOT, 'deploy', 'nats', 'params.json'), 'utf8')) as {
  server: { partitions: number; port: number; monitorPort: number; storeDir: string; agents: { user: string }[] };
};

function natsServerBinary(): string {
  for (const candidate of ['nats-server', '/usr/sbin/nats-server']) {
    if (run(candidate, ['--version'], process.env).status === 0) return candidate;
  }
  throw new Error('nats-server is not installed: run `apt-get install -y nats-server`.');
}

describe('docker-compose.yml', () => {
  let services: Record<string, RawService>;

  beforeAll(() => {
    services = composeConfig();
  });

  it('declares the seven services, the agent gateway, the console, NATS, PostgreSQL, provisioning, Prometheus and Grafana', () => {
    expect(Object.keys(services).sort()).toEqual([...SERVICES, 'gateway', 'console', 'nats', 'postgres', 'provision', 'prometheus', 'grafana'].sort());
  });

  it('runs the agent gateway from the shared Dockerfile, as the service user, after provisioning, published on loopback for agents', () => {
    expect(buildOf(services.gateway)).toEqual({ dockerfile: DOCKERFILE, args: { APP: 'gateway' } });
    expect(env(services.gateway)).toMatchObject({ NATS_URL: `nats://nats:${PARAMS.server.port}`, NATS_USER: 'warden', HTTP_HOST: '0.0.0.0', HTTP_PORT: '3108' });
    expect(env(services.gateway).NATS_PASSWORD).toBe(env(services.nats).WARDEN_SERVICE_PASSWORD);
    expect(dependsOn(services.gateway)).toMatchObject({ provision: 'service_completed_successfully' });
    expect(words(services.gateway.healthcheck?.test)).toContain('http://127.0.0.1:3108/health/ready');
    expect(JSON.stringify(services.gateway.ports)).toContain('127.0.0.1:3108:3108');
  });

  it('runs the console from the shared Dockerfile as the service user, calling the gate and the reviewer, published on loopback only', () => {
    const app = services.console!;
    expect(buildOf(app)).toEqual({ dockerfile: DOCKERFILE, args: { APP: 'console' } });
    expect(env(app)).toMatchObject({ NATS_URL: `nats://nats:${PARAMS.server.port}`, NATS_USER: 'warden', HTTP_HOST: '0.0.0.0', HTTP_PORT: '3109', CONSOLE_GATE_URL: 'http://gate:3105', CONSOLE_REVIEWER_URL: 'http://reviewer:3101' });
    expect(env(app).NATS_PASSWORD).toBe(env(services.nats).WARDEN_SERVICE_PASSWORD);
    expect(words(app.healthcheck?.test)).toContain('http://127.0.0.1:3109/health/ready');
    expect(dependsOn(app)).toMatchObject({ provision: 'service_completed_successfully' });
    expect(JSON.stringify(app.ports)).toContain('127.0.0.1:3109:3109');
  });

  describe.each([...SERVICES])('%s', (name) => {
    const port = SERVICE_PORTS[name];

    it('builds from the shared Dockerfile with APP set to its own name', () => {
      const build = buildOf(services[name]);
      expect(build.dockerfile).toBe(DOCKERFILE);
      expect(build.args).toEqual({ APP: name });
    });

    it('reaches NATS as the service user and listens on all interfaces at its own port', () => {
      const vars = env(services[name]);
      expect(vars).toMatchObject({
        NATS_URL: `nats://nats:${PARAMS.server.port}`,
        NATS_USER: 'warden',
        HTTP_HOST: '0.0.0.0',
        HTTP_PORT: String(port),
        WARDEN_PARTITIONS: String(PARAMS.server.partitions),
      });
      // The password nats-server checks the service user against.
      expect(vars.NATS_PASSWORD).toBe(env(services.nats).WARDEN_SERVICE_PASSWORD);
    });

    it('starts after provisioning has succeeded', () => {
      expect(dependsOn(services[name])).toMatchObject({ provision: 'service_completed_successfully' });
    });

    it('reports health from its readiness endpoint', () => {
      expect(words(services[name].healthcheck?.test)).toContain(`http://127.0.0.1:${port}/health/ready`);
    });

    it('can be scaled: no fixed container name or host port', () => {
      expect(services[name].container_name).toBeUndefined();
      expect(services[name].ports ?? []).toEqual([]);
    });
  });

  it('gives audit the compose PostgreSQL and waits for it to be healthy', () => {
    const postgres = env(services.postgres);
    const url = new URL(env(services.audit).DATABASE_URL);
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgres');
    expect(decodeURIComponent(url.username)).toBe(postgres.POSTGRES_USER);
    expect(decodeURIComponent(url.password)).toBe(postgres.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    expect(dependsOn(services.audit)).toMatchObject({ postgres: 'service_healthy' });
  });

  it('runs PostgreSQL 15 with user and database warden, a volume and a pg_isready healthcheck', () => {
    expect(services.postgres.image).toBe('postgres:15-alpine');
    expect(env(services.postgres)).toMatchObject({ POSTGRES_USER: 'warden', POSTGRES_DB: 'warden' });
    expect(mounts(services.postgres).map((m) => m.target)).toContain('/var/lib/postgresql/data');
    expect(words(services.postgres.healthcheck?.test)).toContain('pg_isready');
  });

  it('provisions once, with the CLI image, the configured partitions, every agent\'s checkpoint store and the service user, after NATS is healthy', () => {
    const provision = services.provision;
    const build = buildOf(provision);
    expect(build.dockerfile).toBe(DOCKERFILE);
    expect(build.args).toEqual({ APP: 'cli' });
    const agents = PARAMS.server.agents.map((a) => ` --agent ${a.user}`).join('');
    expect(words(provision.command)).toBe(`provision --partitions ${PARAMS.server.partitions}${agents}`);
    expect(dependsOn(provision)).toEqual({ nats: 'service_healthy' });
    expect(env(provision)).toMatchObject({ NATS_URL: `nats://nats:${PARAMS.server.port}`, NATS_USER: 'warden', NATS_PASSWORD: env(services.nats).WARDEN_SERVICE_PASSWORD });
  });

  it('runs nats-server 2.9 on the rendered configuration, with JetStream on a volume and a /healthz check', () => {
    const nats = services.nats;
    expect(nats.image).toMatch(/^nats:2\.9\.\d+-alpine$/);
    expect(words(nats.command)).toBe('-c /etc/nats/warden.conf');
    const volumes = mounts(nats);
    expect(volumes).toContainEqual({ source: join(ROOT, 'deploy', 'nats', 'warden.conf'), target: '/etc/nats/warden.conf' });
    expect(volumes.map((m) => m.target)).toContain(PARAMS.server.storeDir);
    expect(words(nats.healthcheck?.test)).toContain(`http://127.0.0.1:${PARAMS.server.monitorPort}/healthz`);
  });

  it('sets every password variable the NATS configuration reads, with values nats-server accepts', () => {
    const vars = env(services.nats);
    const conf = readFileSync(join(ROOT, 'deploy', 'nats', 'warden.conf'), 'utf8');
    const referenced = [...new Set([...conf.matchAll(/password: \$([A-Z0-9_]+)/g)].map((m) => m[1]))];
    expect(referenced.length).toBeGreaterThan(0);
    for (const name of referenced) expect(vars[name]).toBeTruthy();
    // Only the container's environment: nats-server must not find a variable in the test's own.
    const result = run(natsServerBinary(), ['-c', join(ROOT, 'deploy', 'nats', 'warden.conf'), '-t'], { PATH: process.env.PATH, ...vars });
    expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
      status: 0,
      output: expect.stringContaining('is valid'),
    });
  });

  it('passes password overrides from the environment to NATS and to everything that connects to it', () => {
    const overridden = composeConfig({ WARDEN_SERVICE_PASSWORD: 'override-service', WARDEN_DB_PASSWORD: 'override-db' });
    expect(env(overridden.nats).WARDEN_SERVICE_PASSWORD).toBe('override-service');
    for (const name of [...SERVICES, 'gateway', 'console', 'provision']) expect(env(overridden[name]).NATS_PASSWORD).toBe('override-service');
    expect(env(overridden.postgres).POSTGRES_PASSWORD).toBe('override-db');
    expect(new URL(env(overridden.audit).DATABASE_URL).password).toBe('override-db');
  });

  it('mounts the Prometheus configuration and the Grafana provisioning', () => {
    expect(services.prometheus.image).toMatch(/^prom\/prometheus(:|$)/);
    expect(mounts(services.prometheus)).toContainEqual({
      source: join(ROOT, 'deploy', 'prometheus', 'prometheus.yml'),
      target: '/etc/prometheus/prometheus.yml',
    });
    expect(services.grafana.image).toMatch(/^grafana\/grafana(:|$)/);
    expect(mounts(services.grafana)).toContainEqual({ source: join(ROOT, 'deploy', 'grafana', 'provisioning'), target: '/etc/grafana/provisioning' });
  });
});
