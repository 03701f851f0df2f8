// deploy/kubernetes as Kustomize renders it (`kubectl kustomize`, Debian's kubernetes-client or any later
// kubectl): every manifest valid against the Kubernetes schemas, every docker-compose service deployed the
// same way (image, environment, configuration files), the overlays' replicas and budgets, and the NATS Helm
// chart's values files as `warden nats-config --format helm-values` renders them. Nothing is applied.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { connect } from '@nats-io/transport-node';
import ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICES } from '@warden/contracts';
import { freePort, NatsServerProcess, natsServerBinary } from '@warden/local-runtime';
import { NATS_SERVER_IMAGE_TAG, renderNatsHelmValues, type NatsHelmValuesOptions, type NatsServerConfigOptions } from '@warden/messaging';
import { SERVICE_PORTS } from '@warden/service-bootstrap';
import { chartNatsConfig, natsServerAccepts, type ChartValues } from './nats-chart.fixture.js';
import { composeConfig, env as composeEnv, mounts, ROOT, run, type RawService } from './compose.fixture.js';

const KUBERNETES_DIR = join(ROOT, 'deploy', 'kubernetes');
const NATS_DIR = join(ROOT, 'deploy', 'nats');
const CLI = join(ROOT, 'apps', 'cli', 'bin', 'warden.js');
const NAMESPACE = 'warden';
/** The CLI's environment: no colours (FORCE_COLOR, which a test runner may set, would win over NO_COLOR). */
const cliEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const { FORCE_COLOR: _colour, ...rest } = process.env;
  return { ...rest, NO_COLOR: '1', ...extra };
};
/** Every docker-compose service that runs a Warden app, each a Deployment of the same name. */
const APPS = [...SERVICES, 'gateway', 'console'] as const;
/** The HTTP ports of the apps that are not among SERVICE_PORTS (compose and `warden up` use the same). */
const EDGE_PORTS: Record<string, number> = { gateway: 3108, console: 3109 };

interface Params {
  server: Omit<NatsServerConfigOptions, 'cluster' | 'serverName'>;
  helm: { passwordSecret: string; values: { file: string; clusterReplicas: number }[] };
}
const params = JSON.parse(readFileSync(join(NATS_DIR, 'params.json'), 'utf8')) as Params;

// The rendered objects, loosely typed: the schema checks below are what holds them to Kubernetes' types.
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } };
interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

function kubectl(): string {
  const candidates = [process.env.KUBECTL, 'kubectl', '/usr/bin/kubectl'].filter((c): c is string => Boolean(c));
  for (const candidate of candidates) if (run(candidate, ['version', '--client'], process.env).status === 0) return candidate;
  throw new Error('kubectl is not installed: run `apt-get install -y kubernetes-client` (or set KUBECTL).');
}

/** `kubectl kustomize <dir>`: the objects `kubectl apply -k <dir>` would send. */
function kustomize(dir: string): K8sObject[] {
  const result = run(kubectl(), ['kustomize', join(KUBERNETES_DIR, dir)], process.env);
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed (exit ${result.status}):\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

const named = (objects: K8sObject[], kind: string, name: string): K8sObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
};
const podSpec = (workload: K8sObject) => workload.spec.template.spec as { containers: Container[]; volumes?: { name: string; configMap?: { name: string }; emptyDir?: object }[] };
const onlyContainer = (workload: K8sObject): Container => {
  const containers = podSpec(workload).containers;
  expect(containers).toHaveLength(1);
  return containers[0];
};

/** A variable as the container sees it: a value, or a key of a Secret (filled in by whoever runs the cluster). */
type Resolved = { value: string } | { secret: string; key: string };

