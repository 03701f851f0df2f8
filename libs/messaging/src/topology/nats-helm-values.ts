import { stringify } from 'yaml';
import { TOPOLOGY_DEFAULTS } from './topology.js';
import {
  agentPasswordVariable,
  NATS_MAX_PAYLOAD,
  passwordVariable,
  wardenAccount,
  type NatsServerConfigOptions,
  type Secret,
} from './nats-server-config.js';

/** The official NATS Helm chart the values are written for (its `config.merge` and `container.env` rules). */
export const NATS_HELM_CHART = {
  repository: 'https://nats-io.github.io/k8s/helm/charts/',
  name: 'nats',
  version: '2.14.2',
} as const;

/**
 * The nats-server image Warden runs (the compose file's too): Warden uses no feature beyond 2.9, and the
 * chart's own default image is a later server that Warden is not tested on.
 */
export const NATS_SERVER_IMAGE_TAG = '2.9.22-alpine';

/** Port of the chart's Prometheus exporter sidecar (promExporter.port). */
export const NATS_EXPORTER_PORT = 7777;

export interface NatsHelmValuesOptions extends Pick<NatsServerConfigOptions, 'partitions' | 'service' | 'operators' | 'agents' | 'storeDir'> {
  /** Client port [4222]. */
  port?: number;
  /** HTTP monitoring port [8222]; the chart's probes and exporter use it. */
  monitorPort?: number;
  /** nats-server replicas in the chart's StatefulSet; more than one forms a JetStream cluster. */
  clusterReplicas: number;
  /** The Kubernetes Secret holding every `$NAME` password, under the key NAME. */
  passwordSecret: string;
}

/** What `warden nats-config` takes when an option is left out. */
export const NATS_CONFIG_DEFAULTS = {
  partitions: TOPOLOGY_DEFAULTS.partitions,
  port: 4222,
  monitorPort: 8222,
  storeDir: '/data/jetstream',
  service: { user: 'warden', password: '$WARDEN_SERVICE_PASSWORD' },
  operator: { user: 'operator', password: '$WARDEN_OPERATOR_PASSWORD' },
  clusterReplicas: 3,
  passwordSecret: 'warden-nats-users',
} as const;

const shellWord = (word: string) => (/^[A-Za-z0-9_./:=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The `warden nats-config` command that renders these values, or undefined when its options cannot
 * express them (users other than one service user "warden" and one operator "operator").
 */
function commandLine(options: NatsHelmValuesOptions): string | undefined {
  const d = NATS_CONFIG_DEFAULTS;
  const operators = options.operators ?? [];
  if (options.service.user !== d.service.user || operators.length !== 1 || operators[0].user !== d.operator.user) return undefined;
  const args = ['--format', 'helm-values'];
  const option = (name: string, value: string | number, fallback: string | number) => {
    if (value !== fallback) args.push(`--${name}`, String(value));
  };
  option('partitions', options.partitions, d.partitions);
  option('port', options.port ?? d.port, d.port);
  option('monitor-port', options.monitorPort ?? d.monitorPort, d.monitorPort);
  option('store-dir', options.storeDir, d.storeDir);
  option('service-password', options.service.password, d.service.password);
  option('operator-password', operators[0].password, d.operator.password);
  for (const agent of options.agents) {
    args.push('--agent', agent.password === `$${agentPasswordVariable(agent.user)}` ? agent.user : `${agent.user}:${agent.password}`);
  }
  option('cluster-replicas', options.clusterReplicas, d.clusterReplicas);
  option('password-secret', options.passwordSecret, d.passwordSecret);
  return ['warden', 'nats-config', ...args].map(shellWord).join(' ');
}

/**
 * A password as the chart writes it into nats.conf: a `$NAME` the chart must leave unquoted (its
 * `<< … >>` rule), so that nats-server reads it from the environment; anything else as a string.
 */
function chartPassword(password: Secret): string {
  return passwordVariable(password) !== undefined ? `<< ${password} >>` : password;
}

/**
 * Values for the official NATS Helm chart carrying the same server configuration as
 * {@link renderNatsServerConfig}: JetStream, the WARDEN account with its partition mappings and users
 * (merged into the chart's nats.conf through `config.merge`), and the environment from which
 * nats-server reads the `$NAME` passwords (each from the key NAME of one Secret). Listening address,
 * server name and cluster routes are the chart's own.
 */
export function renderNatsHelmValues(options: NatsHelmValuesOptions): string {
  if (!Number.isInteger(options.clusterReplicas) || options.clusterReplicas < 1) throw new RangeError('clusterReplicas must be an integer >= 1');
  const account = wardenAccount(options);
  const variables = [...new Set(account.users.map((u) => passwordVariable(u.password)).filter((v): v is string => v !== undefined))];
  const values = {
    config: {
      nats: { port: options.port ?? NATS_CONFIG_DEFAULTS.port },
      monitor: { enabled: true, port: options.monitorPort ?? NATS_CONFIG_DEFAULTS.monitorPort },
      // The chart needs at least 2 servers for a JetStream cluster; one server runs alone.
      cluster: options.clusterReplicas > 1 ? { enabled: true, replicas: options.clusterReplicas } : { enabled: false },
      jetstream: { enabled: true, fileStore: { dir: options.storeDir } },
      merge: {
        max_payload: `<< ${NATS_MAX_PAYLOAD} >>`,
        accounts: {
          WARDEN: {
            jetstream: 'enabled',
            mappings: Object.fromEntries(account.mappings.map((m) => [m.from, m.to])),
            users: account.users.map((user) => ({
              user: user.user,
              password: chartPassword(user.password),
              ...(user.permissions
                ? { permissions: { publish: { allow: user.permissions.publish }, subscribe: { allow: user.permissions.subscribe } } }
                : {}),
            })),
          },
        },
      },
    },
    container: {
      image: { tag: NATS_SERVER_IMAGE_TAG },
      env: Object.fromEntries(variables.map((name) => [name, { valueFrom: { secretKeyRef: { name: options.passwordSecret, key: name } } }])),
    },
    // Server metrics in the Prometheus format, scraped through the same annotations as Warden's services.
    promExporter: { enabled: true, port: NATS_EXPORTER_PORT },
    podTemplate: {
      merge: { metadata: { annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(NATS_EXPORTER_PORT), 'prometheus.io/path': '/metrics' } } },
    },
    // nats-box would have no credentials for the WARDEN account; the warden CLI is the operators' tool.
    natsBox: { enabled: false },
  };
  const command = commandLine(options);
  const header = [
    `# Values for the official NATS Helm chart (${NATS_HELM_CHART.name} ${NATS_HELM_CHART.version}) carrying Warden's server configuration.`,
    command ? `# Rendered by \`${command}\`:` : '# Rendered by renderNatsHelmValues (@warden/messaging):',
    '# render again rather than edit. See deploy/README.md.',
    `# Sessions are spread over ${options.partitions} partitions; services must run with WARDEN_PARTITIONS=${options.partitions}.`,
    `# nats-server reads the passwords from its environment, filled from the Secret "${options.passwordSecret}".`,
    `#   helm repo add nats ${NATS_HELM_CHART.repository}`,
    `#   helm install nats nats/${NATS_HELM_CHART.name} --version ${NATS_HELM_CHART.version} --namespace warden --values <this file>`,
  ];
  // YAML 1.1 quoting, as Helm reads values with a YAML 1.1 parser: an agent called `no` stays a string.
  return `${header.join('\n')}\n${stringify(values, { lineWidth: 0, version: '1.1' })}`;
}
