// The committed deployment configuration: the NATS configurations are renderNatsServerConfig's output
// for deploy/nats/params.json (the parameters deploy/render-nats-configs.mjs reads too) and nats-server
// accepts them; Prometheus scrapes every service and promtool accepts its configuration.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { SERVICES } from '@warden/contracts';
import { renderNatsServerConfig, type NatsServerConfigOptions } from '@warden/messaging';
import { SERVICE_PORTS } from '@warden/service-bootstrap';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const NATS_DIR = join(ROOT, 'deploy', 'nats');
const REGENERATE = 'regenerate with `node deploy/render-nats-configs.mjs` (after `npx nx run messaging:build`)';

interface Params {
  server: Omit<NatsServerConfigOptions, 'cluster' | 'serverName'>;
  single: { file: string };
  cluster: { name: string; port: number; nodes: { file: string; serverName: string; routes: string[] }[] };
}
const params = JSON.parse(readFileSync(join(NATS_DIR, 'params.json'), 'utf8')) as Params;

/** Each committed file and the options it must be rendered from (as the render script builds them). */
const rendered: { file: string; options: NatsServerConfigOptions }[] = [
  { file: params.single.file, options: params.server },
  ...params.cluster.nodes.map((node) => ({
    file: node.file,
    options: { ...params.server, serverName: node.serverName, cluster: { name: params.cluster.name, port: params.cluster.port, routes: node.routes } },
  })),
];

/** What nats-server finds in its environment for the `$NAME` passwords of the configuration. */
const passwordEnv: Record<string, string> = Object.fromEntries(
  [params.server.service, ...(params.server.operators ?? []), ...params.server.agents]
    .map((user) => user.password)
    .filter((password) => password.startsWith('$'))
    .map((password) => [password.slice(1), `pw-${password.slice(1).toLowerCase().replace(/_/g, '-')}`]),
);

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });

/** The first of `candidates` that runs, or a failure that says which package to install. */
function tool(candidates: string[], versionArgs: string[], install: string): string {
  for (const candidate of candidates) if (run(candidate, versionArgs).status === 0) return candidate;
  throw new Error(`${candidates[0]} is not installed: run \`apt-get install -y ${install}\`.`);
}