/** The container's environment: envFrom first, then env, which wins (Kubernetes' order). */
function containerEnv(objects: K8sObject[], container: Container): Record<string, Resolved> {
  const vars: Record<string, Resolved> = {};
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef) throw new Error(`unexpected envFrom ${JSON.stringify(source)}: Secrets are read key by key`);
    // An optional ConfigMap the operator may create (tracing): nothing when it is not there.
    if (source.configMapRef.optional && !objects.some((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef!.name)) continue;
    for (const [k, v] of Object.entries(named(objects, 'ConfigMap', source.configMapRef.name).data ?? {})) vars[k] = { value: v };
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    if (from?.secretKeyRef) vars[variable.name] = { secret: from.secretKeyRef.name, key: from.secretKeyRef.key };
    else if (from?.configMapKeyRef) {
      const value = named(objects, 'ConfigMap', from.configMapKeyRef.name).data?.[from.configMapKeyRef.key];
      if (value === undefined) throw new Error(`${variable.name}: no key ${from.configMapKeyRef.key} in ${from.configMapKeyRef.name}`);
      vars[variable.name] = { value };
    } else vars[variable.name] = { value: variable.value ?? '' };
  }
  return vars;
}

/** The values file of the chart for this overlay: the base and production run the cluster, dev one server. */
const VALUES_OF: Record<string, string> = { base: 'values.yaml', 'overlays/dev': 'values-dev.yaml', 'overlays/production': 'values.yaml' };
const readValues = (file: string) => parse(readFileSync(join(KUBERNETES_DIR, 'nats', file), 'utf8')) as ChartValues;
const natsServers = (values: ChartValues) => (values.config.cluster.enabled ? values.config.cluster.replicas! : 1);

// ---------------------------------------------------------------------------------------------------
// Schema checks. kubernetes-models (4.5.x: the OpenAPI schemas of Kubernetes 1.33) validates each object
// at run time: required fields, types, formats, enumerations. Its schemas, like Kubernetes' own, allow
// unknown fields, which the API server rejects (kubectl's strict field validation): its TypeScript types
// catch those, by type-checking each object literal against its kind's interface with the compiler.

