import {
  CHANNELS,
  checkpointBucket,
  CONTROL_MAILBOX_BUCKET,
  DECISION_RECORD_BUCKET,
  deadLetterSubscription,
  partitionMapping,
  partitionProbeMapping,
  PARTITION_PROBE_ROOT,
  requestSubjects,
  SEAL_PUBLIC_KEY_SUBJECT,
  SESSION_CHANNEL_IDS,
  sessionSubscription,
  streamSubject,
  SUBJECT_ROOT,
  type SessionChannelId,
} from '@warden/contracts';

/**
 * A password literally, a bcrypt hash of it (`$2a$…`, `$2b$…`: nats-server checks the password against
 * the hash), or `$NAME` to let nats-server read it from the environment.
 */
export type Secret = string;

const BCRYPT = /^\$2[aby]\$\d{2}\$/;

export interface NatsUser {
  user: string;
  password: Secret;
}

export interface NatsServerConfigOptions {
  partitions: number;
  host?: string;
  port?: number;
  /**
   * HTTP monitoring port; omitted (monitoring off) when undefined. nats-server 2.9 has no credentials
   * for it, and it lists every connection, user and subscription: it listens on `monitorHost`.
   */
  monitorPort?: number;
  /** Where monitoring listens: loopback by default whatever `host` is, for a scraper beside the server. */
  monitorHost?: string;
  /** Go's profiling endpoint (`/debug/pprof/…`) on this port of the same host; omitted when undefined. */
  profPort?: number;
  storeDir: string;
  serverName?: string;
  /** Services: everything on `warden.>`, JetStream and KV. */
  service: NatsUser;
  /** Operators: commands and audit queries. */
  operators?: NatsUser[];
  /** Agents: only their own subjects. The user name is the agent id. */
  agents: NatsUser[];
  cluster?: { name: string; host?: string; port: number; routes: string[] };
}

const quote = (value: string) => (passwordVariable(value) !== undefined ? value : JSON.stringify(value));
const list = (items: string[]) => `[${items.map((i) => JSON.stringify(i)).join(', ')}]`;

/** Subjects an agent may publish and subscribe to: its own sessions only, found by its agent id token. */
export function agentPermissions(agentId: string): { publish: string[]; subscribe: string[] } {
  const sent = SESSION_CHANNEL_IDS.filter((id) => (CHANNELS[id].senders as readonly string[]).includes('agent'));
  const received = SESSION_CHANNEL_IDS.filter((id) => (CHANNELS[id].receivers as readonly string[]).includes('agent'));
  const bucket = checkpointBucket(agentId);
  const checkpoints = `OBJ_${bucket}`;
  return {
    // Permissions apply to the subject after the server mapping, hence the partition wildcard.
    publish: [
      ...sent.map((id) => sessionSubscription(id, agentId, '*')),
      // No consumer management at all: a consumer an agent may create is one it may update (another
      // service's durable, refiltered to blind it) or point at any deliver subject (into Warden's own
      // streams). An agent reads only by direct gets of what is its own.
      // Its own checkpoint object store (file snapshots for rollback), and no other agent's. Warden
      // provisions it: an agent never creates or reconfigures a stream, since a stream it configured
      // could capture subjects it may not read (other agents' inboxes, the services' replies).
      '$JS.API.INFO',
      `$JS.API.STREAM.INFO.${checkpoints}`,
      // Replacing or deleting an object purges its old chunks.
      `$JS.API.STREAM.PURGE.${checkpoints}`,
      `$JS.API.STREAM.MSG.GET.${checkpoints}`,
      `$JS.API.DIRECT.GET.${checkpoints}`,
      `$JS.API.DIRECT.GET.${checkpoints}.>`,
      `$O.${bucket}.>`,
      // Its own decided actions (a repeated action id is answered from the stored decision), read only.
      `$JS.API.DIRECT.GET.KV_${DECISION_RECORD_BUCKET}.$KV.${DECISION_RECORD_BUCKET}.${agentId}.>`,
      // Its own sessions' recent control messages (a process that was not listening reads what was sent), read only.
      `$JS.API.DIRECT.GET.KV_${CONTROL_MAILBOX_BUCKET}.$KV.${CONTROL_MAILBOX_BUCKET}.${agentId}.>`,
      // The public half of the key it seals its actions' secrets with, read only; never the private half.
      SEAL_PUBLIC_KEY_SUBJECT,
    ],
    subscribe: [
      ...received.map((id) => sessionSubscription(id, agentId, '*')),
      deadLetterSubscription(agentId, '*'),
      `_INBOX_${agentId}.>`,
    ],
  };
}

export function operatorPermissions(): { publish: string[]; subscribe: string[] } {
  const commands = SESSION_CHANNEL_IDS.filter((id) => (CHANNELS[id].senders as readonly string[]).includes('operator'));
  return {
    publish: [
      ...commands.map((id) => streamSubject(id)),
      requestSubjects(),
      // Read-only: how far each service got (`warden replay` waits for the suite to be quiet).
      '$JS.API.STREAM.NAMES',
      '$JS.API.CONSUMER.LIST.*',
      '$JS.API.CONSUMER.INFO.*.*',
    ],
    subscribe: [`${SUBJECT_ROOT}.>`, '_INBOX.>'],
  };
}