/** `nats-server -t` (configuration test) with only `env` and PATH, so the test's own environment cannot help. */
function natsServerTest(file: string, env: Record<string, string>) {
  const natsServer = tool(['nats-server', '/usr/sbin/nats-server'], ['--version'], 'nats-server');
  const result = run(natsServer, ['-c', join(NATS_DIR, file), '-t'], { PATH: process.env.PATH, ...env });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

describe('deploy/nats', () => {
  it('holds exactly the configurations params.json describes', () => {
    const committed = [
      ...readdirSync(NATS_DIR).filter((f) => f.endsWith('.conf')),
      ...readdirSync(join(NATS_DIR, 'cluster')).filter((f) => f.endsWith('.conf')).map((f) => `cluster/${f}`),
    ];
    expect(committed.sort()).toEqual(rendered.map((r) => r.file).sort());
  });

  it('serves NATS monitoring (no credentials in nats-server 2.9) on loopback only, in every configuration', () => {
    for (const { file } of rendered) {
      const text = readFileSync(join(NATS_DIR, file), 'utf8');
      expect({ file, http: /^http: .*$/m.exec(text)?.[0] }).toEqual({ file, http: 'http: "127.0.0.1:8222"' });
    }
    expect(renderNatsServerConfig({ ...params.server, monitorPort: undefined })).not.toMatch(/^http:/m);
  });

  it('documents the deployment parameters: 8 partitions, all interfaces, ports 4222 and 8222, and the agents', () => {
    expect(params.server).toMatchObject({ partitions: 8, host: '0.0.0.0', port: 4222, monitorPort: 8222, storeDir: '/data/jetstream' });
    expect(params.server.service).toEqual({ user: 'warden', password: '$WARDEN_SERVICE_PASSWORD' });
    expect(params.server.operators).toEqual([{ user: 'operator', password: '$WARDEN_OPERATOR_PASSWORD' }]);
    expect(params.server.agents).toEqual([
      { user: 'claude-code', password: '$WARDEN_AGENT_CLAUDE_CODE_PASSWORD' },
      { user: 'demo-agent', password: '$WARDEN_AGENT_DEMO_AGENT_PASSWORD' },
    ]);
  });

  it('connects every cluster node to each other node, and to no one else', () => {
    const names = params.cluster.nodes.map((n) => n.serverName);
    expect(new Set(names).size).toBe(3);
    for (const node of params.cluster.nodes) {
      const others = names.filter((n) => n !== node.serverName).map((n) => `nats://${n}:${params.cluster.port}`);
      expect([...node.routes].sort()).toEqual(others.sort());
    }
  });

  describe.each(rendered.map((r) => [r.file, r.options] as const))('%s', (file, options) => {
    it(`is renderNatsServerConfig's output (if not, ${REGENERATE})`, () => {
      expect(readFileSync(join(NATS_DIR, file), 'utf8')).toBe(renderNatsServerConfig(options));
    });

    it('is accepted by nats-server when its password variables are set', () => {
      expect(natsServerTest(file, passwordEnv)).toEqual({ status: 0, output: expect.stringContaining('is valid') });
    });
  });

  it('is refused by nats-server when a password variable is missing, so the check above reads them', () => {
    const { WARDEN_SERVICE_PASSWORD: _missing, ...rest } = passwordEnv;
    expect(natsServerTest(params.single.file, rest)).toEqual({ status: 1, output: expect.stringContaining('WARDEN_SERVICE_PASSWORD') });
  });

  it('gives the single-server configuration `warden nats-config --host 0.0.0.0 --agent claude-code --agent demo-agent` prints', () => {
    const cli = join(ROOT, 'apps', 'cli', 'bin', 'warden.js');
    if (!existsSync(join(ROOT, 'apps', 'cli', 'dist', 'main.js'))) {
      throw new Error('apps/cli is not built: run `NX_DAEMON=false NX_NO_CLOUD=true npx nx run cli:build` (`nx run suite:test` builds it first).');
    }
    const args = ['nats-config', '--host', params.server.host!, ...params.server.agents.flatMap((a) => ['--agent', a.user])];
    const result = run(process.execPath, [cli, ...args], { ...process.env, NO_COLOR: '1' });
    expect(result.status).toBe(0);
    // The command prints the configuration as one line of output, so with one more newline.
    expect(result.stdout).toBe(`${readFileSync(join(NATS_DIR, params.single.file), 'utf8')}\n`);
  });
});

describe('deploy/prometheus/prometheus.yml', () => {
  const file = join(ROOT, 'deploy', 'prometheus', 'prometheus.yml');

  interface ScrapeConfig {
    job_name: string;
    metrics_path?: string;
    static_configs?: { targets: string[] }[];
    dns_sd_configs?: { names: string[]; type?: string; port?: number }[];
  }

  /** host:port of every target of a job, whether listed or found by DNS. */
  const targets = (job: ScrapeConfig): string[] => [
    ...(job.static_configs ?? []).flatMap((c) => c.targets),
    ...(job.dns_sd_configs ?? []).flatMap((c) => c.names.map((name) => `${name}:${c.port}`)),
  ];

  it.each([...SERVICES.map((s) => [s, SERVICE_PORTS[s]] as const), ['gateway', 3108] as const])('scrapes %s on its compose service name and port at /metrics', (service, port) => {
    const jobs = (parse(readFileSync(file, 'utf8')) as { scrape_configs: ScrapeConfig[] }).scrape_configs;
    const job = jobs.find((j) => targets(j).includes(`${service}:${port}`));
    expect(job).toBeDefined();
    // /metrics is Prometheus's default path.
    expect(job!.metrics_path ?? '/metrics').toBe('/metrics');
  });

  it('passes promtool check config', () => {
    const promtool = tool(['promtool'], ['--version'], 'prometheus');
    const result = run(promtool, ['check', 'config', file]);
    expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
      status: 0,
      output: expect.stringContaining('SUCCESS'),
    });
  });
});

describe('deploy/grafana/provisioning/datasources/prometheus.yml', () => {
  it('makes the compose Prometheus the default data source', () => {
    const file = join(ROOT, 'deploy', 'grafana', 'provisioning', 'datasources', 'prometheus.yml');
    const { apiVersion, datasources } = parse(readFileSync(file, 'utf8')) as {
      apiVersion: number;
      datasources: { type: string; url: string; isDefault?: boolean }[];
    };
    expect(apiVersion).toBe(1);
    expect(datasources).toEqual([expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true })]);
  });
});