async function schemaErrors(objects: K8sObject[]): Promise<string[]> {
  const errors: string[] = [];
  for (const object of objects) {
    const module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = module[object.kind];
    if (!Model) {
      errors.push(`${object.kind}/${object.metadata.name}: kubernetes-models has no ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      errors.push(`${object.kind}/${object.metadata.name}: ${(error as Error).message}`);
    }
  }
  return errors;
}

function unknownFieldErrors(objects: K8sObject[]): string[] {
  const fileName = join(ROOT, 'test', 'suite', 'workspace', '__rendered-manifests__.ts');
  const imports = new Map<string, string>();
  const body: string[] = [];
  const starts: { line: number; object: K8sObject }[] = [];
  let line = 0;
  objects.forEach((object, i) => {
    const type = `${object.kind}_${object.apiVersion.replace(/[^A-Za-z0-9]/g, '_')}`;
    imports.set(type, `import type { I${object.kind} as ${type} } from 'kubernetes-models/${object.apiVersion}/${object.kind}';`);
    const text = `export const object${i} = ${JSON.stringify(object, null, 1)} satisfies ${type};`;
    starts.push({ line, object });
    body.push(text);
    line += text.split('\n').length;
  });
  const header = [...imports.values()];
  const source = [...header, ...body].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === fileName ? ts.createSourceFile(name, source, languageVersion) : getSourceFile.call(host, name, languageVersion, ...rest);
  host.fileExists = (name) => name === fileName || fileExists.call(host, name);
  host.readFile = (name) => (name === fileName ? source : readFile.call(host, name));
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (d.file?.fileName !== fileName || d.start === undefined) return message;
    const at = d.file.getLineAndCharacterOfPosition(d.start).line - header.length;
    const owner = [...starts].reverse().find((s) => s.line <= at)?.object;
    return `${owner ? `${owner.kind}/${owner.metadata.name}` : 'imports'}: ${message}`;
  });
}

describe('the schema checks', () => {
  const deployment = (container: Record<string, unknown>, replicas: unknown = 1): K8sObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'broken' },
    spec: { replicas, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container] } } },
  });

  it('accept a well-formed Deployment', async () => {
    const fine = deployment({ name: 'c', image: 'i', readinessProbe: { httpGet: { path: '/', port: 'http' } } });
    expect(await schemaErrors([fine])).toEqual([]);
    expect(unknownFieldErrors([fine])).toEqual([]);
  });

  it('reject a wrong type or a missing required field', async () => {
    expect(await schemaErrors([deployment({ name: 'c', image: 'i' }, 'two')])).toEqual([expect.stringContaining('replicas')]);
    expect(await schemaErrors([deployment({ image: 'i' })])).toEqual([expect.stringContaining('name')]);
  });

  it('reject a field the Kubernetes type does not have, naming the object', () => {
    expect(unknownFieldErrors([deployment({ name: 'c', image: 'i', readinesProbe: { httpGet: { path: '/', port: 'http' } } })])).toEqual([
      expect.stringMatching(/^Deployment\/broken: .*readinesProbe/s),
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe.each(['base', 'overlays/dev', 'overlays/production'])('deploy/kubernetes/%s', (dir) => {
  let objects: K8sObject[];
  let compose: Record<string, RawService>;
  const values = readValues(VALUES_OF[dir]);

  beforeAll(() => {
    objects = kustomize(dir);
    compose = composeConfig();
  });

  it('renders every object against the Kubernetes 1.33 schemas, without an unknown field', async () => {
    expect(objects.length).toBeGreaterThan(0);
    expect(await schemaErrors(objects)).toEqual([]);
    expect(unknownFieldErrors(objects)).toEqual([]);
  });

  it('puts everything in the namespace of the NATS release, labelled as part of Warden', () => {
    for (const object of objects) {
      expect({ object: `${object.kind}/${object.metadata.name}`, namespace: object.metadata.namespace, partOf: object.metadata.labels?.['app.kubernetes.io/part-of'] }).toEqual({
        object: `${object.kind}/${object.metadata.name}`,
        namespace: NAMESPACE,
        partOf: 'warden',
      });
    }
  });

  it('deploys exactly the Warden apps of docker-compose.yml, and provisions with a Job', () => {
    expect(objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name).sort()).toEqual([...APPS].sort());
    expect(objects.filter((o) => o.kind === 'Job').map((o) => o.metadata.name)).toEqual(['warden-provision']);
    // Credentials are never in the manifests: they are created by hand (deploy/README.md).
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  describe.each([...APPS])('%s', (app) => {
    const deployment = () => named(objects, 'Deployment', app);

    it('runs the image of its compose service with the same environment, credentials from Secrets', () => {
      const container = onlyContainer(deployment());
      expect(container.image).toBe(compose[app].image);
      const natsEnv = composeEnv(compose.nats);
      const resolved = Object.entries(containerEnv(objects, container)).map(([name, v]): [string, string] => {
        if ('value' in v) return [name, v.value];
        // The NATS users' Secret holds the passwords nats-server reads, as compose's nats service gets them.
        if (v.secret === params.helm.passwordSecret) return [name, natsEnv[v.key]];
        // audit's database is the operator's: the URL differs, the variable is the same.
        expect({ name, secret: v.secret, key: v.key }).toEqual({ name: 'DATABASE_URL', secret: 'warden-audit-database', key: 'DATABASE_URL' });
        return [name, composeEnv(compose[app]).DATABASE_URL];
      });
      expect(Object.fromEntries(resolved)).toEqual(composeEnv(compose[app]));
    });

    it('takes the OpenTelemetry settings from the ConfigMap warden-otel when there is one, and runs without it', () => {
      const container = onlyContainer(deployment());
      const otel = (container.envFrom ?? []).filter((source) => source.configMapRef?.name === 'warden-otel');
      // The console neither handles nor publishes suite messages through the traced transport.
      expect(otel).toEqual(app === 'console' ? [] : [{ configMapRef: { name: 'warden-otel', optional: true } }]);
      expect(objects.some((o) => o.metadata.name === 'warden-otel')).toBe(false);
    });

    it('mounts the configuration files of its compose service, at the same paths, from ConfigMaps made of the same files', () => {
      const spec = podSpec(deployment());
      const container = onlyContainer(deployment());
      const fromConfigMaps = (container.volumeMounts ?? []).flatMap((mount) => {
        const configMap = spec.volumes?.find((v) => v.name === mount.name)?.configMap;
        return configMap ? [{ target: mount.mountPath, readOnly: mount.readOnly, files: named(objects, 'ConfigMap', configMap.name).data }] : [];
      });
      const expected = mounts(compose[app]).map(({ source, target }) => ({
        target,
        readOnly: true,
        // The folder's own kustomization.yaml is what makes the ConfigMap, not part of it; nor are its folders (a policy's tests).
        files: Object.fromEntries(
          readdirSync(source, { withFileTypes: true })
            .filter((f) => f.isFile() && f.name !== 'kustomization.yaml')
            .map((f) => [f.name, readFileSync(join(source, f.name), 'utf8')]),
        ),
      }));
      expect(fromConfigMaps).toEqual(expected);
    });

    it('is ready on /health/ready and alive on /health/live at its HTTP port, and scraped there', () => {
      const container = onlyContainer(deployment());
      const env = containerEnv(objects, container);
      const port = Number((env.HTTP_PORT as { value: string }).value);
      expect(port).toBe(EDGE_PORTS[app] ?? SERVICE_PORTS[app as keyof typeof SERVICE_PORTS]);
      const http = container.ports?.find((p) => p.name === 'http');
      expect(http?.containerPort).toBe(port);
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(deployment().spec.template.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
    });

    it('has a Service of the same name in front of its pods, and of no other', () => {
      const service = named(objects, 'Service', app);
      const selects = (labels: Record<string, string>) => Object.entries(service.spec.selector as Record<string, string>).every(([k, v]) => labels[k] === v);
      const selected = objects.filter((o) => o.spec?.template && selects(o.spec.template.metadata.labels ?? {})).map((o) => `${o.kind}/${o.metadata.name}`);
      expect(selected).toEqual([`Deployment/${app}`]);
      expect(service.spec.ports).toEqual([{ name: 'http', port: onlyContainer(deployment()).ports![0].containerPort, targetPort: 'http' }]);
    });

    it('selects its own pods only, with the labels of its pod template', () => {
      const { selector, template } = deployment().spec;
      expect(template.metadata.labels).toMatchObject(selector.matchLabels);
      expect(selector.matchLabels['app.kubernetes.io/name']).toBe(app);
    });
  });

  it("provisions as compose's provision service does, with as many stream replicas as the chart's NATS servers", () => {
    const job = named(objects, 'Job', 'warden-provision');
    const container = onlyContainer(job);
    expect(container.image).toBe(compose.provision.image);
    const args = [...(container.args ?? [])];
    const at = args.indexOf('--replicas');
    expect(at).toBeGreaterThan(0);
    expect(Number(args[at + 1])).toBe(natsServers(values));
    args.splice(at, 2);
    expect(args).toEqual(compose.provision.command);
    const resolved = Object.entries(containerEnv(objects, container)).map(([name, v]) => [name, 'value' in v ? v.value : composeEnv(compose.nats)[v.key]]);
    expect(Object.fromEntries(resolved)).toEqual(composeEnv(compose.provision));
    expect(job.spec.template.spec.restartPolicy).toBe('OnFailure');
  });

  it('reads only the Secrets and keys deploy/README.md tells how to create', () => {
    const readme = readFileSync(join(ROOT, 'deploy', 'README.md'), 'utf8');
    const documented = new Set(
      [...readme.matchAll(/create secret generic ([a-z0-9-]+)((?:\s*\\?\n?\s*--from-literal=[A-Z0-9_]+=\S+)+)/g)].flatMap((m) =>
        [...m[2].matchAll(/--from-literal=([A-Z0-9_]+)=/g)].map((k) => `${m[1]}/${k[1]}`),
      ),
    );
    const referenced = new Set(
      objects
        .filter((o) => o.spec?.template)
        .flatMap((o) => podSpec(o).containers.flatMap((c) => (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [`${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`] : [])))),
    );
    expect(referenced.size).toBeGreaterThan(0);
    for (const ref of referenced) expect({ ref, documented: documented.has(ref) }).toEqual({ ref, documented: true });
  });

  if (dir === 'overlays/production') {
    it('runs at least two replicas of every app, spread over nodes, and no more partitioned replicas than partitions', () => {
      for (const app of APPS) {
        const deployment = named(objects, 'Deployment', app);
        expect({ app, enough: deployment.spec.replicas >= 2 }).toEqual({ app, enough: true });
        if (!(app in EDGE_PORTS)) expect(deployment.spec.replicas).toBeLessThanOrEqual(params.server.partitions);
        expect(deployment.spec.template.spec.topologySpreadConstraints).toEqual([
          expect.objectContaining({ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: deployment.spec.selector.matchLabels } }),
        ]);
      }
    });

    it('gives every container CPU and memory requests and limits, requests within limits', () => {
      for (const workload of objects.filter((o) => o.kind === 'Deployment')) {
        const { requests, limits } = onlyContainer(workload).resources ?? {};
        expect({ app: workload.metadata.name, requests: Object.keys(requests ?? {}).sort(), limits: Object.keys(limits ?? {}).sort() }).toEqual({
          app: workload.metadata.name,
          requests: ['cpu', 'memory'],
          limits: ['cpu', 'memory'],
        });
        for (const resource of ['cpu', 'memory']) expect(quantity(requests![resource])).toBeLessThanOrEqual(quantity(limits![resource]));
      }
    });

    it('has a PodDisruptionBudget per app that keeps all but one of its pods, selecting them exactly', () => {
      const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
      expect(budgets.map((b) => b.metadata.name).sort()).toEqual([...APPS].sort());
      for (const budget of budgets) {
        expect(budget.spec.maxUnavailable).toBe(1);
        expect(budget.spec.selector).toEqual(named(objects, 'Deployment', budget.metadata.name).spec.selector);
      }
    });
  } else {
    it('runs one replica of every app, with no disruption budget', () => {
      expect(objects.filter((o) => o.kind === 'Deployment').map((o) => [o.metadata.name, o.spec.replicas])).toEqual(APPS.map(() => [expect.any(String), 1]));
      expect(objects.filter((o) => o.kind === 'PodDisruptionBudget')).toEqual([]);
    });
  }
});

/** A Kubernetes quantity (the forms used here: plain, m, Ki/Mi/Gi) as a number. */
function quantity(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi)?$/.exec(text);
  if (!m) throw new Error(`quantity ${text}`);
  const unit = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }[m[2] as 'm' | 'Ki' | 'Mi' | 'Gi'] ?? 1;
  return Number(m[1]) * unit;
}

// ---------------------------------------------------------------------------------------------------

describe.each(params.helm.values.map((v) => [relative(ROOT, join(NATS_DIR, v.file)), v.file, v.clusterReplicas] as const))('%s (NATS Helm chart values)', (_title, file, clusterReplicas) => {
  const path = join(NATS_DIR, file);
  const options: NatsHelmValuesOptions = { ...params.server, clusterReplicas, passwordSecret: params.helm.passwordSecret };
  const cliArgs = [
    'nats-config',
    '--format',
    'helm-values',
    ...params.server.agents.flatMap((a) => ['--agent', a.user]),
    ...(clusterReplicas === 3 ? [] : ['--cluster-replicas', String(clusterReplicas)]),
  ];

  it('is renderNatsHelmValues of deploy/nats/params.json (if not, regenerate with `node deploy/render-nats-configs.mjs`)', () => {
    expect(readFileSync(path, 'utf8')).toBe(renderNatsHelmValues(options));
  });

  it('is what `warden nats-config --format helm-values` prints, the command its header names', () => {
    const result = run(process.execPath, [CLI, ...cliArgs], cliEnv());
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    const text = readFileSync(path, 'utf8');
    expect(result.stdout).toBe(text);
    expect(text).toContain(`# Rendered by \`warden ${cliArgs.join(' ')}\`:`);
  });

  it("fills every password variable of Warden's users from the Secret, and runs the compose file's nats-server", () => {
    const values = parse(readFileSync(path, 'utf8')) as ChartValues;
    const variables = [params.server.service, ...(params.server.operators ?? []), ...params.server.agents].map((u) => u.password.slice(1)).sort();
    expect(Object.keys(values.container.env).sort()).toEqual(variables);
    for (const name of variables) expect(values.container.env[name]).toEqual({ valueFrom: { secretKeyRef: { name: params.helm.passwordSecret, key: name } } });
    expect(composeConfig().nats.image).toBe(`nats:${NATS_SERVER_IMAGE_TAG}`);
    expect(natsServers(values)).toBe(clusterReplicas);
  });

  it('becomes, merged into the chart\'s own configuration, a nats.conf that nats-server accepts', () => {
    const values = parse(readFileSync(path, 'utf8')) as ChartValues;
    const conf = chartNatsConfig(values, 'nats');
    // What the chart's container gets: SERVER_NAME, and each password from the Secret.
    const env: Record<string, string> = { SERVER_NAME: 'nats-0', ...Object.fromEntries(Object.keys(values.container.env).map((k) => [k, `pw-${k.toLowerCase().replace(/_/g, '-')}`])) };
    expect(natsServerAccepts(natsServerBinary(), conf, env)).toEqual({ status: 0, output: expect.stringContaining('is valid') });
    const { WARDEN_SERVICE_PASSWORD: _missing, ...withoutService } = env;
    expect(natsServerAccepts(natsServerBinary(), conf, withoutService)).toEqual({ status: 1, output: expect.stringContaining('WARDEN_SERVICE_PASSWORD') });
  });

  it('serves Warden as the chart renders it (on one server here): provisioning finds the partition mapping, agents log in with their passwords', async () => {
    const values = parse(readFileSync(path, 'utf8')) as ChartValues;
    const dir = mkdtempSync(join(tmpdir(), 'warden-chart-run-'));
    const [port, monitorPort] = [await freePort(), await freePort()];
    // The chart's configuration with this machine's ports and a temporary store, without the cluster
    // (its routes name the StatefulSet's pods): the account, users and JetStream as in the cluster.
    const one: ChartValues = { ...values, config: { ...values.config, nats: { port }, monitor: { enabled: true, port: monitorPort }, cluster: { enabled: false }, jetstream: { ...values.config.jetstream, fileStore: { dir } } } };
    const conf = join(dir, 'nats.conf');
    writeFileSync(conf, chartNatsConfig(one, 'nats').replace('/var/run/nats/nats.pid', join(dir, 'nats.pid')));
    const passwords = Object.fromEntries(Object.keys(values.container.env).map((k) => [k, `pw-${Math.random().toString(36).slice(2)}`]));
    const server = new NatsServerProcess({ configPath: conf, port, env: { PATH: process.env.PATH, SERVER_NAME: 'nats-0', ...passwords } });
    try {
      await server.start();
      const url = `nats://127.0.0.1:${port}`;
      const provision = run(process.execPath, [CLI, 'provision', '--partitions', String(params.server.partitions), ...params.server.agents.flatMap((a) => ['--agent', a.user])], cliEnv({
        NATS_URL: url,
        NATS_USER: params.server.service.user,
        NATS_PASSWORD: passwords[params.server.service.password.slice(1)],
      }));
      expect({ status: provision.status, stderr: provision.stderr }).toEqual({ status: 0, stderr: '' });
      expect(provision.stdout).toMatch(/^Provisioned /m);
      const agent = params.server.agents[0];
      const nc = await connect({ servers: url, user: agent.user, pass: passwords[agent.password.slice(1)], inboxPrefix: `_INBOX_${agent.user}` });
      await nc.close();
      await expect(connect({ servers: url, user: agent.user, pass: 'not-its-password', reconnect: false })).rejects.toThrow(/Authorization/i);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
