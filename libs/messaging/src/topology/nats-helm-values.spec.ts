import { parse } from 'yaml';
import { NATS_SERVER_IMAGE_TAG, renderNatsHelmValues, type NatsHelmValuesOptions } from './nats-helm-values.js';
import { agentPermissions, operatorPermissions, renderNatsServerConfig } from './nats-server-config.js';

const options = (overrides: Partial<NatsHelmValuesOptions> = {}): NatsHelmValuesOptions => ({
  partitions: 8,
  storeDir: '/data/jetstream',
  service: { user: 'warden', password: '$WARDEN_SERVICE_PASSWORD' },
  operators: [{ user: 'operator', password: '$WARDEN_OPERATOR_PASSWORD' }],
  agents: [{ user: 'claude-code', password: '$WARDEN_AGENT_CLAUDE_CODE_PASSWORD' }],
  clusterReplicas: 3,
  passwordSecret: 'warden-nats-users',
  ...overrides,
});

interface Values {
  config: {
    cluster: { enabled: boolean; replicas?: number };
    jetstream: { enabled: boolean; fileStore: { dir: string } };
    nats: { port: number };
    monitor: { port: number };
    merge: { max_payload: string; accounts: { WARDEN: { jetstream: string; mappings: Record<string, string>; users: { user: string; password: string; permissions?: unknown }[] } } };
  };
  container: { image: { tag: string }; env: Record<string, unknown> };
}
const values = (o: NatsHelmValuesOptions) => parse(renderNatsHelmValues(o)) as Values;

describe('renderNatsHelmValues', () => {
  it("carries the same mappings as the server configuration, in the chart's config.merge", () => {
    const account = values(options({ partitions: 4 })).config.merge.accounts.WARDEN;
    const conf = renderNatsServerConfig({ ...options({ partitions: 4 }), host: '0.0.0.0' });
    const confMappings = [...conf.matchAll(/^ {6}("warden\.[^"]+"): ("[^"]+")$/gm)].map((m) => [JSON.parse(m[1]) as string, JSON.parse(m[2]) as string]);
    expect(confMappings.length).toBeGreaterThan(10);
    expect(Object.entries(account.mappings)).toEqual(confMappings);
    expect(account.jetstream).toBe('enabled');
  });

  it('gives each user its permissions: the service all, operators and agents only theirs', () => {
    const users = values(options()).config.merge.accounts.WARDEN.users;
    expect(users).toEqual([
      { user: 'warden', password: '<< $WARDEN_SERVICE_PASSWORD >>' },
      { user: 'operator', password: '<< $WARDEN_OPERATOR_PASSWORD >>', permissions: { publish: { allow: operatorPermissions().publish }, subscribe: { allow: operatorPermissions().subscribe } } },
      {
        user: 'claude-code',
        password: '<< $WARDEN_AGENT_CLAUDE_CODE_PASSWORD >>',
        permissions: { publish: { allow: agentPermissions('claude-code').publish }, subscribe: { allow: agentPermissions('claude-code').subscribe } },
      },
    ]);
  });

  it('fills each $NAME password from the key NAME of the Secret, and writes other passwords as strings', () => {
    const hash = '$2a$11$W2zko751KUvVy59mUTWmpOdWjpEm5qhcCZRd05GjI/sSOT.xtiHyG';
    const v = values(options({ service: { user: 'warden', password: 'literal-pw' }, operators: [{ user: 'operator', password: hash }], passwordSecret: 'my-secret' }));
    expect(v.config.merge.accounts.WARDEN.users.map((u) => u.password)).toEqual(['literal-pw', hash, '<< $WARDEN_AGENT_CLAUDE_CODE_PASSWORD >>']);
    expect(v.container.env).toEqual({ WARDEN_AGENT_CLAUDE_CODE_PASSWORD: { valueFrom: { secretKeyRef: { name: 'my-secret', key: 'WARDEN_AGENT_CLAUDE_CODE_PASSWORD' } } } });
  });

  it('forms a JetStream cluster of several servers, and runs one server alone', () => {
    expect(values(options()).config.cluster).toEqual({ enabled: true, replicas: 3 });
    expect(values(options({ clusterReplicas: 5 })).config.cluster).toEqual({ enabled: true, replicas: 5 });
    expect(values(options({ clusterReplicas: 1 })).config.cluster).toEqual({ enabled: false });
    expect(() => renderNatsHelmValues(options({ clusterReplicas: 0 }))).toThrow(RangeError);
  });

  it('sets ports, storage, max_payload and the nats-server image', () => {
    const v = values(options({ port: 4333, monitorPort: 8333, storeDir: '/js' }));
    expect(v.config.nats).toEqual({ port: 4333 });
    expect(v.config.monitor).toEqual({ enabled: true, port: 8333 });
    expect(v.config.jetstream).toEqual({ enabled: true, fileStore: { dir: '/js' } });
    expect(v.config.merge.max_payload).toBe('<< 8MB >>');
    expect(v.container.image.tag).toBe(NATS_SERVER_IMAGE_TAG);
  });

  it('keeps an agent whose name YAML 1.1 reads as a boolean a string, as Helm reads it', () => {
    const text = renderNatsHelmValues(options({ agents: [{ user: 'no', password: '$WARDEN_AGENT_NO_PASSWORD' }] }));
    expect(text).toMatch(/- user: "no"\n/);
    expect(parse(text, { version: '1.1' }).config.merge.accounts.WARDEN.users[2].user).toBe('no');
  });

  it('names the command that renders it again, with the options that differ from the defaults', () => {
    expect(renderNatsHelmValues(options())).toContain('# Rendered by `warden nats-config --format helm-values --agent claude-code`:');
    const custom = options({ partitions: 4, agents: [{ user: 'bot', password: 'pw$1' }], clusterReplicas: 1, passwordSecret: 's' });
    expect(renderNatsHelmValues(custom)).toContain("# Rendered by `warden nats-config --format helm-values --partitions 4 --agent 'bot:pw$1' --cluster-replicas 1 --password-secret s`:");
    expect(renderNatsHelmValues(options({ operators: [] }))).toContain('# Rendered by renderNatsHelmValues (@warden/messaging):');
  });
});
