import { renderNatsServerConfig, TOPOLOGY_DEFAULTS } from '@warden/messaging';
import { integerOption, UsageError, type Command } from '../command.js';
import { out } from '../output.js';

export const natsConfigCommand: Command = {
  name: 'nats-config',
  summary: 'Print a nats-server configuration for Warden',
  help: `Usage: warden nats-config [options]

Prints a nats-server (2.9+) configuration: JetStream, the subject mappings that spread sessions over
partitions, and users. Agents get permissions for their own subjects only (publish actions, outcomes
and session events; read their decisions and control messages). Passwords written as $NAME are read
by nats-server from its environment.

Options:
  --partitions N          partitions per session channel [${TOPOLOGY_DEFAULTS.partitions}]
  --host ADDRESS          listen address [127.0.0.1]
  --port N                client port [4222]
  --monitor-port N        HTTP monitoring port [8222]
  --store-dir PATH        JetStream storage [/data/jetstream]
  --service-password P    password of the service user "warden" [$WARDEN_SERVICE_PASSWORD]
  --operator-password P   password of the operator user "operator" [$WARDEN_OPERATOR_PASSWORD]
  --agent ID[:PASSWORD]   an agent user; repeat for each agent [none]

Example:
  warden nats-config --agent claude-code:'$CLAUDE_CODE_PASSWORD' > /etc/nats/warden.conf`,
  options: {
    partitions: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    'monitor-port': { type: 'string' },
    'store-dir': { type: 'string' },
    'service-password': { type: 'string' },
    'operator-password': { type: 'string' },
    agent: { type: 'string', multiple: true },
  },
  async run(values) {
    const agents = ((values.agent as string[] | undefined) ?? []).map((spec) => {
      const [user, password] = spec.split(':', 2) as [string, string | undefined];
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(user)) throw new UsageError(`agent id "${user}" must be letters, digits, - or _`);
      return { user, password: password ?? `$WARDEN_AGENT_${user.toUpperCase().replace(/-/g, '_')}_PASSWORD` };
    });
    out.line(
      renderNatsServerConfig({
        partitions: integerOption(values, 'partitions', TOPOLOGY_DEFAULTS.partitions),
        host: (values.host as string | undefined) ?? '127.0.0.1',
        port: integerOption(values, 'port', 4222),
        monitorPort: integerOption(values, 'monitor-port', 8222),
        storeDir: (values['store-dir'] as string | undefined) ?? '/data/jetstream',
        service: { user: 'warden', password: (values['service-password'] as string | undefined) ?? '$WARDEN_SERVICE_PASSWORD' },
        operators: [{ user: 'operator', password: (values['operator-password'] as string | undefined) ?? '$WARDEN_OPERATOR_PASSWORD' }],
        agents,
      }),
    );
    return 0;
  },
};
