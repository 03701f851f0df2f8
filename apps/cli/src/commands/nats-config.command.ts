import {
  agentPasswordVariable,
  NATS_CONFIG_DEFAULTS as DEFAULTS,
  NATS_HELM_CHART,
  NATS_SERVER_IMAGE_TAG,
  renderNatsHelmValues,
  renderNatsServerConfig,
  type NatsUser,
} from '@warden/messaging';
import { integerOption, UsageError, type Command } from '../command.js';
import { out } from '../output.js';

const FORMATS = ['conf', 'helm-values'] as const;
type Format = (typeof FORMATS)[number];

/** Options that only one format has a use for. */
const ONLY: Record<string, Format> = { host: 'conf', 'monitor-host': 'conf', 'cluster-replicas': 'helm-values', 'password-secret': 'helm-values' };

export const natsConfigCommand: Command = {
  name: 'nats-config',
  summary: 'Print a nats-server configuration for Warden (or values for the NATS Helm chart)',
  help: `Usage: warden nats-config [--format conf|helm-values] [options]

Prints a nats-server (2.9+) configuration: JetStream, the subject mappings that spread sessions over
partitions, and users. Agents get permissions for their own subjects only (publish actions, outcomes
and session events; read their decisions and control messages). Passwords written as $NAME are read
by nats-server from its environment.

Formats:
  conf          a nats-server configuration file [default]
  helm-values   a values file for the official NATS Helm chart (${NATS_HELM_CHART.name} ${NATS_HELM_CHART.version}, ${NATS_HELM_CHART.repository})
                carrying the same configuration: the WARDEN account (mappings, users, permissions) and
                max_payload in config.merge, JetStream in config.jetstream, a cluster of
                --cluster-replicas servers in config.cluster, ports in config.nats and config.monitor;
                each $NAME password is written << $NAME >> (left unquoted by the chart) and
                container.env fills NAME from the key NAME of the Secret --password-secret. It also
                pins the image to nats:${NATS_SERVER_IMAGE_TAG}, enables the chart's Prometheus exporter
                and disables nats-box. The listening address, server names and routes are the chart's.

Options:
  --format FORMAT         conf or helm-values [conf]
  --partitions N          partitions per session channel [${DEFAULTS.partitions}]
  --host ADDRESS          listen address [127.0.0.1] (conf only)
  --port N                client port [${DEFAULTS.port}]
  --monitor-port N|off    HTTP monitoring port, or off (conf only) [${DEFAULTS.monitorPort}]
  --monitor-host ADDRESS  where monitoring listens [127.0.0.1] (conf only): nats-server asks no
                          credentials for it and it lists every connection, user and subscription
  --store-dir PATH        JetStream storage [${DEFAULTS.storeDir}]
  --service-password P    password of the service user "${DEFAULTS.service.user}" [${DEFAULTS.service.password}]
  --operator-password P   password of the operator user "${DEFAULTS.operator.user}" [${DEFAULTS.operator.password}]
  --agent ID[:PASSWORD]   an agent user, password $WARDEN_AGENT_<ID>_PASSWORD by default; repeat for each agent [none]
  --cluster-replicas N    nats-server replicas, 1 for no cluster (helm-values only) [${DEFAULTS.clusterReplicas}]
  --password-secret NAME  the Kubernetes Secret holding the $NAME passwords (helm-values only) [${DEFAULTS.passwordSecret}]

Examples:
  warden nats-config --agent claude-code:'$CLAUDE_CODE_PASSWORD' > /etc/nats/warden.conf
  warden nats-config --format helm-values --agent claude-code > nats-values.yaml
  helm install nats nats/nats --version ${NATS_HELM_CHART.version} --namespace warden --values nats-values.yaml`,
  options: {
    format: { type: 'string' },
    partitions: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    'monitor-port': { type: 'string' },
    'monitor-host': { type: 'string' },
    'store-dir': { type: 'string' },
    'service-password': { type: 'string' },
    'operator-password': { type: 'string' },
    agent: { type: 'string', multiple: true },
    'cluster-replicas': { type: 'string' },
    'password-secret': { type: 'string' },
  },
  async run(values) {
    const format = (values.format as string | undefined) ?? 'conf';
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got "${format}")`);
    for (const [option, only] of Object.entries(ONLY)) {
      if (values[option] !== undefined && only !== format) throw new UsageError(`--${option} applies to --format ${only} only`);
    }
    const agents: NatsUser[] = ((values.agent as string[] | undefined) ?? []).map((spec) => {
      const [user, password] = spec.split(':', 2) as [string, string | undefined];
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(user)) throw new UsageError(`agent id "${user}" must be letters, digits, - or _`);
      return { user, password: password ?? `$${agentPasswordVariable(user)}` };
    });
    const monitorOff = values['monitor-port'] === 'off';
    if (monitorOff) delete values['monitor-port'];
    const common = {
      partitions: integerOption(values, 'partitions', DEFAULTS.partitions),
      port: integerOption(values, 'port', DEFAULTS.port),
      monitorPort: integerOption(values, 'monitor-port', DEFAULTS.monitorPort),
      storeDir: (values['store-dir'] as string | undefined) ?? DEFAULTS.storeDir,
      service: { user: DEFAULTS.service.user, password: (values['service-password'] as string | undefined) ?? DEFAULTS.service.password },
      operators: [{ user: DEFAULTS.operator.user, password: (values['operator-password'] as string | undefined) ?? DEFAULTS.operator.password }],
      agents,
    };
    if (format === 'helm-values') {
      const passwordSecret = (values['password-secret'] as string | undefined) ?? DEFAULTS.passwordSecret;
      // A Kubernetes object name (DNS subdomain).
      if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(passwordSecret)) throw new UsageError(`--password-secret "${passwordSecret}" is not a Kubernetes Secret name`);
      // The values file is printed as it is to be saved: its last line ends with its own newline.
      out.line(renderNatsHelmValues({ ...common, clusterReplicas: integerOption(values, 'cluster-replicas', DEFAULTS.clusterReplicas), passwordSecret }).replace(/\n$/, ''));
      return 0;
    }
    const monitor = monitorOff ? { monitorPort: undefined } : { monitorHost: (values['monitor-host'] as string | undefined) ?? '127.0.0.1' };
    out.line(renderNatsServerConfig({ ...common, host: (values.host as string | undefined) ?? '127.0.0.1', ...monitor }));
    return 0;
  },
};