/** The inbox prefix an agent connects with, so that replies to it stay readable only by it. */
export function agentInboxPrefix(agentId: string): string {
  return `_INBOX_${agentId}`;
}

/** A user of the WARDEN account: its name, its password (see {@link Secret}), and what it may do. */
export interface WardenAccountUser extends NatsUser {
  /** Absent for the service user: everything in the account. */
  permissions?: { publish: string[]; subscribe: string[] };
}

/**
 * Warden's account, the same in every server configuration format: the partition mapping of every
 * session channel (and the probe's), then the service user, the operators and the agents, in that order.
 */
export function wardenAccount(options: Pick<NatsServerConfigOptions, 'partitions' | 'service' | 'operators' | 'agents'>): {
  mappings: { from: string; to: string }[];
  users: WardenAccountUser[];
} {
  return {
    mappings: [
      ...SESSION_CHANNEL_IDS.map((id: SessionChannelId) => partitionMapping(id, options.partitions)),
      partitionProbeMapping(options.partitions),
    ],
    users: [
      { ...options.service },
      ...(options.operators ?? []).map((op) => ({ ...op, permissions: operatorPermissions() })),
      ...options.agents.map((agent) => ({ ...agent, permissions: agentPermissions(agent.user) })),
    ],
  };
}

/** The environment variable an agent's password is read from by default: WARDEN_AGENT_<ID>_PASSWORD. */
export function agentPasswordVariable(agentId: string): string {
  return `WARDEN_AGENT_${agentId.toUpperCase().replace(/-/g, '_')}_PASSWORD`;
}

/** Whether nats-server reads this password from its environment (`$NAME`), and then the variable's name. */
export function passwordVariable(password: Secret): string | undefined {
  return password.startsWith('$') && !BCRYPT.test(password) ? password.slice(1) : undefined;
}

/** Services reject payloads over their own limit with a reason; the server must let such messages reach them. */
export const NATS_MAX_PAYLOAD = '8MB';

function userBlock(user: WardenAccountUser): string {
  const base = `{ user: ${JSON.stringify(user.user)}, password: ${quote(user.password)}`;
  if (!user.permissions) return `${base} }`;
  const { publish, subscribe } = user.permissions;
  return `${base}, permissions: { publish: { allow: ${list(publish)} }, subscribe: { allow: ${list(subscribe)} } } }`;
}

/**
 * Renders a nats-server (2.9+) configuration for Warden: JetStream, the partition mappings of every
 * session channel, and users whose permissions keep each agent to its own subjects.
 */
export function renderNatsServerConfig(options: NatsServerConfigOptions): string {
  const account = wardenAccount(options);
  const lines: string[] = [
    '# Warden nats-server configuration (rendered by `warden nats-config`).',
    `# Sessions are spread over ${options.partitions} partitions; services must run with WARDEN_PARTITIONS=${options.partitions}.`,
  ];
  if (options.serverName) lines.push(`server_name: ${JSON.stringify(options.serverName)}`);
  lines.push(`listen: ${JSON.stringify(`${options.host ?? '127.0.0.1'}:${options.port ?? 4222}`)}`);
  if (options.monitorPort !== undefined) {
    lines.push(
      '# Monitoring lists connections, users and subscriptions and nats-server 2.9 asks no credentials for it: loopback only.',
      `http: ${JSON.stringify(`${options.monitorHost ?? '127.0.0.1'}:${options.monitorPort}`)}`,
    );
  }
  if (options.profPort !== undefined) lines.push(`prof_port: ${options.profPort}`);
  lines.push(
    '# Services reject payloads over their own limit with a reason; the server must let such messages reach them.',
    `max_payload: ${NATS_MAX_PAYLOAD}`,
    `jetstream { store_dir: ${JSON.stringify(options.storeDir)} }`,
  );
  if (options.cluster) {
    lines.push(
      'cluster {',
      `  name: ${JSON.stringify(options.cluster.name)}`,
      `  listen: ${JSON.stringify(`${options.cluster.host ?? '0.0.0.0'}:${options.cluster.port}`)}`,
      `  routes: ${list(options.cluster.routes)}`,
      '}',
    );
  }
  lines.push('accounts {', '  WARDEN {', '    jetstream: enabled', '    mappings = {');
  for (const m of account.mappings) lines.push(`      ${JSON.stringify(m.from)}: ${JSON.stringify(m.to)}`);
  lines.push('    }', '    users = [');
  for (const user of account.users) lines.push(`      ${userBlock(user)}`);
  lines.push('    ]', '  }', '}', '');
  return lines.join('\n');
}

export { PARTITION_PROBE_ROOT };
